# ptoas needs the row of a row-major tile to be whole 32-byte blocks: a tile whose
# row is not (17 x FP16 = 34 bytes, 1 x INT32 = 4 bytes) is allocated with its
# columns rounded up to the next block (cols=32, cols=8) and keeps the IR's
# columns as its valid columns; loads and stores move only the IR's extent, and
# the UB addresses step by the rounded size (1 x 32 x 2 = 64 bytes).
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK-LABEL: func.func @k(
# CHECK:      %h = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=1, cols=32, v_row=1, v_col=17, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK-NEXT: %c = pto.alloc_tile addr = %c64_i64 : !pto.tile_buf<loc=vec, dtype=i32, rows=2, cols=8, v_row=2, v_col=1, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK:      pto.tload ins(%h_pview : !pto.partition_tensor_view<1x17xf16>) outs(%h : {{.*}}cols=32, v_row=1, v_col=17{{.*}})
# CHECK:      pto.tload ins(%c_pview : !pto.partition_tensor_view<2x1xi32>) outs(%c : {{.*}}cols=8, v_row=2, v_col=1{{.*}})
import pypto.language as pl


@pl.program
class RowAlignment:
    @pl.function(type=pl.FunctionType.AIV)
    def k(self, x: pl.Tensor[[1, 17], pl.FP16], n: pl.Tensor[[2, 1], pl.INT32],
          y: pl.InOut[pl.Tensor[[1, 17], pl.FP16]], m: pl.InOut[pl.Tensor[[2, 1], pl.INT32]]):
        h = pl.tile.load(x, [0, 0], [1, 17], target_memory=pl.Mem.Vec)
        c = pl.tile.load(n, [0, 0], [2, 1], target_memory=pl.Mem.Vec)
        pl.tile.store(h, [0, 0], y)
        pl.tile.store(c, [0, 0], m)
        return
