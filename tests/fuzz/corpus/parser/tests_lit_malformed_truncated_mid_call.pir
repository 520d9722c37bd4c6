# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# A file cut off in the middle of a call: the unclosed bracket is reported at
# the opening bracket.
# CHECK: mid_call.pir:12:37: error: '[' was never closed; expected ']' before end of file
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.FP32]):
        t = pl.tile.load(a, [0, 0], [16,
