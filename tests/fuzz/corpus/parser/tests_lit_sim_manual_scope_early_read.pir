# Inside a pl.manual_scope() the orchestration code only submits tasks: reading
# a value a task defines before the scope ends is a clear error (exit 1), not a
# hang; after the scope the value is there.
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 1 --entry chip --inputs-random=1 --output-dir %t.a | FileCheck %s
# CHECK: manual_scope_early_read.pir:[[@LINE+11]]:17: error: pl.manual_scope: task 'reader' ({{.*}}manual_scope_early_read.pir:[[@LINE+10]]) has not run yet: inside a manual scope the orchestration code only submits tasks, so it cannot read a task's result; read it after the scope or in a task
# CHECK: exit code 1
import pypto.language as pl


@pl.program
class EarlyRead:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, inp: pl.Tensor[[1, 8], pl.INT32]) -> pl.Scalar[pl.INT32]:
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="reader"):
                v: pl.Scalar[pl.INT32] = pl.read(inp, [0, 0])
            w = v + 1
        return w
