# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# A malformed number literal (lexing stops at the first token error).
# CHECK: bad_number.pir:12:13: error: invalid number literal '12abc'
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
        x = 12abc
