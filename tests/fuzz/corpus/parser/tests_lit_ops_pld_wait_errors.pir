# pld.system.wait verifier: window-bound signal, offsets rank, scalar expected, cmp enum.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadWait:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pld.DistributedTensor[[NR, 1], pl.INT32], plain: pl.Tensor[[4, 1], pl.INT32], t: pl.Tensor[[1], pl.INT32]):
        # CHECK: wait_errors.pir:[[@LINE+1]]:25: error: pld.system.wait: argument 'signal' must be a pld.DistributedTensor (window-bound), got pl.Tensor{{\[\[}}4, 1], pl.INT32]
        pld.system.wait(plain, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK: wait_errors.pir:[[@LINE+1]]:30: error: pld.system.wait: argument 'offsets' must have 2 elements (one per dimension of 'signal'), got 3
        pld.system.wait(sig, [0, 0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK: wait_errors.pir:[[@LINE+1]]:38: error: pld.system.wait: argument 'expected' must be a pl.Scalar, got pl.Tensor{{\[\[}}1], pl.INT32]
        pld.system.wait(sig, [0, 0], t, cmp=pld.WaitCmp.Ge)
        # CHECK: wait_errors.pir:[[@LINE+1]]:9: error: pld.system.wait: missing required keyword argument 'cmp'
        pld.system.wait(sig, [0, 0], 1)
        # CHECK-NOT: error
        return
