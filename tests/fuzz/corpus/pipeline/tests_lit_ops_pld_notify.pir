# pld.system.notify: both NotifyOp forms, literal and scalar values, offsets of the signal's rank.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
# CHECK: pld.system.notify(sig, peer, [peer, 0], v, op=pld.NotifyOp.Set)
# CHECK: pld.system.notify(sig, peer, [0, 0], pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Notify:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], peer: pl.Scalar[pl.INT32], v: pl.Scalar[pl.INT32]):
        pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.notify(sig, peer, [peer, 0], v, op=pld.NotifyOp.Set)
        pld.system.notify(target=sig, peer=peer, offsets=[0, 0], value=pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        return
