# An unsatisfiable dependency in a pl.manual_scope() is a deadlock, not a hang:
# the waiter's defer_wait is never satisfied (nobody notifies), so its dependent
# task never starts. Both schedules report exit 3 with the blocked dependency
# (task names, lines) and the waiter's unmet completion condition.
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 2 --inputs-random=1 --output-dir %t.a | FileCheck %s
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 2 --inputs-random=1 --output-dir %t.b --schedule=random:4 | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.lowered.pir
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %t.lowered.pir --ranks 2 --inputs-random=1 --output-dir %t.c | FileCheck %s --check-prefix=LOWERED
# CHECK-DAG: rank 0 (thread rank0.task0) blocked in pld.system.defer_wait (task completion) in function 'chip' at {{.*}}manual_scope_deadlock.pir:[[@LINE+16]]: signal 'sig' (window 'sbuf') cell [0, 0] >= 1 expected (Ge), actual 0
# CHECK-DAG: rank 0 (thread rank0.task1) blocked in deps=[w] of task 'late' in function 'chip' at {{.*}}manual_scope_deadlock.pir:[[@LINE+16]]: task 'w' ({{.*}}manual_scope_deadlock.pir:[[@LINE+14]]) has not completed
# CHECK: exit code 3
# LOWERED: blocked in deps=[w] of task 'late'
# LOWERED: exit code 3
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ManualScopeDeadlock:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, inp: pl.Tensor[[1, 8], pl.INT32], out: pl.Out[pl.Tensor[[1, 8], pl.INT32]],
             sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as w:
                pld.system.defer_wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="late", deps=[w]):
                t = pl.load(inp, [0, 0], [1, 8])
                out = pl.store(t, [0, 0], out)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.INT32], y: pl.Out[pl.Tensor[[2, 1, 8], pl.INT32]]):
        sbuf = pld.alloc_window_buffer(4)
        for r in pl.range(pld.world_size()):
            sig = pld.window(sbuf, [1, 1], dtype=pl.INT32)
            self.chip(x[r], y[r], sig, device=r)
