# Core tile ops: tile.load / tile.store through partition views, tile.create
# (allocation only), set_validshape, fillpad_inplace, elementwise ops in
# ins(...) outs(...) form; an atomic-add store; scf.for carrying a tile and a
# scalar; scf.if yielding a scalar. Tiles get non-overlapping UB addresses,
# except the buffers of a loop-carried tile that is resized after the loop.
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK-LABEL: func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: index)
# CHECK-DAG:      %a = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK-DAG:      %b = pto.alloc_tile addr = %c4096_i64 :
# CHECK-DAG:      %s = pto.alloc_tile addr = %c4096_i64 :
# CHECK:          %a_pview = pto.partition_view %x_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT:     pto.tload ins(%a_pview : !pto.partition_tensor_view<16x64xf32>) outs(%a : !pto.tile_buf<{{.*}}>)
# CHECK:          pto.tmul ins(%a, %a : !pto.tile_buf<{{.*}}>, !pto.tile_buf<{{.*}}>) outs(%b : !pto.tile_buf<{{.*}}>)
# The loop result is resized after the loop, so the carried tile is typed
# dynamic-valid from the start, and its buffers (the init %b, the yielded %s,
# written in place by tadd) are one buffer at 4096: ptoas resizes only a locally
# bound tile, so the loop result is re-bound there (%acc_out_0_as) at its new
# valid extent instead of set_validshape on the scf result.
# CHECK:          %b_as = pto.alloc_tile addr = %c4096_i64 valid_row = %c16_index valid_col = %c64_index : !pto.tile_buf<{{.*}}v_row=?, v_col=?{{.*}}pad=0>
# CHECK-NEXT:     %[[R:.+]]:2 = scf.for %i = %c0_index to %arg2 step %c1_index iter_args(%acc = %b_as, %k = %c0_index) -> (!pto.tile_buf<{{.*}}v_row=?, v_col=?{{.*}}>, index) {
# CHECK-NEXT:       pto.tadd ins(%acc, %a : {{.*}}) outs(%s : {{.*}})
# CHECK-NEXT:       %[[K:[0-9]+]] = arith.addi %k, %c1_index : index
# CHECK-NEXT:       %s_as = pto.alloc_tile addr = %c4096_i64 valid_row = %c16_index valid_col = %c64_index : !pto.tile_buf<{{.*}}v_row=?, v_col=?{{.*}}>
# CHECK-NEXT:       scf.yield %s_as, %[[K]] : !pto.tile_buf<{{.*}}v_row=?, v_col=?{{.*}}>, index
# CHECK-NEXT:     }
# CHECK:          %[[C:[0-9]+]] = arith.cmpi sgt, %[[R]]#1, %c2_index : index
# CHECK-NEXT:     %{{.*}} = scf.if %[[C]] -> (index) {
# CHECK-NEXT:       scf.yield %c1_index : index
# CHECK-NEXT:     } else {
# CHECK-NEXT:       scf.yield %c0_index : index
# CHECK-NEXT:     }
# CHECK-NOT:      pto.set_validshape
# CHECK:          %[[V:.+]] = pto.alloc_tile addr = %c4096_i64 valid_row = %c8_index valid_col = %c32_index : !pto.tile_buf<{{.*}}v_row=?, v_col=?{{.*}}>
# CHECK-NEXT:     %[[W:.+]] = pto.alloc_tile addr = %c4096_i64 : !pto.tile_buf<{{.*}}v_row=16, v_col=64{{.*}}pad=1>
# CHECK-NEXT:     pto.tfillpad ins(%[[V]] : {{.*}}) outs(%[[W]] : {{.*}})
# CHECK-NEXT:     %y_pview = pto.partition_view %y_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index]
# CHECK-NEXT:     pto.tstore ins(%[[W]] : {{.*}}) outs(%y_pview : !pto.partition_tensor_view<16x64xf32>) {atomicType = #pto<atomic_type atomic_add>}
# CHECK-NEXT:     return
# A tile created and then resized at run time is allocated with dynamic valid
# dims (v_row=?, v_col=?) starting at its full extent.
# CHECK-LABEL: func.func @resize(%arg0: !pto.ptr<f32>, %arg1: index)
# CHECK:          %t = pto.alloc_tile addr = %c0_i64 valid_row = %c16_index valid_col = %c64_index : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK:          pto.set_validshape %t, %c1_index, %arg1 : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=?, v_col=?, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# fillpad_inplace writes the same buffer typed as its result (fully valid, pad
# value in the type; ptoas rejects a tfillpad whose destination has pad=0).
# CHECK-NEXT:     %t_as = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=1>
# CHECK-NEXT:     pto.tfillpad ins(%t : {{.*}}v_row=?, v_col=?{{.*}}pad=0>) outs(%t_as : {{.*}}v_row=16, v_col=64{{.*}}pad=1>)
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class TileOps:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], n: pl.Scalar[pl.INDEX]):
        a = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        b = pl.tile.mul(a, a)
        for i, (acc, k) in pl.range(0, n, 1, init_values=(b, 0)):
            s = pl.tile.add(acc, a)
            k2 = k + 1
            acc_out, k_out = pl.yield_(s, k2)
        if k_out > 2:
            f = pl.yield_(1)
        else:
            f = pl.yield_(0)
        v = pl.tile.set_validshape(acc_out, 8, 32)
        w = pl.tile.fillpad_inplace(v, pad_value=pl.PadValue.zero)
        pl.tile.store(w, [0, 0], y, atomic=pld.AtomicType.Add)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def resize(self, y: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX]):
        t = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        u = pl.tile.set_validshape(t, 1, n)
        w = pl.tile.fillpad_inplace(u, pad_value=pl.PadValue.zero)
        return
