# pld.tile.put / pld.tile.get: peer view for the window side, local view for the
# other, PIPE_ALL barriers around the transfer, buf(stage[, stage2]); tput carries
# the atomic attr and is followed by a single-line cacheinvalid of the peer region.
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK-LABEL: func.func @put1(
# CHECK:          %c2_i64 = arith.constant 2 : i64
# CHECK:          %tput_stage = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK:          %dst_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>
# CHECK-NEXT:     %src_local_pview = pto.partition_view %src_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>
# CHECK-NEXT:     pto.barrier <PIPE_ALL>
# CHECK-NEXT:     pto.comm.tput(%dst_peer_pview, %src_local_pview, buf(%tput_stage) : !pto.partition_tensor_view<16x64xf16>, !pto.partition_tensor_view<16x64xf16>, !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {atomicType = #pto<atomic_type atomic_none>}
# CHECK-NEXT:     pto.barrier <PIPE_ALL>
# CHECK-NEXT:     pto.cmo.cacheinvalid %dst_peer_pview single_cache_line : !pto.partition_tensor_view<16x64xf16>
# CHECK-NEXT:     return
# Ping-pong stages get distinct, non-overlapping UB addresses.
# CHECK-LABEL: func.func @put2(
# CHECK:          %ping = pto.alloc_tile addr = %c0_i64
# CHECK-NEXT:     %pong = pto.alloc_tile addr = %c2048_i64
# CHECK:          pto.comm.tput(%dst_peer_pview, %src_local_pview, buf(%ping, %pong) : {{.*}}) {atomicType = #pto<atomic_type atomic_add>}
# A region put: explicit offsets/shape on both sides.
# CHECK-LABEL: func.func @put_region(
# CHECK:          %dst_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c8_index, %c0_index], sizes = [%c8_index, %c64_index] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<8x64xf16>
# CHECK-NEXT:     %src_local_pview = pto.partition_view %src_view, offsets = [%c0_index, %c0_index], sizes = [%c8_index, %c64_index]
# CHECK-LABEL: func.func @get1(
# CHECK:          %dst_local_pview = pto.partition_view %dst_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index]
# CHECK-NEXT:     %src_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index]
# CHECK-NEXT:     pto.barrier <PIPE_ALL>
# CHECK-NEXT:     pto.comm.tget(%dst_local_pview, %src_peer_pview, buf(%tget_stage) : !pto.partition_tensor_view<16x64xf16>, !pto.partition_tensor_view<16x64xf16>, !pto.tile_buf<{{.*}}>){{$}}
# CHECK-NEXT:     pto.barrier <PIPE_ALL>
# CHECK-NEXT:     return
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class PutGet:
    @pl.function(type=pl.FunctionType.AIV)
    def put1(self, dst: pld.DistributedTensor[[16, 64], pl.FP16], peer: pl.Scalar[pl.INT32], src: pl.Tensor[[16, 64], pl.FP16], dst_ctx: pld.CommCtx):
        tput_stage = pl.tile.create([16, 64], dtype=pl.FP16, target_memory=pl.Mem.Vec)
        pld.tile.put(dst, peer, src, tput_stage, atomic=pld.AtomicType.None_)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def put2(self, dst: pld.DistributedTensor[[16, 64], pl.FP16], peer: pl.Scalar[pl.INT32], src: pl.Tensor[[16, 64], pl.FP16], dst_ctx: pld.CommCtx):
        ping = pl.tile.create([16, 64], dtype=pl.FP16, target_memory=pl.Mem.Vec)
        pong = pl.tile.create([16, 64], dtype=pl.FP16, target_memory=pl.Mem.Vec)
        pld.tile.put(dst, peer, src, ping, pong, atomic=pld.AtomicType.Add)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def put_region(self, dst: pld.DistributedTensor[[16, 64], pl.FP16], peer: pl.Scalar[pl.INT32], src: pl.Tensor[[8, 64], pl.FP16], dst_ctx: pld.CommCtx):
        tput_stage = pl.tile.create([8, 64], dtype=pl.FP16, target_memory=pl.Mem.Vec)
        pld.tile.put(dst, peer, src, tput_stage, [8, 0], [0, 0], [8, 64], atomic=pld.AtomicType.None_)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def get1(self, dst: pl.Tensor[[16, 64], pl.FP16], peer: pl.Scalar[pl.INT32], src: pld.DistributedTensor[[16, 64], pl.FP16], src_ctx: pld.CommCtx):
        tget_stage = pl.tile.create([16, 64], dtype=pl.FP16, target_memory=pl.Mem.Vec)
        pld.tile.get(dst, peer, src, tget_stage)
        return
