# Partial N-D windows flatten too (the old 2-D tensor.view workaround needed the
# merged inner dims to be covered): a [2, 2, 64] window at [1, 1, 0] of an
# [8, 4, 64] tensor becomes an [4, 64] tile (tile_2d=True; the window keeps the
# tensor's rank); the store into a partial window of another N-D tensor keeps
# its offsets and gains shapes. A leading valid extent of 1 with a partly valid
# inner dim ([1, 3, 64] of [2, 4, 64]) is still whole rows: valid [3, 64].
# The PTO module loads an N-D partition view into / stored from the 2-D tile.
# A flattened remote_load of a target whose valid region is narrower ([2, 4, 8]
# of [2, 4, 16]) reads the N-D partition clipped to it (2x4x8) into the
# [8, 16] tile with valid [8, 8].
# RUN: pypto-opt %s --passes=flatten-tile-nd-to-2d --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=flatten-tile-nd-to-2d --emit=pto | FileCheck %s --check-prefix=PTO
# CHECK:      t: pl.Tile{{\[\[}}4, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [1, 1, 0], [2, 2, 64], target_memory=pl.Mem.Vec, tile_2d=True)
# CHECK-NEXT: pl.tile.store(t, [5, 2, 0], out, [2, 2, 64])
# CHECK-NEXT: h: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[3, 64])] = pl.tile.load(a, [0, 0, 0], [2, 4, 64], [1, 3, 64], target_memory=pl.Mem.Vec, tile_2d=True)
# CHECK-NEXT: pl.tile.store(h, [0, 0, 0], out, [2, 4, 64])
# PTO:      %t_pview = pto.partition_view %a_view, offsets = [%c1_index, %c1_index, %c0_index], sizes = [%c2_index, %c2_index, %c64_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<2x2x64xf32>
# PTO-NEXT: pto.tload ins(%t_pview : !pto.partition_tensor_view<2x2x64xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=64, v_row=4, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
# PTO-NEXT: %out_pview = pto.partition_view %out_view, offsets = [%c5_index, %c2_index, %c0_index], sizes = [%c2_index, %c2_index, %c64_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<2x2x64xf32>
# PTO-NEXT: pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=64, v_row=4, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%out_pview : !pto.partition_tensor_view<2x2x64xf32>)
# PTO-NEXT: %h_pview = pto.partition_view %a_view, offsets = [%c0_index, %c0_index, %c0_index], sizes = [%c1_index, %c3_index, %c64_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<1x3x64xf32>
# PTO-NEXT: pto.tload ins(%h_pview : !pto.partition_tensor_view<1x3x64xf32>) outs(%h : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=3, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
# PTO-NEXT: %out_pview_1 = pto.partition_view %out_view, offsets = [%c0_index, %c0_index, %c0_index], sizes = [%c1_index, %c3_index, %c64_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<1x3x64xf32>
# PTO-NEXT: pto.tstore ins(%h : {{.*}}) outs(%out_pview_1 : !pto.partition_tensor_view<1x3x64xf32>)
# PTO-LABEL: func.func @narrow(
# PTO:      %t_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index, %c0_index], sizes = [%c2_index, %c4_index, %c8_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<2x4x8xf32>
# PTO-NEXT: pto.tload ins(%t_peer_pview : !pto.partition_tensor_view<2x4x8xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=8, v_col=8, {{.*}}>)
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class PartialWindow:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, a: pl.Tensor[[8, 4, 64], pl.FP32], out: pl.Out[pl.Tensor[[8, 4, 64], pl.FP32]]):
        t = pl.tile.load(a, [1, 1, 0], [2, 2, 64], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [5, 2, 0], out)
        h = pl.tile.load(a, [0, 0, 0], [2, 4, 64], [1, 3, 64], target_memory=pl.Mem.Vec)
        pl.tile.store(h, [0, 0, 0], out)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def narrow(self, w: pld.DistributedTensor[[2, 4, 16], pl.FP32, pl.TensorView(valid_shape=[2, 4, 8])], peer: pl.Scalar[pl.INT32], w_ctx: pld.CommCtx):
        t = pld.tile.remote_load(w, peer, [0, 0, 0], [2, 4, 16], target_memory=pl.Mem.Vec)
        return
