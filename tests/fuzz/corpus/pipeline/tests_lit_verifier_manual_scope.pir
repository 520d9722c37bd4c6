# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Verifier rules of pl.manual_scope() and task ids: only in a chip orchestration,
# not nested, not inside a task; deps= / task ids only on tasks and kernel calls,
# every deps name bound by an earlier task of the function.
# CHECK: manual_scope.pir:[[@LINE+16]]:9: error: pl.manual_scope: only allowed in a chip orchestration function (type=pl.FunctionType.Orchestration); 'kernel' is not one
# CHECK: manual_scope.pir:[[@LINE+23]]:13: error: pl.manual_scope: cannot be nested inside another pl.manual_scope
# CHECK: manual_scope.pir:[[@LINE+25]]:13: error: pl.manual_scope: not allowed inside a pl.at(level=pl.Level.CORE_GROUP) task; put the tasks inside the manual scope instead
# CHECK: manual_scope.pir:[[@LINE+27]]:17: error: self.kernel: deps=: 'zz' is not a task id bound by an earlier task in function 'chip'
# CHECK: manual_scope.pir:[[@LINE+27]]:17: error: tensor.create: a task id (`as name`) is only allowed on pl.at(level=pl.Level.CORE_GROUP) tasks and kernel calls
# CHECK: manual_scope.pir:[[@LINE+27]]:17: error: self.kernel: deps= must be a list of task id names
# CHECK: manual_scope.pir:[[@LINE+27]]:17: error: self.kernel: task_id must be a name
# CHECK: manual_scope.pir:[[@LINE+31]]:9: error: pl.manual_scope: only allowed in a chip orchestration function (type=pl.FunctionType.Orchestration); 'host_orch' is not one
# CHECK-NOT: error:
import pypto.language as pl


@pl.program
class ManualScopeRules:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 8], pl.INT32], y: pl.Out[pl.Tensor[[1, 8], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        with pl.manual_scope():
            t = pl.load(x, [0, 0], [1, 8])
            y = pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[1, 8], pl.INT32], y: pl.Out[pl.Tensor[[1, 8], pl.INT32]]) -> pl.Tensor[[1, 8], pl.INT32]:
        with pl.manual_scope():
            with pl.manual_scope():
                y = self.kernel(x, y)
        with pl.at(level=pl.Level.CORE_GROUP):
            with pl.manual_scope():
                u = pl.load(x, [0, 0], [1, 8])
        with pl.manual_scope():
            y = self.kernel(x, y, attrs={"deps": ["zz"]})
            z = pl.tensor.create([1, 8], dtype=pl.INT32, attrs={"task_id": "q"})
            y = self.kernel(x, y, attrs={"deps": "zz"})
            y = self.kernel(x, y, attrs={"task_id": 3})
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.INT32], y: pl.Out[pl.Tensor[[2, 1, 8], pl.INT32]]):
        with pl.manual_scope():
            for r in pl.range(2):
                self.chip(x[r], y[r], device=r)
