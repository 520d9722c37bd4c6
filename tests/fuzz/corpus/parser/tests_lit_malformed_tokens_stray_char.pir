# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Characters that are not part of the language.
# CHECK: stray_char.pir:13:15: error: unexpected character '$'
# CHECK: stray_char.pir:14:15: error: unexpected character '?'
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
        x = n $ 2
        y = n ? 1
