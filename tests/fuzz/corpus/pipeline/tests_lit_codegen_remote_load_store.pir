# pld.tile.remote_load: peer view + %<tile>_peer_pview sized to the tile's valid
# extent + tload. pld.tile.remote_store: peer view, partition of the target's rank
# with leading 1s, tstore (+ atomic_add only for Add), single-line cacheinvalid.
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK-LABEL: func.func @load(
# CHECK:          %t = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK:          %{{[0-9]+}} = pto.addptr %arg0, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT:     %[[PV:[0-9]+]] = pto.make_tensor_view
# CHECK-NEXT:     %t_peer_pview = pto.partition_view %[[PV]], offsets = [%c16_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT:     pto.tload ins(%t_peer_pview : !pto.partition_tensor_view<16x64xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
# CHECK-LABEL: func.func @store3d(
# CHECK:          %target_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c1_index, %c0_index, %c0_index], sizes = [%c1_index, %c16_index, %c32_index] : !pto.tensor_view<?x?x?xf16> -> !pto.partition_tensor_view<1x16x32xf16>
# CHECK-NEXT:     pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%target_peer_pview : !pto.partition_tensor_view<1x16x32xf16>) {atomicType = #pto<atomic_type atomic_add>}
# CHECK-NEXT:     pto.cmo.cacheinvalid %target_peer_pview single_cache_line : !pto.partition_tensor_view<1x16x32xf16>
# CHECK-LABEL: func.func @store_plain(
# CHECK:          pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%target_peer_pview : !pto.partition_tensor_view<16x32xf16>){{$}}
# CHECK-NEXT:     pto.cmo.cacheinvalid %target_peer_pview single_cache_line
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class RemoteLoadStore:
    @pl.function(type=pl.FunctionType.AIV)
    def load(self, win: pld.DistributedTensor[[32, 64], pl.FP32], peer: pl.Scalar[pl.INT32], win_ctx: pld.CommCtx):
        t = pld.tile.remote_load(win, peer, [16, 0], [16, 64])
        return

    @pl.function(type=pl.FunctionType.AIV)
    def store3d(self, x: pl.Tensor[[16, 32], pl.FP16], target: pld.DistributedTensor[[2, 16, 32], pl.FP16], peer: pl.Scalar[pl.INT32], target_ctx: pld.CommCtx):
        t = pl.tile.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Vec)
        pld.tile.remote_store(t, target, peer, [1, 0, 0], atomic=pld.AtomicType.Add)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def store_plain(self, x: pl.Tensor[[16, 32], pl.FP16], target: pld.DistributedTensor[[16, 32], pl.FP16], peer: pl.Scalar[pl.INT32], target_ctx: pld.CommCtx):
        t = pl.tile.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Vec)
        pld.tile.remote_store(t, target, peer, [0, 0])
        return
