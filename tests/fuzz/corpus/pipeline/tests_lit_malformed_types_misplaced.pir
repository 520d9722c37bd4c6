# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# pl.InOut outside a parameter list, a tensor annotation on a scalar value.
# CHECK: misplaced.pir:13:12: error: pl.InOut[...] is only allowed on function parameters
# CHECK: misplaced.pir:14:12: error: type annotation of 'y' does not match its value: annotated pl.Tensor{{\[\[}}4], pl.FP32], but the value has type pl.Scalar[pl.INDEX]
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
        x: pl.InOut[pl.Scalar[pl.INDEX]] = n
        y: pl.Tensor[[4], pl.FP32] = n
