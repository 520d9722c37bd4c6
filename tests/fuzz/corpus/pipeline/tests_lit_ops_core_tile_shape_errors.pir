# pl.tile.row_sum and pl.tile.reshape rules: each bad call is reported at
# file:line:col with the op, the argument and the rule.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class BadShapes:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 8], pl.FP32], b: pl.Tensor[[16, 8], pl.BF16], x3: pl.Tensor[[2, 4, 8], pl.FP32]):
        t = pl.load(x, [0, 0], [16, 8])
        small = pl.tile.create([16, 4], dtype=pl.FP32)
        # CHECK: tile_shape_errors.pir:[[@LINE+1]]:32: error: tile.row_sum: argument 'tmp_tile' shape [16, 4] is smaller than 'tile' shape [16, 8] in dim 1; the scratch tile must be at least as large as the input
        s = pl.tile.row_sum(t, small)
        tb = pl.load(b, [0, 0], [16, 8])
        # CHECK: tile_shape_errors.pir:[[@LINE+1]]:29: error: tile.row_sum: argument 'tile' dtype pl.BF16 is not supported; TROWSUM takes FP32, FP16, INT32 or INT16
        s = pl.tile.row_sum(tb, tb)
        # CHECK: tile_shape_errors.pir:[[@LINE+1]]:32: error: tile.row_sum: argument 'tmp_tile' dtype pl.BF16 does not match 'tile' dtype pl.FP32
        s = pl.tile.row_sum(t, tb)
        t3 = pl.load(x3, [0, 0, 0], [2, 4, 8])
        # CHECK: tile_shape_errors.pir:[[@LINE+1]]:29: error: tile.row_sum: argument 'tile' must be a 2-D tile, got rank 3
        s = pl.tile.row_sum(t3, t3)
        # CHECK: tile_shape_errors.pir:[[@LINE+1]]:32: error: tile.reshape: argument 'shape' [8, 8] has 64 elements but 'tile' [16, 8] has 128
        r = pl.tile.reshape(t, [8, 8])
        # CHECK: tile_shape_errors.pir:[[@LINE+1]]:32: error: tile.reshape: argument 'shape' must have 1 or 2 dimensions, got 3; N-D tiles are flattened to 2-D by flatten-tile-nd-to-2d
        r = pl.tile.reshape(t, [2, 8, 8])
        p = pl.load(x, [0, 0], [16, 8], [10, 8])
        # CHECK: tile_shape_errors.pir:[[@LINE+1]]:29: error: tile.reshape: argument 'tile' is only partly valid (valid shape [10, 8] of [16, 8]); reshape a fully valid tile (fill it with pl.tile.fillpad_inplace first)
        r = pl.tile.reshape(p, [128])
        # CHECK-NOT: error
        return
