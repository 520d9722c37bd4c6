# lower-composite-ops: InCore allreduce with dynamic dims, as upstream's own
# tests write it (NR = pl.dynamic("NR")). Mesh: a dynamic target dim is bound
# from the kernel's tensor parameter at run time; the chunk stays 16 KiB
# (4096 FP32), the loop bound N and the epilogue credit count 1 + ceil(N / C)
# are run-time expressions; an [M, 64] target is viewed as [1, M * 64]. Ring:
# a [2 * (NR - 1), NR] signal with dynamic NR computes segments, neighbour and
# rows from the run's nranks; a dynamic SIZE gives a run-time subchunk count
# (a segment is at most ceil(SIZE / NR) + 15 FP16 elements). Every ring checks at
# run time (pl.system.check, at the call) that its signal matches the run's
# rank count: a ring lowered for a static NR = 4 run on 2 ranks, or a dynamic-NR
# kernel handed a [6, 4] signal on 2 ranks, stops with what, why and what would
# work instead of addressing ranks and cells that do not exist.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each 2> %t.err | FileCheck %s
# RUN: count 0 < %t.err
# RUN: pypto-opt %s --passes=lower-composite-ops -o %t.pir
# RUN: pypto-run %t.pir --ranks 4 --entry host_static --check-signals --detect-races --schedule=random:1
# RUN: not pypto-run %t.pir --ranks 2 --entry host_static 2>&1 | FileCheck %s --check-prefix=STATIC
# RUN: pypto-run %t.pir --ranks 4 --entry host_dynamic --check-signals --detect-races --schedule=random:2
# RUN: not pypto-run %t.pir --ranks 2 --entry host_dynamic 2>&1 | FileCheck %s --check-prefix=DYN
# RUN: not pypto-run %t.pir --ranks 3 --entry host_dynamic 2>&1 | FileCheck %s --check-prefix=DYN3
# STATIC: .pir:[[#]]:9: error: pld.tensor.allreduce: mode="ring" signal 'sig' [6, 4]: the ring was lowered for NR = 4 ranks but runs on 2 ranks; its segments, neighbours and signal rows are computed for NR, so it would address ranks and cells that do not exist; run it on 4 ranks, or declare the signal [2 * (NR - 1), NR] with NR = pl.dynamic("NR") so that the ring follows the run's rank count (on rank {{[01]}})
# DYN: .pir:[[#]]:9: error: pld.tensor.allreduce: mode="ring" signal 'sig' [2 * (NR - 1), NR] is [6, 4] at run time but the call runs on 2 ranks; the ring needs one row per round and one cell per rank ([2 * (NR - 1), NR] for NR ranks); pass a signal window of the run's rank count (on rank {{[01]}})
# DYN3: signal 'sig' [2 * (NR - 1), NR] is [6, 4] at run time but the call runs on 3 ranks

# CHECK-LABEL: def mesh_dyn(
# CHECK: for col in pl.range(0, N, 4096):
# CHECK-NEXT: valid: pl.Scalar[pl.INDEX] = pl.min(4096, N - col)
# CHECK: pld.system.wait(sig, [src_1, 0], pl.cast(col // 4096 + 2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK: pld.system.notify(sig, my_rank_idx, [reset_src, 0], pl.cast(-(1 + (N + 4095) // 4096), pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-LABEL: def mesh_rows(
# CHECK: target_2d: pld.DistributedTensor{{\[\[}}1, M * 64], pl.FP32] = pl.tensor.view(data, [1, M * 64])
# CHECK: for col in pl.range(0, M * 64, 4096):
# CHECK-LABEL: def ring_dyn_nr(
# CHECK: pl.system.check(nranks_idx == NR and 2 * (NR - 1) >= 2 * (nranks_idx - 1), [2 * (NR - 1), NR, nranks_idx], msg=
# CHECK-NEXT: ring_subchunks: pl.Scalar[pl.INDEX] = (pl.min((64 + (nranks_idx - 1)) // nranks_idx + 15, 64) + 63) // 64
# CHECK-NEXT: right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % nranks_idx
# CHECK: for rs_step in pl.range(nranks_idx - 1):
# CHECK: send_lo: pl.Scalar[pl.INDEX] = pl.min((send_seg * 64 // nranks_idx + 15) // 16 * 16, 64)
# CHECK: for sub in pl.range(ring_subchunks):
# CHECK: for ag_step in pl.range(nranks_idx - 1):
# CHECK: pld.system.wait(sig, [ag_step + (nranks_idx - 1), src_2], pl.cast(sub_1 * 2 + 1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK: for reset_row in pl.range(2 * (nranks_idx - 1)):
# CHECK: pl.cast(ring_subchunks * -2, pl.INT32)
# CHECK-LABEL: def ring_dyn(
# CHECK: ring_subchunks: pl.Scalar[pl.INDEX] = (pl.min((N + (nranks_idx - 1)) // nranks_idx, N) + 4095) // 4096
# CHECK: ring_stage: pl.Tile{{\[\[}}1, 4096], pl.FP32, pl.Mem.Vec] = pl.tile.create([1, 4096], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-LABEL: def ring_static(
# CHECK: pl.system.check(nranks_idx == 4, [nranks_idx], msg=
# CHECK: ring_subchunks: pl.Scalar[pl.INDEX] = (pl.min((N + 3) // 4, N) + 4095) // 4096
# CHECK: right: pl.Scalar[pl.INDEX] = (my_rank_idx + 1) % 4
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
N = pl.dynamic("N")
M = pl.dynamic("M")


@pl.program
class AllreduceDynamic:
    @pl.function(type=pl.FunctionType.InCore)
    def mesh_dyn(self, data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Max)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def mesh_rows(self, data: pl.InOut[pld.DistributedTensor[[M, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.allreduce(data, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def ring_dyn_nr(self, data: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[2 * (NR - 1), NR], pl.INT32]]):
        pld.tensor.allreduce(data, sig, mode="ring")
        return

    @pl.function(type=pl.FunctionType.InCore)
    def ring_dyn(self, data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[2 * (NR - 1), NR], pl.INT32]]):
        pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Min, mode="ring")
        return

    @pl.function(type=pl.FunctionType.InCore)
    def ring_static(self, data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[6, 4], pl.INT32]]):
        pld.tensor.allreduce(data, sig, mode="ring")
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_static(self):
        buf = pld.tensor.alloc_window_buffer(400)
        sbuf = pld.tensor.alloc_window_buffer(96)
        data = pld.tensor.window(buf, [1, 100], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [6, 4], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.ring_static(data, sig, device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_dynamic(self):
        dbuf = pld.tensor.alloc_window_buffer(400)
        dsbuf = pld.tensor.alloc_window_buffer(96)
        data = pld.tensor.window(dbuf, [1, 100], dtype=pl.FP32)
        sig = pld.tensor.window(dsbuf, [6, 4], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.ring_dyn(data, sig, device=r)
