# Every collective lower-composite-ops lowers in a kernel emits through
# `pypto-opt --pipeline=default --emit=pto`, and the program runs exactly on
# P = 2 and 4 before and after the same pipeline (zero signal residue, no races):
# barrier, broadcast, allgather, all_to_all, reduce_scatter and the ring
# allreduce here (programs in Inputs/collective_*.txt, instantiated and checked
# against numpy by lower_composite_ops/Inputs/run_collective.py); the mesh
# allreduce (through its tensor.view) in collective_allreduce_mesh_nd.pir.
# RUN: rm -rf %t.d
# RUN: %python %S/../passes/lower_composite_ops/Inputs/run_collective.py barrier %S/Inputs/collective_barrier.txt %t.d/barrier --n 40 --ranks 2,4 --seeds 1 --pipeline=default | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../passes/lower_composite_ops/Inputs/run_collective.py broadcast %S/Inputs/collective_broadcast.txt %t.d/bcast --n 40 --ranks 2,4 --seeds 1 --pipeline=default | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../passes/lower_composite_ops/Inputs/run_collective.py allgather %S/Inputs/collective_gather.txt %t.d/ag --n 40 --ranks 2,4 --seeds 1 --pipeline=default | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../passes/lower_composite_ops/Inputs/run_collective.py all_to_all %S/Inputs/collective_gather.txt %t.d/aa --n 40 --ranks 2,4 --seeds 1 --pipeline=default | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../passes/lower_composite_ops/Inputs/run_collective.py reduce_scatter %S/Inputs/collective_reduce_scatter.txt %t.d/rs --n 40 --ranks 2,4 --seeds 1 --pipeline=default | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../passes/lower_composite_ops/Inputs/run_collective.py allreduce %S/Inputs/collective_allreduce_ring.txt %t.d/ring --n 40 --ranks 2,4 --seeds 1 --pipeline=default | FileCheck %s --check-prefix=DIFF
# DIFF:      before P=2 parallel: OK
# DIFF-NEXT: before P=2 --schedule=random:1: OK
# DIFF-NEXT: after P=2 parallel: OK
# DIFF-NEXT: after P=2 --schedule=random:1: OK
# DIFF-NEXT: after P=2 --schedule=pct:1 --sweep 20: OK
# DIFF-NEXT: before P=4 parallel: OK
# DIFF-NEXT: before P=4 --schedule=random:1: OK
# DIFF-NEXT: after P=4 parallel: OK
# DIFF-NEXT: after P=4 --schedule=random:1: OK
# DIFF-NEXT: after P=4 --schedule=pct:1 --sweep 20: OK
# DIFF-NEXT: FAILURES 0
#
# RUN: pypto-opt %t.d/barrier/prog0.pir --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=BARRIER
# RUN: pypto-opt %t.d/bcast/prog4.pir --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=BCAST
# RUN: pypto-opt %t.d/ag/prog0.pir --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=AG
# RUN: pypto-opt %t.d/aa/prog0.pir --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=AA
# RUN: pypto-opt %t.d/rs/prog0.pir --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=RS
# RUN: pypto-opt %t.d/ring/prog4.pir --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=RING
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each > /dev/null 2>&1
#
# BARRIER-LABEL: func.func @kernel(
# BARRIER:       pto.tstore ins(%t : {{.*}}) outs(%data_pview : !pto.partition_tensor_view<1x40xf32>)
# BARRIER:       scf.for %peer = %c0_index to %{{[0-9]+}} step %c1_index {
# BARRIER:       pto.comm.tnotify(%sig_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# BARRIER:       scf.for %src = %c0_index to %{{[0-9]+}} step %c1_index {
# BARRIER:       pto.comm.twait(%sig_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# BARRIER:       scf.for %reset_src = %c0_index to %{{[0-9]+}} step %c1_index {
# BARRIER:       pto.comm.tnotify(%sig_peer_pview_1, %cn1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# BARRIER:       pto.tload ins(%u_peer_pview : !pto.partition_tensor_view<1x40xf32>) outs(%u : {{.*}})
# BARRIER:       pto.tstore ins(%u : {{.*}}) outs(%y_pview : !pto.partition_tensor_view<1x40xf32>)
#
# BCAST-LABEL: func.func @kernel(
# BCAST:       pto.comm.twait(%sig_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# BCAST:       scf.for %bc_col = %c0_index to %c40_index step %c40_index {
# BCAST:       pto.set_validshape %bc_stage, %c1_index, %[[V:[0-9]+]]
# BCAST:       %data_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %bc_col], sizes = [%c1_index, %[[V]]]
# BCAST-NEXT:  pto.barrier <PIPE_ALL>
# BCAST-NEXT:  pto.comm.tget(%data_local_pview, %data_peer_pview, buf(%bc_stage) : !pto.partition_tensor_view<1x?xf32>, !pto.partition_tensor_view<1x?xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=40, {{.*}}>)
# BCAST-NEXT:  pto.barrier <PIPE_ALL>
# BCAST:       pto.comm.twait(%sig_local_pview_1, %c2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# BCAST:       pto.comm.tnotify(%sig_peer_pview_2, %cn2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
#
# AG-LABEL: func.func @kernel(
# AG:       pto.comm.twait(%sig_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# AG:       scf.for %dest = %c0_index to %{{[0-9]+}} step %c1_index {
# AG-NEXT:  scf.for %put_col = %c0_index to %c40_index step %c40_index {
# AG:       pto.set_validshape %ag_stage, %c1_index, %{{[0-9]+}}
# AG:       pto.comm.tput(%data_peer_pview, %x_local_pview, buf(%ag_stage) : !pto.partition_tensor_view<1x?xf32>, !pto.partition_tensor_view<1x?xf32>, !pto.tile_buf<{{.*}}>) {atomicType = #pto<atomic_type atomic_none>}
# AG:       pto.comm.twait(%sig_local_pview_1, %c2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# AG:       pto.comm.tnotify(%sig_peer_pview_2, %cn2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# AG:       scf.for %i = %c0_index to %{{[0-9]+}} step %c1_index {
# AG-NEXT:  %t_pview = pto.partition_view %data_view, offsets = [%i, %c0_index], sizes = [%c1_index, %c40_index]
#
# AA-LABEL: func.func @kernel(
# AA:       pto.comm.twait(%sig_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# AA:       scf.for %dest = %c0_index to %{{[0-9]+}} step %c1_index {
# AA:       %data_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%{{[0-9]+}}, %put_col], sizes = [%c1_index, %[[V:[0-9]+]]]
# AA-NEXT:  %x_local_pview = pto.partition_view %x_view, offsets = [%dest, %put_col], sizes = [%c1_index, %[[V]]]
# AA:       pto.comm.tput(%data_peer_pview, %x_local_pview, buf(%aa_stage) : {{.*}}) {atomicType = #pto<atomic_type atomic_none>}
# AA:       pto.comm.twait(%sig_local_pview_1, %c2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
#
# RS-LABEL: func.func @kernel(
# RS:       pto.comm.twait(%sig_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# RS:       scf.for %rs_col = %c0_index to %c40_index step %c40_index {
# RS:       pto.tload ins(%rs_own_pview : !pto.partition_tensor_view<1x?xf32>) outs(%rs_own : {{.*}})
# RS:       pto.tfillpad ins(%rs_own : {{.*}})
# RS:       pto.tload ins(%rs_recv_peer_pview : !pto.partition_tensor_view<1x?xf32>) outs(%rs_recv : {{.*}})
# RS:       pto.tfillpad ins(%rs_recv : {{.*}}) outs(%rs_recv_as : {{.*}})
# RS-NEXT:  pto.tadd ins(%rs_acc_it, %rs_recv_as : {{.*}})
# RS:       pto.tstore ins(%rs_total_as : {{.*}}) outs(%data_pview_{{[0-9]+}} : !pto.partition_tensor_view<1x?xf32>)
# RS:       pto.comm.twait(%sig_local_pview_1, %c2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# RS:       pto.comm.tnotify(%sig_peer_pview_2, %cn2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
#
# RING-LABEL: func.func @kernel(
# RING:       scf.for %rs_step = %c0_index to %c3_index step %c1_index {
# RING:       pto.tload ins(%own_pview : !pto.partition_tensor_view<1x?xf32>) outs(%own : {{.*}})
# RING:       pto.comm.twait(%sig_local_pview, %{{[0-9]+}} : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# RING:       pto.comm.tput(%data_peer_pview, %data_local_pview, buf(%ring_stage) : !pto.partition_tensor_view<1x?xf32>, !pto.partition_tensor_view<1x?xf32>, {{.*}}) {atomicType = #pto<atomic_type atomic_none>}
# The zero-padded own and received chunks are the fillpad results (pad=1 aliases).
# RING:       pto.tadd ins(%own_as, %recv_as : {{.*}}pad=1>, {{.*}}pad=1>)
# RING:       scf.for %ag_step = %c0_index to %c3_index step %c1_index {
# RING:       pto.comm.tput(%data_peer_pview_1, %data_local_pview_1, buf(%ring_stage) : {{.*}})
# RING:       scf.for %reset_row = %c0_index to %c6_index step %c1_index {
# RING:       pto.comm.tnotify(%sig_peer_pview_4, %cn2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
#
# The program below is the barrier template at N = 16 (this file also
# round-trips through the default pipeline, as every lit input does).
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


# Barrier kind: y[r] = x[(r + 1) % P], read from the right neighbour after the barrier.
@pl.program
class BarrierExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 16], pl.FP32], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], y: pl.Out[pl.Tensor[[1, 16], pl.FP32]]):
        t = pl.tile.load(x, [0, 0], [1, 16])
        pl.tile.store(t, [0, 0], data)
        pld.tensor.barrier(sig)
        ctx = pld.get_comm_ctx(data)
        right = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        u = pld.tile.remote_load(data, right, [0, 0], [1, 16])
        pl.tile.store(u, [0, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(16 * 4)
        sbuf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [1, 16], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.kernel(x[r], data, sig, y[r], device=r)
