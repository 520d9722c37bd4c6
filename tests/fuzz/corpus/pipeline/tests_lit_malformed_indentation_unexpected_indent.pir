# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# An indented line where no block starts; the block is still checked.
# CHECK: unexpected_indent.pir:14:13: error: unexpected indent
# CHECK: unexpected_indent.pir:14:20: error: expected an expression, found end of line
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
        x = n
            y = n +
