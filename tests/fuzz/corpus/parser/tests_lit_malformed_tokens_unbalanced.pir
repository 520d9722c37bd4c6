# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Unbalanced brackets: a closer that matches nothing, a mismatched closer.
# CHECK: unbalanced.pir:13:18: error: unmatched ')'
# CHECK: unbalanced.pir:14:18: error: closing ')' does not match opening '[' at line 14 column 13; expected ']'
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
        x = n + 1)
        y = [n, 2)
