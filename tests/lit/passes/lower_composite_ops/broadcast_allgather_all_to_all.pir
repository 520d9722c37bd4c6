# lower-composite-ops: broadcast, allgather and all_to_all in kernels. Each
# has a ready barrier (>= 1: every rank has finished with its target's previous
# contents, so calls on one window back to back do not race), moves rows in
# column chunks of <= 16 KiB through a [1, C] staging tile, then a done barrier
# (>= 2); epilogue -2.
#  * broadcast(target, sig, root=R): the target viewed as [1, N]; every rank but
#    R copies R's target into its own chunk by chunk (pld.tile.get). N may be a
#    run-time expression of dynamic dims (bcast_dyn: [NR, M]).
#  * allgather(input [1, SIZE], target [NR, SIZE]): pld.tile.put of the input
#    into row my_rank of every rank's target (own included).
#  * all_to_all(input [NR, SIZE], target [NR, SIZE]): row d of the input into row
#    my_rank of rank d's target.
# Sizes, dtypes, rank counts, dynamic dims and back-to-back calls are run by
# collective_matrix.pir.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=lower-composite-ops,lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# Differential runs before/after the pass (P = 1, 2, 3, 4, 8; broadcast root =
# P - 1), FP32 and FP16, exact outputs, zero signal residue, no races:
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_collective.py broadcast %S/Inputs/broadcast_prog.txt %t.d/bc32 --n 33 --ranks 1,2,3,4,8 --seeds 1,2 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py broadcast %S/Inputs/broadcast_prog.txt %t.d/bc16 --n 17 --dtype FP16 --ranks 1,2,3,4,8 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allgather %S/Inputs/gather_prog.txt %t.d/ag32 --n 17 --ranks 1,2,3,4,8 --seeds 1,2 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allgather %S/Inputs/gather_prog.txt %t.d/ag16 --n 40 --dtype FP16 --ranks 1,2,3,4,8 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py all_to_all %S/Inputs/gather_prog.txt %t.d/aa32 --n 17 --ranks 1,2,3,4,8 --seeds 1,2 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py all_to_all %S/Inputs/gather_prog.txt %t.d/aa16 --n 40 --dtype FP16 --ranks 1,2,3,4,8 | FileCheck %s --check-prefix=DIFF
# DIFF-DAG: before P=1 parallel: OK
# DIFF-DAG: after P=1 parallel: OK
# DIFF-DAG: after P=2 parallel: OK
# DIFF-DAG: after P=3 parallel: OK
# DIFF-DAG: after P=4 parallel: OK
# DIFF-DAG: before P=8 parallel: OK
# DIFF-DAG: after P=8 parallel: OK
# DIFF: FAILURES 0

# The PTO emitter accepts all three (default pipeline):
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=EMIT
# EMIT-LABEL: func.func @bcast(
# EMIT: pto.comm.twait(%sig_local_pview, %c1_i32 : {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: pto.comm.tget(%bc_flat_local_pview, %bc_flat_peer_pview, buf(%bc_stage) : !pto.partition_tensor_view<1x?xf16>
# EMIT: pto.comm.twait(%sig_local_pview_1, %c2_i32 : {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: pto.comm.tnotify(%sig_peer_pview_2, %cn2_i32 : {{.*}}) {notifyOp = #pto<notify_op atomic_add>}
# EMIT-LABEL: func.func @gather(
# EMIT: pto.comm.twait(%sig_local_pview, %c1_i32 : {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: pto.comm.tput(%data_peer_pview, %x_local_pview, buf(%ag_stage)
# EMIT: pto.comm.twait(%sig_local_pview_1, %c2_i32 : {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: pto.comm.tnotify(%sig_peer_pview_2, %cn2_i32 : !pto.partition_tensor_view<1xi32>, i32)
# EMIT-LABEL: func.func @exchange(
# EMIT: pto.comm.tput(%data_peer_pview, %x_local_pview, buf(%aa_stage)

