# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Keyword arguments: unknown names list what the op takes; enum kwargs must be
# of the op's enum; an argument may not be given twice.
# CHECK: kwargs.pir:16:67: error: pld.system.notify: unknown keyword argument 'mode' (arguments: target, peer, offsets, value; keywords: op)
# CHECK: kwargs.pir:17:70: error: keyword 'op' expects a pld.NotifyOp value, got 'pld.WaitCmp.Ge'
# CHECK: kwargs.pir:18:53: error: pld.system.notify: argument 'peer' given both positionally and by keyword
# CHECK: kwargs.pir:19:9: error: pld.system.notify: missing argument 'offsets' (given later arguments by keyword)
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, s: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pld.system.notify(s, peer, [0, 0], pl.const(1, pl.INT32), mode=1)
        pld.system.notify(s, peer, [0, 0], pl.const(1, pl.INT32), op=pld.WaitCmp.Ge)
        pld.system.notify(s, peer, [0, 0], value=1, peer=peer)
        pld.system.notify(s, peer, value=pl.const(1, pl.INT32))
