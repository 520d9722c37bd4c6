# outline-incore-scopes: the defer_wait V1 waiter contract. A pl.at(CORE_GROUP)
# scope registering conditions is a dedicated top-level single-block pure-AIV
# task: no split=, no predicate=, no allow_early_resolve=True, nothing but
# registrations and scalar bookkeeping (no tensor.read, payload, cache or comm
# op: each kind is tried), at most 64 registrations (a registering loop needs a static trip count).
# The accepted waiter (scalar bookkeeping, a branch, a loop of static trip count,
# a loop without registrations of dynamic trip count) outlines without errors.
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# RUN: not pypto-opt %s --passes=outline-incore-scopes 2>&1 | FileCheck %s
# The accepted waiter comes first and reports nothing:
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Waiters:
    @pl.function(type=pl.FunctionType.Orchestration)
    def ok(self, sig: pld.DistributedTensor[[4, 1], pl.INT32], n: pl.Scalar[pl.INDEX], e: pl.Scalar[pl.INT32]):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter"):
            me = pld.rank(pld.get_comm_ctx(sig))
            base: pl.Scalar[pl.INT32] = e + 1
            for i in pl.range(4):
                pld.system.defer_wait(sig, [i, 0], base, cmp=pld.WaitCmp.Ge)
            for j in pl.range(n):
                k = j + 1
            if me == 0:
                pld.system.defer_wait(sig, [0, 0], e, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.Orchestration)
    def bad(self, x: pl.Tensor[[4, 8], pl.INT32], sig: pld.DistributedTensor[[4, 1], pl.INT32], n: pl.Scalar[pl.INDEX]):
        with pl.at(level=pl.Level.CORE_GROUP):
            # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:42: error: a pld.system.defer_wait waiter: tensor.read is not allowed between registrations; a waiter only registers conditions and does scalar bookkeeping (no tensor.read, payload, cache or communication op)
            epoch: pl.Scalar[pl.INT32] = pl.read(x, [0, 0])
            pld.system.defer_wait(sig, [0, 0], epoch, cmp=pld.WaitCmp.Ge)
        with pl.at(level=pl.Level.CORE_GROUP):
            pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
            # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:13: error: a pld.system.defer_wait waiter: pld.system.notify is not allowed between registrations
            pld.system.notify(sig, 0, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
            pld.system.defer_wait(sig, [1, 0], 1, cmp=pld.WaitCmp.Ge)
        with pl.at(level=pl.Level.CORE_GROUP):
            pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
            # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:17: error: a pld.system.defer_wait waiter: tile.load is not allowed between registrations
            t = pl.load(x, [0, 0], [4, 8])
            pld.system.defer_wait(sig, [1, 0], 1, cmp=pld.WaitCmp.Ge)
        with pl.at(level=pl.Level.CORE_GROUP):
            pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
            # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:13: error: a pld.system.defer_wait waiter: system.cacheinvalid is not allowed between registrations
            pl.system.cacheinvalid(sig, [4, 1], [0, 0])
            pld.system.defer_wait(sig, [1, 0], 1, cmp=pld.WaitCmp.Ge)
        with pl.at(level=pl.Level.CORE_GROUP):
            # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:13: error: a pld.system.defer_wait waiter: a loop that registers conditions needs a static trip count (a task registers at most 64)
            for i in pl.range(n):
                pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:9: error: a pld.system.defer_wait waiter registers 65 conditions; a task registers at most 64
        with pl.at(level=pl.Level.CORE_GROUP):
            for i in pl.range(65):
                pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:9: error: a pld.system.defer_wait waiter must not set allow_early_resolve=True: a consumer could be picked up before the counters are ready
        with pl.at(level=pl.Level.CORE_GROUP, allow_early_resolve=True):
            pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:9: error: a pld.system.defer_wait waiter takes no predicate=: it must always register
        with pl.at(level=pl.Level.CORE_GROUP, predicate=True):
            pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:9: error: a pld.system.defer_wait waiter is a pure-AIV single-block task; split= is not allowed
        with pl.at(level=pl.Level.CORE_GROUP, split=pl.SplitMode.UP_DOWN):
            pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        with pl.spmd(2):
            # CHECK: defer_wait_waiter_errors.pir:[[@LINE+1]]:13: error: a pld.system.defer_wait waiter must be a top-level pl.at(level=pl.Level.CORE_GROUP) task (single block), not inside pl.spmd, pl.split_aiv or another scope
            with pl.at(level=pl.Level.CORE_GROUP):
                pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
