# barrier/broadcast/reduce_scatter verifier: signal shape, root range, reduce_scatter's op is a pld.ReduceOp, [NR, SIZE] target.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadBBRS:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, data: pld.DistributedTensor[[4, 64], pl.FP32], flat: pld.DistributedTensor[[256], pl.FP32], sig: pld.DistributedTensor[[4, 1], pl.INT32], wide: pld.DistributedTensor[[4, 2], pl.INT32]):
        # CHECK: barrier_broadcast_reduce_scatter_errors.pir:[[@LINE+1]]:32: error: pld.tensor.barrier: argument 'signal' must have shape [NR] or [NR, 1] (one barrier cell per rank), got [4, 2]
        a = pld.tensor.barrier(wide)
        # CHECK: barrier_broadcast_reduce_scatter_errors.pir:[[@LINE+1]]:50: error: pld.tensor.broadcast: keyword 'root' is -1; the root rank must be >= 0
        b = pld.tensor.broadcast(data, sig, root=-1)
        # CHECK: barrier_broadcast_reduce_scatter_errors.pir:[[@LINE+1]]:50: error: pld.tensor.broadcast: keyword 'root' is 4 but 'signal' has 4 ranks; the root rank must be < NR
        c = pld.tensor.broadcast(data, sig, root=4)
        # CHECK: barrier_broadcast_reduce_scatter_errors.pir:[[@LINE+1]]:13: error: pld.tensor.broadcast: missing required keyword argument 'root'
        d = pld.tensor.broadcast(data, sig)
        # CHECK: barrier_broadcast_reduce_scatter_errors.pir:[[@LINE+1]]:53: error: keyword 'op' expects a pld.ReduceOp value, got 'pld.WaitCmp.Ge'
        e = pld.tensor.reduce_scatter(data, sig, op=pld.WaitCmp.Ge)
        # CHECK: barrier_broadcast_reduce_scatter_errors.pir:[[@LINE+1]]:39: error: pld.tensor.reduce_scatter: argument 'target' must be 2-D [NR, SIZE], got shape [256]
        f = pld.tensor.reduce_scatter(flat, sig)
        # CHECK-NOT: error
        return
