# Tensor-level pld.tensor.get (chunked, pipelined) and pld.tensor.remote_store of
# a computed value, through --pipeline=default then PTO emission: two distinct
# 8x64 staging tiles feed tget's buf(ping, pong) over full 16x64 partition views;
# the tensor add becomes pto.tadd; the push is an atomic-add tstore to the peer
# followed by a cacheinvalid and the comm fence.
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# CHECK:      func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>, %arg3: i32, %arg4: !pto.ptr<i64>)
# CHECK-DAG:  %[[PING:[a-z_]+]] = pto.alloc_tile addr = %c{{[0-9]+}}_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=8, v_col=64,
# CHECK:      pto.comm.tget(%out_local_pview, %win_peer_pview, buf(%{{[a-z_]+}}, %{{[a-z_]+}}) : !pto.partition_tensor_view<16x64xf32>, !pto.partition_tensor_view<16x64xf32>, !pto.tile_buf<{{.*}}rows=8, cols=64{{.*}}>, !pto.tile_buf<{{.*}}rows=8, cols=64{{.*}}>){{$}}
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK:      pto.tadd ins(
# CHECK:      pto.tstore ins(%{{[a-z_0-9]+}} : !pto.tile_buf<{{.*}}>) outs(%[[PV:win_peer_pview[_0-9]*]] : !pto.partition_tensor_view<16x64xf32>) {atomicType = #pto<atomic_type atomic_add>}
# CHECK-NEXT: pto.cmo.cacheinvalid %[[PV]] single_cache_line : !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK-NEXT: return
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Mixed:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], win: pld.DistributedTensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], peer: pl.Scalar[pl.INT32]):
        pld.tensor.get(out, peer, win, chunk_rows=8, chunk_cols=64, pipeline=True)
        y = pl.tensor.add(x, x)
        pld.tensor.remote_store(y, win, peer, [0, 0], atomic=pld.AtomicType.Add)
        return
