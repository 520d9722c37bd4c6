# The lowered mesh allreduce of an N-D window emits: lower-composite-ops views
# the [2, 4, 32] target as `target_2d = pl.tensor.view(data, [1, 256])`; the
# emitter turns the view into a new make_tensor_view over the same pointer
# (shape [1, 256], packed strides), and every remote_load of target_2d reads
# the peer's copy through that view (inline CommContext arithmetic + addptr on
# the window pointer). The kernel's own N-D loads/stores are flattened
# (tile_2d loads of [2, 4, 32] windows into [8, 32] tiles).
# Exact sums on P = 2 and 4 before and after --pipeline=default.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s
# The accumulator carried through `for peer` / `if peer != me` has one exact
# type on every path (ptoas types are exact; pad and valid extents included).
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=CARRY
# CARRY: %acc_all = scf.for {{.*}} iter_args(%acc_it = %{{[a-z_0-9]+}}) -> ([[T:!pto.tile_buf<[^>]*>]]) {
# CARRY: %acc_sel = scf.if %{{.*}} -> ([[T]]) {
# CARRY: scf.yield %{{[a-z_0-9]+}} : [[T]]
# CARRY-NEXT: } else {
# CARRY-NEXT: scf.yield %acc_it : [[T]]
# CARRY: scf.yield %acc_sel : [[T]]
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir 2>/dev/null
# RUN: %python -c "import numpy as np; np.save('%t.d/x2.npy', (np.arange(2 * 256) %% 29 - 14).astype(np.float32).reshape(2, 2, 4, 32))"
# RUN: %python -c "import numpy as np; np.save('%t.d/x4.npy', (np.arange(4 * 256) %% 31 - 15).astype(np.float32).reshape(4, 2, 4, 32))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races --schedule=random:7
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races --schedule=random:7
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.broadcast_to(x.sum(0), x.shape); sys.exit(0 if all(np.array_equal(np.load('%t.d/' + d + '/y.npy'), e) for d in ('s2', 'l2')) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.broadcast_to(x.sum(0), x.shape); sys.exit(0 if all(np.array_equal(np.load('%t.d/' + d + '/y.npy'), e) for d in ('s4', 'l4')) else 1)"
#
# CHECK-LABEL: func.func @kernel(
# CHECK:      %t_pview = pto.partition_view %x_view, offsets = [%c0_index, %c0_index, %c0_index], sizes = [%c2_index, %c4_index, %c32_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<2x4x32xf32>
# CHECK-NEXT: pto.tload ins(%t_pview : !pto.partition_tensor_view<2x4x32xf32>) outs(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=32, v_row=8, v_col=32, {{.*}}>)
# CHECK-NEXT: %data_pview = pto.partition_view %data_view, offsets = [%c0_index, %c0_index, %c0_index], sizes = [%c2_index, %c4_index, %c32_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<2x4x32xf32>
# CHECK-NEXT: pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%data_pview : !pto.partition_tensor_view<2x4x32xf32>)
# CHECK:      %target_2d_view = pto.make_tensor_view %arg1, shape = [%c1_index, %c256_index], strides = [%c256_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK:      %own_pview = pto.partition_view %target_2d_view, offsets = [%c0_index, %col], sizes = [%c1_index, %{{.*}}] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x?xf32>
# CHECK:      %[[PP:[0-9]+]] = pto.addptr %arg1, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %[[PV:[0-9]+]] = pto.make_tensor_view %[[PP]], shape = [%c1_index, %c256_index], strides = [%c256_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %recv_peer_pview = pto.partition_view %[[PV]], offsets = [%c0_index, %col], sizes = [%c1_index, %{{.*}}] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<1x?xf32>
# CHECK-NEXT: pto.tload ins(%recv_peer_pview : !pto.partition_tensor_view<1x?xf32>) outs(%recv : !pto.tile_buf<{{.*}}>)
# CHECK:      pto.tadd ins(
# CHECK:      pto.tstore ins(%{{.*}} : !pto.tile_buf<{{.*}}>) outs(%target_2d_pview : !pto.partition_tensor_view<1x?xf32>)
# CHECK:      pto.comm.tnotify(
# CHECK:      return
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class MeshAllReduceNd:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[2, 4, 32], pl.FP32], data: pl.InOut[pld.DistributedTensor[[2, 4, 32], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], y: pl.Out[pl.Tensor[[2, 4, 32], pl.FP32]]):
        t = pl.tile.load(x, [0, 0, 0], [2, 4, 32])
        pl.tile.store(t, [0, 0, 0], data)
        pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum)
        u = pl.tile.load(data, [0, 0, 0], [2, 4, 32])
        pl.tile.store(u, [0, 0, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 2, 4, 32], pl.FP32], y: pl.Out[pl.Tensor[[NR, 2, 4, 32], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(256 * 4)
        sbuf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [2, 4, 32], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.kernel(x[r], data, sig, y[r], device=r)
