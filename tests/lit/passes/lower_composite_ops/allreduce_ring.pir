# lower-composite-ops: allreduce mode="ring" (TPUT push model). The [1, 12289]
# FP32 target over NR = 3 (signal [4, 3]) splits into segments
# floor(i * 12289 / 3) = 4096, 4096, 4097 elements, so K = 2 subchunks of <= 4096
# per round (the second is empty for two of the segments). Per reduce-scatter
# round row rs_step: own value of the receive segment read first, ready barrier
# (>= 2*sub + 1), pld.tile.put of the send segment to the right neighbour through
# the narrowed staging tile, push-done barrier (>= 2*sub + 2), then the received
# value reduced with the own one and stored. Allgather rounds (rows
# ag_step + 2) only push. The epilogue subtracts 2K = 4 from every row cell.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=lower-composite-ops,lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# Differential runs before/after (P = 1, 2, 3, 4, 8; the signal is
# [2*(P-1), P] per P), all ReduceOps, FP32 and FP16, ragged sizes 1, 17, 4097,
# 12289, random schedules; exact outputs, zero residue, no races:
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/ring_prog.txt %t.d/a --n 17 --op Sum --ranks 1,2,3,4,8 --seeds 1,2 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/ring_prog.txt %t.d/b --n 12289 --op Max --ranks 1,2,3,4,8 --seeds 3 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/ring_prog.txt %t.d/c --n 4097 --op Min --ranks 1,2,3,4,8 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/ring_prog.txt %t.d/d --n 1 --op Prod --ranks 1,2,3,4,8 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/ring_prog.txt %t.d/e --n 17 --dtype FP16 --op Prod --ranks 1,2,3,4,8 --seeds 4 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/ring_prog.txt %t.d/f --n 12289 --dtype FP16 --op Sum --ranks 1,2,3,4,8 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/ring_prog.txt %t.d/g --n 4097 --dtype FP16 --op Max --ranks 1,2,3,4,8 --check-alignment | FileCheck %s --check-prefix=DIFF
# DIFF-DAG: before P=1 parallel: OK
# DIFF-DAG: after P=1 parallel: OK
# DIFF-DAG: after P=2 parallel: OK
# DIFF-DAG: after P=3 parallel: OK
# DIFF-DAG: after P=4 parallel: OK
# DIFF-DAG: before P=8 parallel: OK
# DIFF-DAG: after P=8 parallel: OK
# DIFF: FAILURES 0

# The PTO emitter accepts the lowered ring (dynamic-extent TPUTs, PTOAS >= v0.55):
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=EMIT
# EMIT-LABEL: func.func @kernel(
# EMIT: pto.comm.twait(%sig_local_pview, {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: pto.comm.tput(%data_peer_pview, %data_local_pview, buf(%ring_stage) : !pto.partition_tensor_view<1x?xf32>, !pto.partition_tensor_view<1x?xf32>
# EMIT: pto.comm.twait(%sig_local_pview_1, {{.*}}) {cmp = #pto<wait_cmp ge>}
# EMIT: pto.comm.tput(%data_peer_pview_1, %data_local_pview_1, buf(%ring_stage)

# CHECK-LABEL: def kernel(
# CHECK: right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % 3
# CHECK-NEXT: ring_stage: pl.Tile{{\[\[}}1, 4096], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT: for rs_step in pl.range(2):
# CHECK-NEXT: send_seg: pl.Scalar[pl.INDEX] = (my_rank_idx - rs_step + 3) % 3
# CHECK-NEXT: send_lo: pl.Scalar[pl.INDEX] = send_seg * 12289 // 3
# CHECK: recv_seg: pl.Scalar[pl.INDEX] = (send_seg + 2) % 3
# CHECK: for sub in pl.range(2):
# CHECK: own: {{.*}} = pl.tile.load(data, [0, pl.min(recv_off, 12288)], [1, 4096], [1, pl.max(recv_valid, 1)], target_memory=pl.Mem.Vec)
# CHECK-NEXT: for peer in pl.range(nranks_idx):
# CHECK-NEXT: if peer != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, peer, [rs_step, my_rank_idx], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK: pld.system.wait(sig, [rs_step, src], pl.cast(sub * 2 + 1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: if send_valid > 0:
# CHECK-NEXT: stage_v: {{.*}} = pl.tile.set_validshape(ring_stage, 1, send_valid)
# CHECK-NEXT: pld.tile.put(data, right, data, stage_v, [0, send_off], [0, send_off], [1, send_valid], atomic=pld.AtomicType.None_)
# CHECK: pld.system.wait(sig, [rs_step, src_1], pl.cast(sub * 2 + 2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: if recv_valid > 0:
# CHECK-NEXT: recv: {{.*}} = pl.tile.load(data, [0, recv_off], [1, 4096], [1, recv_valid], target_memory=pl.Mem.Vec)
# CHECK: red: {{.*}} = pl.tile.maximum(own_pad, recv_pad)
# CHECK: red_stored: {{.*}} = pl.tile.store(red_valid, [0, recv_off], data)
# CHECK: for ag_step in pl.range(2):
# CHECK-NOT: recv_seg
# CHECK: pld.system.wait(sig, [ag_step + 2, src_2], pl.cast(sub_1 * 2 + 1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK: pld.tile.put(data, right, data, stage_v_1, [0, send_off_1], [0, send_off_1], [1, send_valid_1], atomic=pld.AtomicType.None_)
# CHECK: pld.system.wait(sig, [ag_step + 2, src_3], pl.cast(sub_1 * 2 + 2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for reset_row in pl.range(4):
# CHECK-NEXT: for reset_src in pl.range(nranks_idx):
# CHECK-NEXT: if reset_src != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, my_rank_idx, [reset_row, reset_src], pl.const(-4, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: return
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Ring:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, data: pl.InOut[pld.DistributedTensor[[1, 12289], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32]]):
        pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Max, mode="ring")
        return
