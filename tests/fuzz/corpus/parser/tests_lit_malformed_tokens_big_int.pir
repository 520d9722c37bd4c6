# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Integer literals must fit in 64 bits; the most negative value still does.
# CHECK: big_int.pir:10:9: error: integer literal does not fit in 64 bits
# CHECK-NOT: error:
import pypto.language as pl


@pl.jit
def f(n: pl.Scalar[pl.INDEX]):
    x = 99999999999999999999999
    y = -9223372036854775808
    z = 9223372036854775807
