# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Cut off inside a triple-quoted docstring.
# CHECK: mid_string.pir:11:9: error: unterminated triple-quoted string literal
import pypto.language as pl


@pl.program
class P:
    @pl.function
    def f(self):
        """never closed
