# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# A dedent to a column that matches no enclosing block.
# CHECK: bad_dedent.pir:14:7: error: unindent does not match any outer indentation level
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
        if n > 1:
            x = n
      y = n
