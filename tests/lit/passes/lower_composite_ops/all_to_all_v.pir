# lower-composite-ops: pld.tensor.all_to_all_v in kernels.
# MAX_RECV = target.shape[0] // nranks (runtime). A ready barrier (>= 1: every
# rank has finished with its target and recv_counts of a previous call); for
# every dest (own included): rows = clamp(send_counts[dest], 0, MAX_RECV) is
# published into recv_counts[my_rank, 0] of dest with notify(Set), and exactly
# those rows are pushed (pld.tile.put of runtime extent [rows, C] per column
# chunk of <= 16 KiB through a [1, C] stage, skipped when rows == 0); a done
# barrier (>= 2); epilogue -2. Sizes, dtypes, dynamic dims and two calls back
# to back: collective_matrix.pir.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=lower-composite-ops,lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# Differential runs before/after the pass (P = 1, 2, 3, 4, 8) with ragged
# send_counts (negative, 0, in range, > MAX_RECV); the target is pre-filled with a
# sentinel, so exact equality also proves only the clamped rows cross the wire;
# recv_counts exact, signal all-zero, no races (see Inputs/run_all_to_all_v.py):
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_all_to_all_v.py %S/Inputs/aav_prog.txt %t.d/a32 --n 16 --mr 3 --seeds 1,2 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_all_to_all_v.py %S/Inputs/aav_prog.txt %t.d/a16 --n 40 --mr 2 --dtype FP16 --counts-rank 2 --seeds 3 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_all_to_all_v.py %S/Inputs/aav_prog.txt %t.d/adist --n 8 --mr 4 --extra 1 --input-kind dist | FileCheck %s --check-prefix=DIFF
# A dynamic row count ([NR * MR, SIZE]) is used as an expression:
# RUN: %python %S/Inputs/run_all_to_all_v.py %S/Inputs/aav_prog.txt %t.d/adyn --n 16 --mr 2 --dynamic-rows --seeds 1 | FileCheck %s --check-prefix=DIFF
# DIFF-DAG: before P=1 parallel: OK
# DIFF-DAG: after P=1 parallel: OK
# DIFF-DAG: after P=2 parallel: OK
# DIFF-DAG: after P=3 parallel: OK
# DIFF-DAG: after P=4 parallel: OK
# DIFF-DAG: before P=8 parallel: OK
# DIFF-DAG: after P=8 parallel: OK
# DIFF: FAILURES 0

# The PTO emitter accepts it (default pipeline): scalar read of the count, Set
# notify of recv_counts, TPUT with a dynamic row extent.
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=EMIT
# EMIT-LABEL: func.func @exchange(
# EMIT: arith.floordivsi %c24_index, %{{.*}} : index
# EMIT: pto.comm.twait(%sig_local_pview, %c1_i32 : {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: scf.for %dest =
# EMIT: pto.load_scalar %arg1[%dest] : !pto.ptr<i32> -> i32
# EMIT: arith.maxsi
# EMIT: arith.minsi
# EMIT: pto.comm.tnotify(%rc_peer_pview, %{{.*}} : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
# EMIT: scf.if
# EMIT: scf.for %aav_col =
# EMIT: pto.comm.tput(%data_peer_pview, %x_local_pview, buf(%aav_stage) : !pto.partition_tensor_view<?x?xf32>, !pto.partition_tensor_view<?x?xf32>,
# EMIT: pto.comm.twait(%sig_local_pview_1, %c2_i32 : {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: pto.comm.tnotify(%sig_peer_pview_2, %cn2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}

# CHECK-LABEL: def exchange(
# CHECK: comm_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
# CHECK: max_recv: pl.Scalar[pl.INDEX] = 24 // nranks_idx
# CHECK-NEXT: aav_stage: pl.Tile{{\[\[}}1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT: for peer in pl.range(nranks_idx):
# CHECK-NEXT: if peer != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, peer, [my_rank_idx, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: for src in pl.range(nranks_idx):
# CHECK-NEXT: if src != my_rank_idx:
# CHECK-NEXT: pld.system.wait(sig, [src, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for dest in pl.range(nranks_idx):
# CHECK-NEXT: send_count: pl.Scalar[pl.INT32] = pl.tensor.read(counts, [dest])
# CHECK-NEXT: send_rows: pl.Scalar[pl.INDEX] = pl.min(pl.max(pl.cast(send_count, pl.INDEX), 0), max_recv)
# CHECK-NEXT: pld.system.notify(rc, dest, [my_rank_idx, 0], pl.cast(send_rows, pl.INT32), op=pld.NotifyOp.Set)
# CHECK-NEXT: if send_rows > 0:
# CHECK-NEXT: for aav_col in pl.range(0, 16, 16):
# CHECK-NEXT: aav_valid: pl.Scalar[pl.INDEX] = pl.min(16, 16 - aav_col)
# CHECK-NEXT: aav_stage_v: {{.*}} = pl.tile.set_validshape(aav_stage, 1, aav_valid)
# CHECK-NEXT: pld.tile.put(data, dest, x, aav_stage_v, [my_rank_idx * max_recv, aav_col], [dest * max_recv, aav_col], [send_rows, aav_valid], atomic=pld.AtomicType.None_)
# CHECK-NEXT: for peer_1 in pl.range(nranks_idx):
# CHECK-NEXT: if peer_1 != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, peer_1, [my_rank_idx, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: for src_1 in pl.range(nranks_idx):
# CHECK-NEXT: if src_1 != my_rank_idx:
# CHECK-NEXT: pld.system.wait(sig, [src_1, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for reset_src in pl.range(nranks_idx):
# CHECK-NEXT: if reset_src != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, my_rank_idx, [reset_src, 0], pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: out: pld.DistributedTensor{{\[\[}}24, 16], pl.FP32] = data
# CHECK-NEXT: return
# A [NR, 1] send_counts is read at [dest, 0]:
# CHECK-LABEL: def exchange_col(
# CHECK: pl.tensor.read(counts, [dest, 0])
# CHECK-NOT: pld.tensor.
# CHECK-LABEL: def host_orch(
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class AllToAllV:
    @pl.function(type=pl.FunctionType.InCore)
    def exchange(self, x: pl.Tensor[[24, 16], pl.FP32], counts: pl.Tensor[[NR], pl.INT32], data: pl.InOut[pld.DistributedTensor[[24, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        out = pld.tensor.all_to_all_v(x, data, sig, counts, rc)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def exchange_col(self, x: pl.Tensor[[24, 16], pl.FP16], counts: pl.Tensor[[NR, 1], pl.INT32], data: pl.InOut[pld.DistributedTensor[[24, 16], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.all_to_all_v(x, data, sig, counts, rc)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        return
