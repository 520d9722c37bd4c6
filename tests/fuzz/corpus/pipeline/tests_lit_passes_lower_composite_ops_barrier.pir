# lower-composite-ops: pld.tensor.barrier in a kernel becomes the self-clearing
# credit barrier (notify +1 to every peer, wait >= 1 on every peer's cell, then a
# self-notify of -1 per peer cell, so the signal is all-zero afterwards); the
# result Var is re-bound to the signal. A host-orchestrator barrier is kept.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# Idempotent:
# RUN: pypto-opt %s --passes=lower-composite-ops,lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# Differential run: the program before and after the pass, P = 1, 2, 3, 4, 8,
# parallel and random schedules, exact outputs, zero signal residue, no races
# (each rank reads its right neighbour's window after the barrier).
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_collective.py barrier %S/Inputs/barrier_prog.txt %t.d/f32 --n 64 --ranks 1,2,3,4,8 --seeds 1,2,3 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py barrier %S/Inputs/barrier_prog.txt %t.d/f16 --n 17 --dtype FP16 --ranks 1,2,3,4,8 --seeds 7 | FileCheck %s --check-prefix=DIFF
# DIFF-DAG: before P=1 parallel: OK
# DIFF-DAG: after P=1 parallel: OK
# DIFF-DAG: after P=2 parallel: OK
# DIFF-DAG: after P=3 parallel: OK
# DIFF-DAG: after P=4 parallel: OK
# DIFF-DAG: before P=8 parallel: OK
# DIFF-DAG: after P=8 parallel: OK
# DIFF-DAG: after P=8 --schedule=random:{{[0-9]+}}: OK
# DIFF: FAILURES 0

# The PTO emitter accepts the lowered barrier (default pipeline):
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=EMIT
# EMIT-LABEL: func.func @kernel(
# EMIT: scf.for %peer =
# EMIT: pto.comm.tnotify(%sig_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# EMIT: scf.for %src =
# EMIT: pto.comm.twait(%sig_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# EMIT: scf.for %reset_src =
# EMIT: pto.comm.tnotify(%sig_peer_pview_1, %cn1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# EMIT-LABEL: func.func @kernel_1d(

# CHECK-LABEL: def kernel(
# CHECK: comm_ctx: pld.CommCtx = pld.system.get_comm_ctx(sig)
# CHECK-NEXT: nranks: pl.Scalar[pl.INT32] = pld.system.nranks(comm_ctx)
# CHECK-NEXT: nranks_idx: pl.Scalar[pl.INDEX] = pl.cast(nranks, pl.INDEX)
# CHECK-NEXT: my_rank: pl.Scalar[pl.INT32] = pld.system.rank(comm_ctx)
# CHECK-NEXT: my_rank_idx: pl.Scalar[pl.INDEX] = pl.cast(my_rank, pl.INDEX)
# CHECK-NEXT: for peer in pl.range(nranks_idx):
# CHECK-NEXT: if peer != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, peer, [my_rank_idx, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: for src in pl.range(nranks_idx):
# CHECK-NEXT: if src != my_rank_idx:
# CHECK-NEXT: pld.system.wait(sig, [src, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for reset_src in pl.range(nranks_idx):
# CHECK-NEXT: if reset_src != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, my_rank_idx, [reset_src, 0], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: done: pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32] = sig
# A rank-1 [NR] signal uses cells [r]:
# CHECK-LABEL: def kernel_1d(
# CHECK: pld.system.notify(sig, peer, [my_rank_idx], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK: pld.system.wait(sig, [src], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK: pld.system.notify(sig, my_rank_idx, [reset_src], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NOT: pld.tensor.barrier
# CHECK-LABEL: def host_orch(
# CHECK: pld.tensor.barrier(sig)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Barriers:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        done = pld.tensor.barrier(sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kernel_1d(self, sig: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]]):
        pld.tensor.barrier(sig)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        sbuf = pld.tensor.alloc_window_buffer(64)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.kernel(sig, device=r)
        sig = pld.tensor.barrier(sig)