# CHECK-LABEL: def bcast(
# CHECK: comm_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
# CHECK: bc_flat: pld.DistributedTensor{{\[\[}}1, 128], pl.FP16] = pl.tensor.view(data, [1, 128])
# CHECK: pld.system.wait(sig, [src, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: bc_stage: pl.Tile{{\[\[}}1, 128], pl.FP16, pl.Mem.Vec] = pl.tile.create([1, 128], dtype=pl.FP16, target_memory=pl.Mem.Vec)
# CHECK-NEXT: if my_rank_idx != 2:
# CHECK-NEXT: for bc_col in pl.range(0, 128, 128):
# CHECK-NEXT: bc_valid: pl.Scalar[pl.INDEX] = pl.min(128, 128 - bc_col)
# CHECK-NEXT: bc_stage_v: {{.*}} = pl.tile.set_validshape(bc_stage, 1, bc_valid)
# CHECK-NEXT: pld.tile.get(bc_flat, pl.const(2, pl.INT32), bc_flat, bc_stage_v, [0, bc_col], [0, bc_col], [1, bc_valid])
# CHECK-NEXT: for peer_1 in pl.range(nranks_idx):
# CHECK-NEXT: if peer_1 != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, peer_1, [my_rank_idx, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: for src_1 in pl.range(nranks_idx):
# CHECK-NEXT: if src_1 != my_rank_idx:
# CHECK-NEXT: pld.system.wait(sig, [src_1, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for reset_src in pl.range(nranks_idx):
# CHECK-NEXT: if reset_src != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, my_rank_idx, [reset_src, 0], pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: return
# A dynamic [NR, M] target: N = NR * M at run time, 16 KiB chunks of 8192 FP16.
# CHECK-LABEL: def bcast_dyn(
# CHECK: bc_flat: pld.DistributedTensor{{\[\[}}1, NR * M], pl.FP16] = pl.tensor.view(data, [1, NR * M])
# CHECK: bc_stage: pl.Tile{{\[\[}}1, 8192], pl.FP16, pl.Mem.Vec] = pl.tile.create([1, 8192], dtype=pl.FP16, target_memory=pl.Mem.Vec)
# CHECK-NEXT: if my_rank_idx != 0:
# CHECK-NEXT: for bc_col in pl.range(0, NR * M, 8192):
# CHECK-NEXT: bc_valid: pl.Scalar[pl.INDEX] = pl.min(8192, NR * M - bc_col)
# Recorded strides equal to the packed ones are a packed target (the flat view
# drops them):
# CHECK-LABEL: def bcast_packed(
# CHECK: bc_flat: pld.DistributedTensor{{\[\[}}1, 64], pl.FP32] = pl.tensor.view(data, [1, 64])
# CHECK-LABEL: def gather(
# CHECK: ag_stage: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK: pld.system.wait(sig, [src], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for dest in pl.range(nranks_idx):
# CHECK-NEXT: for put_col in pl.range(0, 64, 64):
# CHECK-NEXT: put_valid: pl.Scalar[pl.INDEX] = pl.min(64, 64 - put_col)
# CHECK-NEXT: stage_v: {{.*}} = pl.tile.set_validshape(ag_stage, 1, put_valid)
# CHECK-NEXT: pld.tile.put(data, dest, x, stage_v, [my_rank_idx, put_col], [0, put_col], [1, put_valid], atomic=pld.AtomicType.None_)
# CHECK-NEXT: for peer_1 in pl.range(nranks_idx):
# CHECK: pld.system.wait(sig, [src_1], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK: pld.system.notify(sig, my_rank_idx, [reset_src], pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: g: pld.DistributedTensor{{\[\[}}NR, 64], pl.FP32] = data
# A dynamic row size M: 16 KiB chunks of 4096 FP32, loop bound M.
# CHECK-LABEL: def gather_dyn(
# CHECK: ag_stage: pl.Tile{{\[\[}}1, 4096], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK: for put_col in pl.range(0, M, 4096):
# CHECK-NEXT: put_valid: pl.Scalar[pl.INDEX] = pl.min(4096, M - put_col)
# CHECK-LABEL: def exchange(
# CHECK: aa_stage: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK: pld.system.wait(sig, [src, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for dest in pl.range(nranks_idx):
# CHECK-NEXT: for put_col in pl.range(0, 64, 64):
# CHECK-NEXT: put_valid: pl.Scalar[pl.INDEX] = pl.min(64, 64 - put_col)
# CHECK-NEXT: stage_v: {{.*}} = pl.tile.set_validshape(aa_stage, 1, put_valid)
# CHECK-NEXT: pld.tile.put(data, dest, x, stage_v, [my_rank_idx, put_col], [dest, put_col], [1, put_valid], atomic=pld.AtomicType.None_)
# CHECK: pl.const(-2, pl.INT32)
# CHECK-NOT: pld.tensor.
# CHECK-LABEL: def host_orch(
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
M = pl.dynamic("M")


@pl.program
class Collectives:
    @pl.function(type=pl.FunctionType.InCore)
    def bcast(self, data: pl.InOut[pld.DistributedTensor[[2, 4, 16], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.broadcast(data, sig, root=2)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def bcast_dyn(self, data: pl.InOut[pld.DistributedTensor[[NR, M], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.broadcast(data, sig, root=0)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def bcast_packed(self, data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.TensorView(stride=[16, 1])]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.broadcast(data, sig, root=1)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def gather(self, x: pl.Tensor[[1, 64], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]]):
        g = pld.tensor.allgather(x, data, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def gather_dyn(self, x: pl.Tensor[[1, M], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, M], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.allgather(x, data, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def exchange(self, x: pl.Tensor[[NR, 64], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.all_to_all(x, data, sig)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        return
