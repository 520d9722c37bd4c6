# pld.system.notify verifier: window-bound target, rank-index peer, offsets rank, scalar value, op enum.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadNotify:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pld.DistributedTensor[[NR, 1], pl.INT32], plain: pl.Tensor[[16, 16], pl.INT32], peer: pl.Scalar[pl.INT32], f: pl.Scalar[pl.FP32], t: pl.Tensor[[1], pl.INT32]):
        # CHECK: notify_errors.pir:[[@LINE+1]]:27: error: pld.system.notify: argument 'target' must be a pld.DistributedTensor (window-bound), got pl.Tensor{{\[\[}}16, 16], pl.INT32]
        pld.system.notify(plain, peer, [0, 0], 1, op=pld.NotifyOp.Set)
        # CHECK: notify_errors.pir:[[@LINE+1]]:32: error: pld.system.notify: argument 'peer' must be an integer pl.Scalar rank index (e.g. pl.Scalar[pl.INT32]), got pl.Scalar[pl.FP32]
        pld.system.notify(sig, f, [0, 0], 1, op=pld.NotifyOp.Set)
        # CHECK: notify_errors.pir:[[@LINE+1]]:38: error: pld.system.notify: argument 'offsets' must have 2 elements (one per dimension of 'target'), got 1
        pld.system.notify(sig, peer, [0], 1, op=pld.NotifyOp.Set)
        # CHECK: notify_errors.pir:[[@LINE+1]]:46: error: pld.system.notify: argument 'value' must be a pl.Scalar, got pl.Tensor{{\[\[}}1], pl.INT32]
        pld.system.notify(sig, peer, [0, 0], t, op=pld.NotifyOp.Set)
        # CHECK: notify_errors.pir:[[@LINE+1]]:9: error: pld.system.notify: missing required keyword argument 'op'
        pld.system.notify(sig, peer, [0, 0], 1)
        # CHECK-NOT: error
        return
