# Two decorators on one function: the second used to merge into the first, so
# the function printed `split=` twice and its printed form no longer parsed
# (found by parser_fuzz; the reproducer is in tests/fuzz/corpus/parser). Now an
# error at the second decorator.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s --match-full-lines
# RUN: %python %S/../malformed/Inputs/expect_exit1.py pypto-opt %s
# CHECK:{{.*}}stacked_decorators.pir:[[@LINE+8]]:6: error: function 'both' has 2 decorators; a function takes exactly one (@pl.function(...), @pl.jit, @pl.jit.incore or @pl.jit.host): merge their keyword arguments
# CHECK-NOT: error
import pypto.language as pl


@pl.program
class Stacked:
    @pl.function(type=pl.FunctionType.InCore, split=pl.SplitMode.UP_DOWN)
    @pl.function(type=pl.FunctionType.InCore, split=pl.SplitMode.UP_DOWN)
    def both(self, x: pl.Tensor[[16, 64], pl.FP32]):
        return
