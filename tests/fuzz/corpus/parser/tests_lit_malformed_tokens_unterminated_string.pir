# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# A string literal that does not end on its line.
# CHECK: unterminated_string.pir:10:23: error: unterminated string literal; expected a closing quote on the same line
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(attr="abc)
    def f(self):
        pass
