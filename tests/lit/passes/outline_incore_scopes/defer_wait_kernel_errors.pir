# outline-incore-scopes: a kernel of the input that registers defer_wait
# conditions must be an outlined waiter (the defer_wait_waiter mark, which the
# pass gives every kernel it outlines from a waiter scope). A direct
# @pl.function InCore / AIV use is rejected at the registration: it bypasses
# the validated single-block waiter launch and the runtime's deferred-completion
# contract. A marked kernel (printed or programmatically built IR) is
# revalidated: InCore / AIV, no split= / predicate= / allow_early_resolve=True,
# only registrations and scalar bookkeeping, and launched as a top-level task of
# an orchestration function.
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# RUN: not pypto-opt %s --passes=outline-incore-scopes 2>&1 | FileCheck %s
# The accepted marked waiter and its top-level launch come first and report nothing:
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class WaiterKernels:
    @pl.function(type=pl.FunctionType.AIV, defer_wait_waiter=True)
    def marked_ok(self, sig: pld.DistributedTensor[[4, 1], pl.INT32], e: pl.Scalar[pl.INT32]):
        base: pl.Scalar[pl.INT32] = e + 1
        for i in pl.range(4):
            pld.system.defer_wait(sig, [i, 0], base, cmp=pld.WaitCmp.Ge)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def launch_ok(self, sig: pld.DistributedTensor[[4, 1], pl.INT32], e: pl.Scalar[pl.INT32]):
        self.marked_ok(sig, e)

    @pl.function(type=pl.FunctionType.InCore)
    def direct(self, sig: pld.DistributedTensor[[4, 1], pl.INT32]):
        # CHECK: defer_wait_kernel_errors.pir:[[@LINE+1]]:9: error: pld.system.defer_wait in kernel 'direct': a direct use in an @pl.function(type=pl.FunctionType.InCore) kernel is rejected, because it bypasses the validated single-block waiter task launch and the runtime's deferred-completion (AsyncCtx) contract; register the conditions in a dedicated `with pl.at(level=pl.Level.CORE_GROUP):` waiter scope of an orchestration function
        pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def direct_aiv(self, sig: pld.DistributedTensor[[4, 1], pl.INT32], n: pl.Scalar[pl.INDEX]):
        for i in pl.range(n):
            # CHECK: defer_wait_kernel_errors.pir:[[@LINE+1]]:13: error: pld.system.defer_wait in kernel 'direct_aiv': a direct use in an @pl.function(type=pl.FunctionType.AIV) kernel is rejected
            pld.system.defer_wait(sig, [i, 0], 1, cmp=pld.WaitCmp.Ge)
        return

    @pl.function(type=pl.FunctionType.InCore, defer_wait_waiter=True)
    def marked_payload(self, sig: pld.DistributedTensor[[4, 1], pl.INT32], x: pl.Tensor[[4], pl.INT32]):
        # CHECK: defer_wait_kernel_errors.pir:[[@LINE+1]]:13: error: a pld.system.defer_wait waiter: tensor.read is not allowed between registrations; a waiter only registers conditions and does scalar bookkeeping (no tensor.read, payload, cache or communication op)
        e = pl.tensor.read(x, [0])
        pld.system.defer_wait(sig, [0, 0], e, cmp=pld.WaitCmp.Ge)
        return

    # CHECK: defer_wait_kernel_errors.pir:[[@LINE+2]]:9: error: a pld.system.defer_wait waiter ('marked_aic', marked defer_wait_waiter) is a pure-AIV single-block task; a pl.FunctionType.AIC function cannot be one
    @pl.function(type=pl.FunctionType.AIC, defer_wait_waiter=True)
    def marked_aic(self, sig: pld.DistributedTensor[[4, 1], pl.INT32]):
        pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        return

    # CHECK: defer_wait_kernel_errors.pir:[[@LINE+2]]:9: error: a pld.system.defer_wait waiter must not set allow_early_resolve=True: a consumer could be picked up before the counters are ready
    @pl.function(type=pl.FunctionType.InCore, defer_wait_waiter=True, allow_early_resolve=True)
    def marked_early(self, sig: pld.DistributedTensor[[4, 1], pl.INT32]):
        pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        return

    @pl.function(type=pl.FunctionType.InCore, defer_wait_waiter=True)
    def marked_nested(self, sig: pld.DistributedTensor[[4, 1], pl.INT32]):
        pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def launch_nested(self, sig: pld.DistributedTensor[[4, 1], pl.INT32]):
        with pl.spmd(2):
            # CHECK: defer_wait_kernel_errors.pir:[[@LINE+1]]:13: error: a pld.system.defer_wait waiter ('marked_nested') must be launched as a top-level task of an orchestration function (single block), not from 'launch_nested' inside pl.spmd, pl.split_aiv or pl.at
            self.marked_nested(sig)
