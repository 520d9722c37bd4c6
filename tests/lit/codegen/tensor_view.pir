# tensor.view / tensor.slice results as kernel operands.
#  * reshape view of a packed tensor: a new make_tensor_view over the SAME
#    pointer (%arg0) with the new shape and packed strides;
#  * slice: the pointer advanced to the region start (static offsets folded:
#    8 * 64 + 16 = 528; dynamic: i * 64 + 16), then a make_tensor_view with the
#    region's shape and the parent's strides;
#  * views/slices of DistributedTensors keep the CommCtx: a remote_load through
#    a reshape view, remote_store / notify through slices address the peer's
#    copy by the inline CommContext arithmetic + addptr on the derived pointer;
#  * a same-shape view (valid_shape only) aliases the parent's view.
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# CHECK-LABEL: func.func @reshape(
# CHECK:      %x_view = pto.make_tensor_view %arg0, shape = [%c4_index, %c256_index], strides = [%c256_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK:      %v_view = pto.make_tensor_view %arg0, shape = [%c1_index, %c1024_index], strides = [%c1024_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %t_pview = pto.partition_view %v_view, offsets = [%c0_index, %c256_index], sizes = [%c1_index, %c512_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x512xf32>
# CHECK-NEXT: pto.tload ins(%t_pview : !pto.partition_tensor_view<1x512xf32>) outs(%t : {{.*}})
# CHECK-NEXT: %out_pview = pto.partition_view %out_view, offsets = [%c0_index, %c256_index], sizes = [%c1_index, %c512_index]
# CHECK-NEXT: pto.tstore
# CHECK-NEXT: %same_pview = pto.partition_view %v_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c256_index]
# CHECK-LABEL: func.func @slices(
# CHECK:      %s_ptr = pto.addptr %arg0, %c528_index : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %s_view = pto.make_tensor_view %s_ptr, shape = [%c4_index, %c32_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %t_pview = pto.partition_view %s_view, offsets = [%c0_index, %c0_index], sizes = [%c4_index, %c32_index]
# CHECK:      %[[M:[0-9]+]] = arith.muli %arg2, %c64_index : index
# CHECK-NEXT: %[[A:[0-9]+]] = arith.addi %[[M]], %c16_index : index
# CHECK-NEXT: %d_ptr = pto.addptr %arg0, %[[A]] : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %d_view = pto.make_tensor_view %d_ptr, shape = [%c4_index, %c32_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %u_pview = pto.partition_view %d_view
# CHECK-LABEL: func.func @dist_view(
# CHECK:      %w2_view = pto.make_tensor_view %arg0, shape = [%c1_index, %c1024_index], strides = [%c1024_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK:      pto.load_scalar %arg2[%c2_index] : !pto.ptr<i64> -> i64
# CHECK:      %[[PP:[0-9]+]] = pto.addptr %arg0, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %[[PV:[0-9]+]] = pto.make_tensor_view %[[PP]], shape = [%c1_index, %c1024_index], strides = [%c1024_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %t_peer_pview = pto.partition_view %[[PV]], offsets = [%c0_index, %c512_index], sizes = [%c1_index, %c256_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x256xf32>
# CHECK-NEXT: pto.tload ins(%t_peer_pview : !pto.partition_tensor_view<1x256xf32>) outs(%t : {{.*}})
# CHECK-LABEL: func.func @dist_slice(
# CHECK:      %half_ptr = pto.addptr %arg1, %c256_index : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %half_view = pto.make_tensor_view %half_ptr, shape = [%c2_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK:      pto.load_scalar %arg4[%c2_index] : !pto.ptr<i64> -> i64
# CHECK:      %[[HP:[0-9]+]] = pto.addptr %half_ptr, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %[[HV:[0-9]+]] = pto.make_tensor_view %[[HP]], shape = [%c2_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %half_peer_pview = pto.partition_view %[[HV]], offsets = [%c0_index, %c0_index], sizes = [%c2_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x64xf32>
# CHECK-NEXT: pto.tstore ins(%t : {{.*}}) outs(%half_peer_pview : !pto.partition_tensor_view<2x64xf32>)
# CHECK-NEXT: pto.cmo.cacheinvalid %half_peer_pview single_cache_line : !pto.partition_tensor_view<2x64xf32>
# CHECK-NEXT: %cell_ptr = pto.addptr %arg2, %c2_index : !pto.ptr<i32> -> !pto.ptr<i32>
# CHECK-NEXT: %cell_view = pto.make_tensor_view %cell_ptr, shape = [%c1_index, %c1_index], strides = [%c1_index, %c1_index] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
# CHECK:      pto.load_scalar %arg5[%c2_index] : !pto.ptr<i64> -> i64
# CHECK:      %[[CP:[0-9]+]] = pto.addptr %cell_ptr, %{{[0-9]+}} : !pto.ptr<i32> -> !pto.ptr<i32>
# CHECK-NEXT: %[[CV:[0-9]+]] = pto.make_tensor_view %[[CP]], shape = [%c1_index, %c1_index]
# CHECK-NEXT: %cell_peer_pview = pto.partition_view %[[CV]], offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%cell_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class TensorViews:
    @pl.function(type=pl.FunctionType.AIV)
    def reshape(self, x: pl.Tensor[[4, 256], pl.FP32], out: pl.Out[pl.Tensor[[1, 1024], pl.FP32]]):
        v = pl.tensor.view(x, [1, 1024])
        t = pl.tile.load(v, [0, 256], [1, 512], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [0, 256], out)
        vv = pl.tensor.view(v, [1, 1024], [1, 256])
        same = pl.tile.load(vv, [0, 0], [1, 256], target_memory=pl.Mem.Vec)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def slices(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[4, 32], pl.FP32]], i: pl.Scalar[pl.INDEX]):
        s = pl.tensor.slice(x, [4, 32], [8, 16])
        t = pl.tile.load(s, [0, 0], [4, 32], target_memory=pl.Mem.Vec)
        d = pl.tensor.slice(x, [4, 32], [i, 16])
        u = pl.tile.load(d, [0, 0], [4, 32], target_memory=pl.Mem.Vec)
        v = pl.tile.add(t, u)
        pl.tile.store(v, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def dist_view(self, win: pld.DistributedTensor[[4, 256], pl.FP32], peer: pl.Scalar[pl.INT32], win_ctx: pld.CommCtx):
        w2 = pl.tensor.view(win, [1, 1024])
        t = pld.tile.remote_load(w2, peer, [0, 512], [1, 256])
        return

    @pl.function(type=pl.FunctionType.AIV)
    def dist_slice(self, x: pl.Tensor[[2, 64], pl.FP32], win: pld.DistributedTensor[[8, 64], pl.FP32], sig: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INT32], win_ctx: pld.CommCtx, sig_ctx: pld.CommCtx):
        half = pl.tensor.slice(win, [2, 64], [4, 0])
        t = pl.tile.load(x, [0, 0], [2, 64], target_memory=pl.Mem.Vec)
        pld.tile.remote_store(t, half, peer, [0, 0])
        cell = pl.tensor.slice(sig, [1, 1], [2, 0])
        pld.system.notify(cell, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        return
