# pld.system.defer_wait V1 restrictions: INT32, rank >= 1, non-NZ, Ge only, integer threshold in [0, INT32_MAX].
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadDeferWait:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pld.DistributedTensor[[8], pl.INT32], fs: pld.DistributedTensor[[8], pl.FP32], nz: pld.DistributedTensor[[16, 16], pl.INT32, pl.TensorView(stride=[16, 1], layout=pl.TensorLayout.NZ)], f: pl.Scalar[pl.FP32]):
        # CHECK: defer_wait_errors.pir:[[@LINE+1]]:31: error: pld.system.defer_wait: argument 'signal' must have element type pl.INT32 (a deferred-completion counter), got pl.FP32
        pld.system.defer_wait(fs, [0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK: defer_wait_errors.pir:[[@LINE+1]]:31: error: pld.system.defer_wait: argument 'signal' has layout pl.TensorLayout.NZ; defer_wait addresses its counter with ND or DN layouts only
        pld.system.defer_wait(nz, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK: defer_wait_errors.pir:[[@LINE+1]]:48: error: pld.system.defer_wait: keyword 'cmp' is pld.WaitCmp.Eq; defer_wait supports only pld.WaitCmp.Ge (use pld.system.wait for an equality wait)
        pld.system.defer_wait(sig, [0], 1, cmp=pld.WaitCmp.Eq)
        # CHECK: defer_wait_errors.pir:[[@LINE+1]]:41: error: pld.system.defer_wait: argument 'expected' must be an integer scalar threshold, got pl.Scalar[pl.FP32]
        pld.system.defer_wait(sig, [0], f, cmp=pld.WaitCmp.Ge)
        # CHECK: defer_wait_errors.pir:[[@LINE+1]]:41: error: pld.system.defer_wait: argument 'expected' is -1; a defer_wait threshold must lie in [0, 2147483647] because the counter is polled as unsigned >=
        pld.system.defer_wait(sig, [0], pl.const(-1, pl.INT32), cmp=pld.WaitCmp.Ge)
        # CHECK: defer_wait_errors.pir:[[@LINE+1]]:41: error: pld.system.defer_wait: argument 'expected' is 2147483648; a defer_wait threshold must lie in [0, 2147483647] because the counter is polled as unsigned >=
        pld.system.defer_wait(sig, [0], 2147483648, cmp=pld.WaitCmp.Ge)
        # CHECK-NOT: error
        return
