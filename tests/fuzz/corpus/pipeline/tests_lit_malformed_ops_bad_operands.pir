# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Operand types an op rejects (reported by the op verifier).
# CHECK: bad_operands.pir:12:23: error: tensor.add: argument 'rhs' dtype pl.INT32 does not match 'lhs' dtype pl.FP32
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.FP32], b: pl.Tensor[[8, 8], pl.INT32]):
        c = pl.add(a, b)
