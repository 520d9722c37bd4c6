# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Task ids (`with pl.at(...) as t:`) are names usable only in deps=[...] of a
# later pl.at(level=CORE_GROUP) task; pl.manual_scope() takes no arguments.
# CHECK: task_ids.pir:[[@LINE+21]]:60: error: pl.at: deps=: 'n' is a variable, not a task id; task ids are bound by `with pl.at(...) as n:`
# CHECK: task_ids.pir:[[@LINE+22]]:57: error: pl.at: deps=: 'later' is not a task id bound before this scope; bind it with `with pl.at(...) as later:` first
# CHECK: task_ids.pir:[[@LINE+23]]:17: error: 't' is a task id (bound by `with pl.at(...) as t`); it can only be used in deps=[...] of a later pl.at task
# CHECK: task_ids.pir:[[@LINE+23]]:13: error: 't' is a task id (bound by `with pl.at(...) as t`); choose another variable name
# CHECK: task_ids.pir:[[@LINE+23]]:56: error: pl.at: deps= must be a list of task ids, e.g. deps=[t] where `t` is bound by an earlier `with pl.at(...) as t:`
# CHECK: task_ids.pir:[[@LINE+24]]:57: error: pl.at: deps= entries must be task id names bound by `with pl.at(...) as name:`
# CHECK: task_ids.pir:[[@LINE+25]]:54: error: pl.at: task id 'n' would shadow the variable 'n'; choose another name
# CHECK: task_ids.pir:[[@LINE+26]]:32: error: pl.spmd: `with ... as name` binds a task id and is only allowed on pl.at(level=pl.Level.CORE_GROUP) tasks
# CHECK: task_ids.pir:[[@LINE+27]]:14: error: pl.manual_scope: takes no arguments; write `with pl.manual_scope():`
# CHECK: task_ids.pir:[[@LINE+31]]:71: error: pl.at: only level=pl.Level.CORE_GROUP scopes are tasks; `as name` and deps= are not allowed on other levels
# CHECK-NOT: error:
import pypto.language as pl


@pl.program
class TaskIds:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[1, 8], pl.INT32], n: pl.Scalar[pl.INT32]):
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="first") as t:
                a = pl.load(x, [0, 0], [1, 8])
            with pl.at(level=pl.Level.CORE_GROUP, deps=[t, n]):
                b = pl.load(x, [0, 0], [1, 8])
            with pl.at(level=pl.Level.CORE_GROUP, deps=[later]) as later:
                c = pl.load(x, [0, 0], [1, 8])
            m = t + 1
            t = n
            with pl.at(level=pl.Level.CORE_GROUP, deps=t):
                d = pl.load(x, [0, 0], [1, 8])
            with pl.at(level=pl.Level.CORE_GROUP, deps=[t.x]):
                e = pl.load(x, [0, 0], [1, 8])
            with pl.at(level=pl.Level.CORE_GROUP) as n:
                f = pl.load(x, [0, 0], [1, 8])
            with pl.spmd(2) as s:
                g = pl.load(x, [0, 0], [1, 8])
        with pl.manual_scope(1):
            h = pl.load(x, [0, 0], [1, 8])

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.INT32]):
        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator) as h:
            y = pl.load(x, [0, 0, 0], [1, 1, 8])
