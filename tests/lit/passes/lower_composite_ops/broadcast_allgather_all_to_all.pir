# lower-composite-ops: broadcast, allgather and all_to_all in kernels.
#  * broadcast(target, sig, root=R): ready barrier (>= 1); every rank but R copies
#    R's target into its own through a staging tile (pld.tile.get); a second
#    barrier (>= 2: R's target has been read by all, so R may overwrite it after
#    the call); epilogue -2.
#  * allgather(input [1, SIZE], target [NR, SIZE]): pld.tile.put of the input into
#    row my_rank of every rank's target (own included), in column chunks of
#    <= 16 KiB through a [1, C] staging tile; one barrier; epilogue -1.
#  * all_to_all(input [NR, SIZE], target [NR, SIZE]): row d of the input into row
#    my_rank of rank d's target; one barrier; epilogue -1.
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
# Rows larger than one 16 KiB chunk (4097 FP32 = 4096 + 1; 65537 FP32 = 17
# chunks, which did not fit UB as one row; 8193 FP16 = 8192 + 1):
# RUN: %python %S/Inputs/run_collective.py allgather %S/Inputs/gather_prog.txt %t.d/agbig --n 4097 --ranks 1,3,4 --seeds 5 | FileCheck %s --check-prefix=BIG
# RUN: %python %S/Inputs/run_collective.py allgather %S/Inputs/gather_prog.txt %t.d/aghuge --n 65537 --ranks 2 --sweep 2 | FileCheck %s --check-prefix=BIG
# RUN: %python %S/Inputs/run_collective.py all_to_all %S/Inputs/gather_prog.txt %t.d/aabig --n 8193 --dtype FP16 --ranks 2,3 | FileCheck %s --check-prefix=BIG
# BIG: after P={{[23]}} parallel: OK
# BIG: FAILURES 0
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
# EMIT: pto.comm.tget(%data_local_pview, %data_peer_pview, buf(%bc_stage)
# EMIT: pto.comm.twait(%sig_local_pview_1, %c2_i32 : {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: pto.comm.tnotify(%sig_peer_pview_2, %cn2_i32 : {{.*}}) {notifyOp = #pto<notify_op atomic_add>}
# EMIT-LABEL: func.func @gather(
# EMIT: pto.comm.tput(%data_peer_pview, %x_local_pview, buf(%ag_stage)
# EMIT: pto.comm.tnotify(%sig_peer_pview_1, %cn1_i32 : !pto.partition_tensor_view<1xi32>, i32)
# EMIT-LABEL: func.func @exchange(
# EMIT: pto.comm.tput(%data_peer_pview, %x_local_pview, buf(%aa_stage)

# CHECK-LABEL: def bcast(
# CHECK: comm_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
# CHECK: pld.system.wait(sig, [src, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: bc_stage: pl.Tile{{\[\[}}8, 16], pl.FP16, pl.Mem.Vec] = pl.tile.create([8, 16], dtype=pl.FP16, target_memory=pl.Mem.Vec)
# CHECK-NEXT: if my_rank_idx != 2:
# CHECK-NEXT: pld.tile.get(data, pl.const(2, pl.INT32), data, bc_stage)
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
# CHECK-LABEL: def gather(
# CHECK: ag_stage: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT: for dest in pl.range(nranks_idx):
# CHECK-NEXT: for put_col in pl.range(0, 64, 64):
# CHECK-NEXT: put_valid: pl.Scalar[pl.INDEX] = pl.min(64, 64 - put_col)
# CHECK-NEXT: stage_v: {{.*}} = pl.tile.set_validshape(ag_stage, 1, put_valid)
# CHECK-NEXT: pld.tile.put(data, dest, x, stage_v, [my_rank_idx, put_col], [0, put_col], [1, put_valid], atomic=pld.AtomicType.None_)
# CHECK-NEXT: for peer in pl.range(nranks_idx):
# CHECK: pld.system.wait(sig, [src], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK: pld.system.notify(sig, my_rank_idx, [reset_src], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: g: pld.DistributedTensor{{\[\[}}NR, 64], pl.FP32] = data
# CHECK-LABEL: def exchange(
# CHECK: aa_stage: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT: for dest in pl.range(nranks_idx):
# CHECK-NEXT: for put_col in pl.range(0, 64, 64):
# CHECK-NEXT: put_valid: pl.Scalar[pl.INDEX] = pl.min(64, 64 - put_col)
# CHECK-NEXT: stage_v: {{.*}} = pl.tile.set_validshape(aa_stage, 1, put_valid)
# CHECK-NEXT: pld.tile.put(data, dest, x, stage_v, [my_rank_idx, put_col], [dest, put_col], [1, put_valid], atomic=pld.AtomicType.None_)
# CHECK: pl.const(-1, pl.INT32)
# CHECK-NOT: pld.tensor.
# CHECK-LABEL: def host_orch(
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Collectives:
    @pl.function(type=pl.FunctionType.InCore)
    def bcast(self, data: pl.InOut[pld.DistributedTensor[[2, 4, 16], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.broadcast(data, sig, root=2)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def gather(self, x: pl.Tensor[[1, 64], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]]):
        g = pld.tensor.allgather(x, data, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def exchange(self, x: pl.Tensor[[NR, 64], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.all_to_all(x, data, sig)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        return
