# Cube ops: GM -> Mat (tload), Mat -> Left / Right (tmov), tmatmul into a fresh
# Acc buffer, tmatmul.acc in that buffer, Acc -> GM (tstore); every cube space
# with its fixed fractal layout. tile.full is texpands of the value. ptoas
# accepts both modules (the ptoas tier assembles them).
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK-LABEL: func.func @gemm({{.*}}) attributes {pto.kernel_kind = #pto.kernel_kind<cube>}
# CHECK-DAG: %ma = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=mat, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=col_major, slayout=row_major, fractal=512, pad=0>
# CHECK-DAG: %la = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=left, dtype=f16, rows=16, cols=32, v_row=16, v_col=32, blayout=row_major, slayout=row_major, fractal=512, pad=0>
# CHECK-DAG: %rb = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=right, dtype=f16, rows=32, cols=16, v_row=32, v_col=16, blayout=row_major, slayout=col_major, fractal=512, pad=0>
# CHECK-DAG: %acc = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=col_major, slayout=row_major, fractal=1024, pad=0>
# CHECK: pto.tmov ins(%ma : !pto.tile_buf<loc=mat{{.*}}>) outs(%la : !pto.tile_buf<loc=left{{.*}}>)
# CHECK: pto.tmov ins(%mb : !pto.tile_buf<loc=mat{{.*}}>) outs(%rb : !pto.tile_buf<loc=right{{.*}}>)
# CHECK-NEXT: pto.tmatmul ins(%la, %rb : !pto.tile_buf<loc=left{{.*}}>, !pto.tile_buf<loc=right{{.*}}>) outs(%acc : !pto.tile_buf<loc=acc{{.*}}>)
# CHECK-NEXT: pto.tmatmul.acc ins(%acc, %la, %rb : !pto.tile_buf<loc=acc{{.*}}>, !pto.tile_buf<loc=left{{.*}}>, !pto.tile_buf<loc=right{{.*}}>) outs(%acc : !pto.tile_buf<loc=acc{{.*}}>)
# CHECK: pto.tstore ins(%acc : !pto.tile_buf<loc=acc{{.*}}>) outs(%c_pview : !pto.partition_tensor_view<16x16xf32>)
# CHECK-LABEL: func.func @fill(
# CHECK: %[[V:.+]] = arith.constant 3.0{{.*}} : f32
# CHECK: pto.texpands ins(%[[V]] : f32) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16{{.*}}>)
import pypto.language as pl


@pl.program
class Gemm:
    @pl.function(type=pl.FunctionType.AIC)
    def gemm(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        ma = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        mb = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        la = pl.move(ma, target_memory=pl.Mem.Left)
        rb = pl.move(mb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, rb)
        acc2 = pl.matmul_acc(acc, la, rb)
        pl.store(acc2, [0, 0], c)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
        t = pl.tile.full([8, 16], dtype=pl.FP32, value=3.0)
        pl.store(t, [0, 0], y)
        return
