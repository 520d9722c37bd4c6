# Type dims are checked at the declaration, on folded values: zero, negative
# and float dims, arithmetic that folds to zero or below, constant arithmetic
# that overflows, and a shape whose byte size overflows int64 are diagnostics at
# the dim (exit 1), never a crash in a lowering (a zero dim used to SIGFPE in
# the mesh allreduce lowering). `[2 + 2, 64]` folds to 4 and is fine.
# RUN: not pypto-opt %s --pipeline=default 2>&1 | FileCheck %s --match-full-lines --strict-whitespace
# RUN: %python %S/../malformed/Inputs/expect_exit1.py pypto-opt %s
# CHECK:{{.*}}bad_dims.pir:32:30: error: dimension 0 of pl.Tensor{{\[\[}}0, 64], pl.FP32] is 0; static dimensions must be positive
# CHECK:{{.*}}bad_dims.pir:33:30: error: dimension 0 of pl.Tensor{{\[\[}}-2, 64], pl.FP32] is -2; static dimensions must be positive
# CHECK:{{.*}}bad_dims.pir:34:30: error: dimension 0 of pl.Tensor{{\[\[}}16.5, 64], pl.FP32] is 16.5, a pl.FP32 value; dimensions must be integers
# CHECK:{{.*}}bad_dims.pir:35:30: error: dimension 0 of pl.Tensor{{\[\[}}0, 64], pl.FP32] is 0 (written 1 - 1); static dimensions must be positive
# CHECK:{{.*}}bad_dims.pir:36:51: error: dimension 0 of pld.DistributedTensor{{\[\[}}-3, 0], pl.FP32] is -3 (written 0 - 3); static dimensions must be positive
# CHECK:{{.*}}bad_dims.pir:36:58: error: dimension 1 of pld.DistributedTensor{{\[\[}}-3, 0], pl.FP32] is 0; static dimensions must be positive
# CHECK:{{.*}}bad_dims.pir:37:30: error: dimension 0 of pl.Tensor{{\[\[}}-3, 0], pl.FP32] is -3 (written ~(2)); static dimensions must be positive
# CHECK:{{.*}}bad_dims.pir:37:34: error: dimension 1 of pl.Tensor{{\[\[}}-3, 0], pl.FP32] is 0; static dimensions must be positive
# CHECK:{{.*}}bad_dims.pir:38:37: error: dimension 1 of pl.Tensor{{\[\[}}4, 0], pl.FP32] is 0 (written 1 - 1); static dimensions must be positive
# CHECK:{{.*}}bad_dims.pir:39:50: error: integer overflow in the constant expression 4611686018427387904 * 4 (the result does not fit in a 64-bit integer)
# CHECK:{{.*}}bad_dims.pir:40:30: error: the size of pl.Tensor{{\[\[}}2147483648, 2147483648], pl.FP32] overflows: its 4 bytes per element times the product of its dimensions do not fit in a 64-bit integer
# CHECK:{{.*}}bad_dims.pir:41:83: error: valid_shape dimension 0 of pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] is -1 (written 0 - 1); valid extents must not be negative
# CHECK:{{.*}}bad_dims.pir:42:32: error: dimension 1 of pl.Tile{{\[\[}}16, 0], pl.FP32, pl.Mem.Vec] is 0; static dimensions must be positive
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadDims:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self,
               a: pl.Tensor[[0, 64], pl.FP32],
               b: pl.Tensor[[-2, 64], pl.FP32],
               c: pl.Tensor[[16.5, 64], pl.FP32],
               d: pl.Tensor[[1 - 1, 64], pl.FP32],
               e: pl.InOut[pld.DistributedTensor[[0 - 3, 0], pl.FP32]],
               f: pl.Tensor[[~2, 0], pl.FP32],
               g: pl.Tensor[[2 + 2, 1 - 1], pl.FP32],
               h: pl.Tensor[[4611686018427387904 * 4 + 16, 1], pl.FP32],
               i: pl.Tensor[[2147483648, 2147483648], pl.FP32],
               j: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[0 - 1, 64])],
               k: pl.Tile[[16, 0], pl.FP32, pl.Mem.Vec],
               ok: pl.Tensor[[2 + 2, 64], pl.FP32],
               dyn: pl.Tensor[[NR, 64], pl.FP32]):
        return
