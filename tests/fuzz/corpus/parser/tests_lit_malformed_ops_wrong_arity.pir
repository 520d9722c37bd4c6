# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Calls with the wrong number of arguments.
# CHECK: wrong_arity.pir:13:13: error: tile.load: expected 3 to 4 positional arguments (tensor, offsets, shapes, valid_shape), got 1
# CHECK: wrong_arity.pir:14:9: error: system.fence: expected 0 positional arguments (), got 3
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.FP32]):
        t = pl.tile.load(a)
        pl.system.fence(a, a, a)
