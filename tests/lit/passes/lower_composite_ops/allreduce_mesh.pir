# lower-composite-ops: a kernel's pld.tensor.allreduce (mode "mesh") becomes a
# chunked remote_load reduction guarded by the self-clearing credit barrier:
# a [4, 1025] FP32 target is viewed as [1, 4100]; chunks of 4096 elements
# (16 KiB): ready barrier (>= 1), per chunk own tile.load + fillpad, for every
# peer != me remote_load + fillpad + tile.maximum, the chunk barrier
# (>= chunk + 2: every peer has read my chunk) BEFORE the store of the valid
# part, and one epilogue subtracting 1 + 2 chunks = 3 credits per peer cell.
# A small target shrinks the chunk to the smallest 32-byte multiple (17 FP16
# elements -> 32) and needs no view; its FP16 remote tail reads a physical span
# rounded up to 16 elements (allow_physical_tail_padding) and restores the
# logical valid shape before the fillpad. Host-orchestrator allreduce is kept
# (lower-host-tensor-collectives' business). The pass gives remote_load tiles no
# memory space, so it invalidates TileMemoryInferred.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each 2> %t.err | FileCheck %s
# RUN: count 0 < %t.err
# RUN: pypto-opt %s --passes=lower-composite-ops,lower-composite-ops --verify-each --roundtrip-each 2>/dev/null | FileCheck %s

# Differential runs of the program before and after the pass (P = 1, 2, 3, 4,
# 8): every ReduceOp, FP32 and FP16, ragged sizes 17 (one partial chunk) and
# 4097 (FP32: 4096 + 1 -> two chunks); exact integer-valued data, zero signal
# residue, no races. Also after the front of the default pipeline (outline,
# SSA, simplify, tile conversion, flatten) and with random schedules.
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/a --n 17 --op Sum --ranks 1,2,3,4,8 --seeds 1,2 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/b --n 4097 --op Sum --ranks 1,2,3,4,8 --seeds 3 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/c --n 4097 --op Max --ranks 1,2,3,4,8 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/d --n 17 --op Min --ranks 1,2,3,4,8 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/e --n 4097 --op Prod --ranks 1,2,3,4,8 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/f --n 17 --dtype FP16 --op Sum --ranks 1,2,3,4,8 --seeds 4 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/g --n 4097 --dtype FP16 --op Max --ranks 1,2,3,4,8 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/h --n 8193 --dtype FP16 --op Min --ranks 1,2,3,4,8 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/i --n 4097 --dtype FP16 --op Prod --ranks 1,2,3,4,8 --check-alignment | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/j --n 4097 --op Min --ranks 1,2,3,4 --passes=outline-incore-scopes,convert-to-ssa,simplify,convert-tensor-to-tile-ops,lower-composite-ops,flatten-tile-nd-to-2d --check-alignment | FileCheck %s --check-prefix=DIFF
# DIFF-DAG: before P=1 parallel: OK
# DIFF-DAG: after P=1 parallel: OK
# DIFF-DAG: after P=2 parallel: OK
# DIFF-DAG: after P=3 parallel: OK
# DIFF-DAG: after P=4 parallel: OK
# DIFF: FAILURES 0

# CHECK-LABEL: def kernel(
# CHECK: comm_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
# CHECK: target_2d: pld.DistributedTensor{{\[\[}}1, 4100], pl.FP32] = pl.tensor.view(data, [1, 4100])
# CHECK-NEXT: for peer in pl.range(nranks_idx):
# CHECK-NEXT: if peer != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, peer, [my_rank_idx, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: for src in pl.range(nranks_idx):
# CHECK-NEXT: if src != my_rank_idx:
# CHECK-NEXT: pld.system.wait(sig, [src, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for col in pl.range(0, 4100, 4096):
# CHECK-NEXT: valid: pl.Scalar[pl.INDEX] = pl.min(4096, 4100 - col)
# CHECK-NEXT: own: pl.Tile{{\[\[}}1, 4096], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[1, valid])] = pl.tile.load(target_2d, [0, col], [1, 4096], [1, valid], target_memory=pl.Mem.Vec)
# CHECK-NEXT: acc: {{.*}} = pl.tile.fillpad_inplace(own)
# CHECK-NEXT: for peer_1, (acc_it,) in pl.range(nranks_idx, init_values=(acc,)):
# CHECK-NEXT: if peer_1 != my_rank_idx:
# CHECK-NEXT: recv: {{.*}} = pld.tile.remote_load(target_2d, peer_1, [0, col], [1, 4096], [1, valid])
# CHECK-NEXT: recv_pad: {{.*}} = pl.tile.fillpad_inplace(recv)
# CHECK-NEXT: acc_next: {{.*}} = pl.tile.maximum(acc_it, recv_pad)
# CHECK-NEXT: acc_sel: {{.*}} = pl.yield_(acc_next)
# CHECK-NEXT: else:
# CHECK-NEXT: acc_sel: {{.*}} = pl.yield_(acc_it)
# CHECK-NEXT: acc_all: {{.*}} = pl.yield_(acc_sel)
# CHECK-NEXT: for peer_2 in pl.range(nranks_idx):
# CHECK-NEXT: if peer_2 != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, peer_2, [my_rank_idx, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: for src_1 in pl.range(nranks_idx):
# CHECK-NEXT: if src_1 != my_rank_idx:
# CHECK-NEXT: pld.system.wait(sig, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: acc_valid: {{.*}} = pl.tile.set_validshape(acc_all, 1, valid)
# CHECK-NEXT: stored: {{.*}} = pl.tile.store(acc_valid, [0, col], target_2d)
# CHECK-NEXT: for reset_src in pl.range(nranks_idx):
# CHECK-NEXT: if reset_src != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, my_rank_idx, [reset_src, 0], pl.const(-3, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: out: pld.DistributedTensor{{\[\[}}4, 1025], pl.FP32] = data
# CHECK-NEXT: return
# CHECK-LABEL: def kernel_small(
# CHECK-NOT: pl.tensor.view
# CHECK: for col in pl.range(0, 17, 32):
# CHECK: pl.tile.load(data, [0, col], [1, 32], [1, valid], target_memory=pl.Mem.Vec)
# CHECK: recv_phys: {{.*}} = pld.tile.remote_load(data, peer_1, [0, col], [1, 32], [1, (valid + 15) // 16 * 16], allow_physical_tail_padding=True)
# CHECK-NEXT: recv: {{.*}} = pl.tile.set_validshape(recv_phys, 1, valid)
# CHECK-NEXT: recv_pad: {{.*}} = pl.tile.fillpad_inplace(recv)
# CHECK: pl.tile.add(acc_it, recv_pad)
# CHECK: pl.const(-2, pl.INT32)
# CHECK-LABEL: def kernel_prod(
# CHECK: for col in pl.range(0, 17, 24):
# CHECK: pl.tile.mul(acc_it, recv_pad)
# CHECK: pl.const(-2, pl.INT32)
# CHECK-LABEL: def host_orch(
# CHECK: pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Max)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class MeshLowering:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, data: pl.InOut[pld.DistributedTensor[[4, 1025], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        out = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Max)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kernel_small(self, data: pl.InOut[pld.DistributedTensor[[1, 17], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.allreduce(data, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kernel_prod(self, data: pl.InOut[pld.DistributedTensor[[1, 17], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Prod)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        buf = pld.tensor.alloc_window_buffer(16400)
        sbuf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [4, 1025], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        data = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Max)
