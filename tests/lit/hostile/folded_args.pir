# Offsets, shapes and extents of op calls are checked on folded values, so
# arithmetic written in place of a literal is a diagnostic at parse time (exit
# 1), not IR that `simplify` folds into something that no longer type-checks
# (an internal error before). Integer arithmetic on constants must have a value:
# overflow, // 0 and a negative shift count are errors.
# RUN: not pypto-opt %s --pipeline=default 2>&1 | FileCheck %s --match-full-lines
# RUN: %python %S/../malformed/Inputs/expect_exit1.py pypto-opt %s
# CHECK:{{.*}}folded_args.pir:24:29: error: tile.load: argument 'offsets' offset -3 in dim 0 is negative
# CHECK:{{.*}}folded_args.pir:25:29: error: tile.load: argument 'offsets' offset -3 in dim 0 is negative
# CHECK:{{.*}}folded_args.pir:26:29: error: tile.load: argument 'offsets' region exceeds 'tensor' in dim 0: offset 4 + extent 16 > 16
# CHECK:{{.*}}folded_args.pir:27:37: error: tile.load: argument 'shapes' dim 0 must be positive, got 0
# CHECK:{{.*}}folded_args.pir:29:33: error: integer overflow in the constant expression 9223372036854775807 + 1 (the result does not fit in a 64-bit integer)
# CHECK:{{.*}}folded_args.pir:30:15: error: integer division by zero in the constant expression 7 // 0
# CHECK:{{.*}}folded_args.pir:31:15: error: negative shift count in the constant expression 1 << -1
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class FoldedArgs:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        a = pl.tile.load(x, [0 - 3, 0], [16, 64])
        b = pl.tile.load(x, [~2, 0], [16, 64])
        c = pl.tile.load(x, [2 + 2, 0], [16, 64])
        d = pl.tile.load(x, [0, 0], [1 - 1, 64])
        e = pl.tile.load(x, [0, 0], [16, 64])
        n = 9223372036854775807 + 1
        m = 7 // (1 - 1)
        s = 1 << (0 - 1)
        return
