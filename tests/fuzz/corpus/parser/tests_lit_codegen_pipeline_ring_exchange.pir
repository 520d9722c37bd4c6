# A tensor-level kernel through --pipeline=default then PTO emission: the put's
# VEC staging tile, the ctx params added by materialize-dist-tensor-ctx (paired
# in order: dst -> %arg4, signal -> %arg5), the dynamic NR dim as a trailing
# index arg, the fence inserted after the put and the cache invalidation after
# the wait, and the tile loop.
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# CHECK:      func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i32>, %arg3: i32, %arg4: !pto.ptr<i64>, %arg5: !pto.ptr<i64>, %arg6: index) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
# CHECK:      %signal_view = pto.make_tensor_view %arg2, shape = [%arg6, %c1_index], strides = [%c1_index, %arg6] {layout = #pto.layout<dn>} : !pto.tensor_view<?x?xi32>
# CHECK:      = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64,
# CHECK:      pto.load_scalar %arg4[%c2_index]
# CHECK:      pto.addptr %arg1,
# CHECK:      pto.comm.tput(%dst_peer_pview, %src_local_pview, buf(%{{.*}}) : !pto.partition_tensor_view<16x64xf32>, !pto.partition_tensor_view<16x64xf32>, !pto.tile_buf<{{.*}}>) {atomicType = #pto<atomic_type atomic_none>}
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.cmo.cacheinvalid %dst_peer_pview single_cache_line : !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK:      pto.load_scalar %arg5[%c2_index]
# CHECK:      pto.addptr %arg2,
# CHECK:      pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK-NEXT: %signal_local_pview = pto.partition_view %signal_view
# CHECK-NEXT: pto.comm.twait(%signal_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# CHECK-NEXT: pto.cmo.cacheinvalid all #pto.address_space<gm>
# CHECK:      scf.for %i = %c0_index to %c4_index step %c1_index iter_args(
# CHECK:        pto.tadd ins(
# CHECK:        scf.yield
# CHECK:      return
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], signal: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])
        for i, (acc,) in pl.range(0, 4, 1, init_values=(t,)):
            nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
            acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
        return
