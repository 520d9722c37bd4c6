# break in a loop that re-assigns a value is not supported (exit 1, located).
# RUN: %python %S/../../tools/Inputs/expect_exit.py 1 pypto-opt %s --passes=convert-to-ssa 2>&1 | FileCheck %s
# CHECK: break_error.pir:[[@LINE+9]]:9: error: convert-to-ssa: 'break'/'continue' in a loop that re-assigns 'x' is not supported; restructure the loop with a condition
import pypto.language as pl


@pl.program
class B:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, n: pl.Scalar[pl.INDEX]):
        x = 0
        for i in pl.range(4):
            x = x + i
            if x > n:
                break
        return x
