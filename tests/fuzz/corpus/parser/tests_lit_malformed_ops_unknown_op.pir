# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Unknown ops, including a near miss that gets a suggestion.
# CHECK: unknown_op.pir:13:13: error: unknown op 'pl.tile.laod'; did you mean 'pl.tile.load'?
# CHECK: unknown_op.pir:14:9: error: unknown op 'pld.no_such_thing'
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16, 64], pl.FP32]):
        t = pl.tile.laod(a, [0, 0], [16, 64])
        pld.no_such_thing(a)
