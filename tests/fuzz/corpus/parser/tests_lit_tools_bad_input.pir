# Invalid input: diagnostics with file:line:col on stderr, exit code 1.
# RUN: %python %S/Inputs/expect_exit.py 1 pypto-opt %s 2>&1 | FileCheck %s
# CHECK: bad_input.pir:[[@LINE+8]]:{{[0-9]+}}: error:
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, n: pl.Scalar[pl.INDEX]):
        x = undefined_name + 1
        return x
