# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Unknown ops are reported at the call with the closest registered name.
# CHECK: unknown_op.pir:14:9: error: unknown op 'pld.system.notifyy'; did you mean 'pld.system.notify'?
# CHECK: unknown_op.pir:15:13: error: unknown op 'pl.tile.lod'; did you mean 'pl.tile.load'?
# CHECK: unknown_op.pir:16:13: error: unknown op 'pl.frobnicate'
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, s: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INT32], a: pl.Tensor[[16, 64], pl.FP32]):
        pld.system.notifyy(s, peer, [0, 0], pl.const(1, pl.INT32))
        t = pl.tile.lod(a, [0, 0], [16, 64])
        u = pl.frobnicate(a)
