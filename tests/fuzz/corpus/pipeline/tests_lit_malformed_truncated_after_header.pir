# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# A file that ends right after a function header has no body.
# CHECK: after_header.pir:11:1: error: expected an indented block after the function signature
import pypto.language as pl


@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
