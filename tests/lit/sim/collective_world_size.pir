# Run-time checks of collective operands against the run's rank count P (the
# compiler checks the layouts against each other; P is only known here). Each
# program is right for one P and run on another: every mismatch stops at the
# call with the operand, its window, the expected and the actual shape, in the
# whole-operation form (source) and as the per-device builtin dispatch
# (lowered by the default pipeline); on the right P each runs clean. A mesh
# signal may have more lanes than ranks (a device-subset domain's synthesized
# [world_size, core_num] signal), not fewer.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default -o %t.d/low.pir
# RUN: not pypto-run %s --ranks 8 --entry mesh4 2>&1 | FileCheck %s --check-prefix=MESH
# RUN: not pypto-run %t.d/low.pir --ranks 8 --entry mesh4 2>&1 | FileCheck %s --check-prefix=MESH-LOW
# MESH: collective_world_size.pir:78:16: error: pld.tensor.allreduce: 'signal' ('sig') of window 'mesh4_sbuf' has shape [4, 1] but the comm domain has 8 ranks; expected [8] or [8, stride] (at least 8 rows) (one lane per rank and core) (on rank {{[0-7]}})
# MESH-LOW: low.pir:[[#]]:17: error: builtin.tensor.allreduce: 'signal' ('sig') of window 'mesh4_sbuf' has shape [4, 1] but the comm domain has 8 ranks; expected [8] or [8, stride] (at least 8 rows) (one lane per rank and core) (on rank {{[0-7]}})
# RUN: not pypto-run %s --ranks 2 --entry ring_host 2>&1 | FileCheck %s --check-prefix=RING
# RUN: not pypto-run %t.d/low.pir --ranks 2 --entry ring_host 2>&1 | FileCheck %s --check-prefix=RING-LOW
# RING: collective_world_size.pir:98:16: error: pld.tensor.allreduce: 'signal' ('sig') of window 'ring_host_sbuf' has shape [7, 4] but the comm domain has 2 ranks; expected [2 * (P - 1) + 1, P] = [3, 2] (one row per ring round plus the return-barrier row, one cell per rank) (on rank {{[01]}})
# RING-LOW: low.pir:[[#]]:17: error: builtin.tensor.allreduce_ring: 'signal' ('sig') of window 'ring_host_sbuf' has shape [7, 4] but the comm domain has 2 ranks; expected [2 * (P - 1) + 1, P] = [3, 2]
# RUN: not pypto-run %s --ranks 2 --entry ring_incore 2>&1 | FileCheck %s --check-prefix=INCORE
# RUN: not pypto-run %t.d/low.pir --ranks 2 --entry ring_incore 2>&1 | FileCheck %s --check-prefix=INCORE-LOW
# INCORE: collective_world_size.pir:59:9: error: pld.tensor.allreduce: 'signal' ('sig') of window 'ring_incore_sbuf' has shape [6, 4] but the comm domain has 2 ranks; expected [2 * (P - 1), P] = [2, 2] (one row per ring round, one cell per rank) (on rank {{[01]}})
# INCORE-LOW: low.pir:[[#]]:9: error: pld.tensor.allreduce: mode="ring" signal 'sig' [6, 4]: the ring was lowered for NR = 4 ranks but runs on 2 ranks
# RUN: not pypto-run %s --ranks 17 --entry ring_many 2>&1 | FileCheck %s --check-prefix=MANY
# RUN: not pypto-run %t.d/low.pir --ranks 17 --entry ring_many 2>&1 | FileCheck %s --check-prefix=MANY-LOW
# MANY: collective_world_size.pir:118:16: error: pld.tensor.allreduce: the ring runs on 17 ranks but mode="ring" on the HOST rail supports at most 16; use the mesh mode (on rank {{[0-9]+}})
# MANY-LOW: low.pir:[[#]]:17: error: builtin.tensor.allreduce_ring: the ring runs on 17 ranks but mode="ring" on the HOST rail supports at most 16; use the mesh mode
# RUN: not pypto-run %s --ranks 2 --entry barrier3 2>&1 | FileCheck %s --check-prefix=BAR
# RUN: not pypto-run %t.d/low.pir --ranks 2 --entry barrier3 2>&1 | FileCheck %s --check-prefix=BAR-LOW
# BAR: collective_world_size.pir:126:15: error: pld.tensor.barrier: 'signal' ('sig') of window 'barrier3_sbuf' has shape [3] but the comm domain has 2 ranks; expected [2] or [2, 1] (one cell per rank of the domain) (on rank {{[01]}})
# BAR-LOW: low.pir:[[#]]:17: error: builtin.tensor.barrier: 'signal' ('sig') of window 'barrier3_sbuf' has shape [3] but the comm domain has 2 ranks; expected [2] or [2, 1]
# RUN: not pypto-run %s --ranks 2 --entry scatter4 2>&1 | FileCheck %s --check-prefix=RS
# RUN: not pypto-run %t.d/low.pir --ranks 2 --entry scatter4 2>&1 | FileCheck %s --check-prefix=RS-LOW
# RS: collective_world_size.pir:136:16: error: pld.tensor.reduce_scatter: 'signal' ('sig') of window 'scatter4_sbuf' has shape [4, 1] but the comm domain has 2 ranks; expected [2] or [2, 1] (one cell per rank of the domain) (on rank {{[01]}})
# RS-LOW: low.pir:[[#]]:17: error: builtin.tensor.reduce_scatter: 'signal' ('sig') of window 'scatter4_sbuf' has shape [4, 1] but the comm domain has 2 ranks
# The same programs on the P they were written for:
# RUN: pypto-run %s --ranks 4 --entry mesh4 --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 2 --entry mesh4 --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 4 --entry mesh4 --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 2 --entry mesh_cores --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 4 --entry ring_host --check-signals
# RUN: pypto-run %s --ranks 4 --entry ring_incore --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 3 --entry ring_many --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 3 --entry barrier3 --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 4 --entry scatter4 --check-signals
import pypto.language as pl
import pypto.language.distributed as pld


R = pl.dynamic("R")
C = pl.dynamic("C")
N = pl.dynamic("N")
M = pl.dynamic("M")


@pl.program
class CollectiveWorldSize:
    @pl.function(type=pl.FunctionType.InCore)
    def ring_k(self, data: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[6, 4], pl.INT32]]):
        pld.tensor.allreduce(data, sig, mode="ring")
        return

    @pl.function(type=pl.FunctionType.InCore)
    def touch(self, data: pl.InOut[pld.DistributedTensor[[M, N], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[R, C], pl.INT32]]):
        return

    @pl.function(type=pl.FunctionType.InCore)
    def touch_sig(self, sig: pl.InOut[pld.DistributedTensor[[R], pl.INT32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def mesh4(self):
        buf = pld.tensor.alloc_window_buffer(256, name="mesh4_buf")
        sbuf = pld.tensor.alloc_window_buffer(16, name="mesh4_sbuf")
        data = pld.tensor.window(buf, [1, 64], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [4, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.touch(data, sig, device=r)
        data = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def mesh_cores(self):
        buf = pld.tensor.alloc_window_buffer(256, name="mesh_cores_buf")
        sbuf = pld.tensor.alloc_window_buffer(32, name="mesh_cores_sbuf")
        data = pld.tensor.window(buf, [1, 64], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [2, 4], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.touch(data, sig, device=r)
        data = pld.tensor.allreduce(data, sig, core_num=4)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def ring_host(self):
        buf = pld.tensor.alloc_window_buffer(256, name="ring_host_buf")
        sbuf = pld.tensor.alloc_window_buffer(112, name="ring_host_sbuf")
        data = pld.tensor.window(buf, [1, 64], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [7, 4], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.touch(data, sig, device=r)
        data = pld.tensor.allreduce(data, sig, mode="ring")

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def ring_incore(self):
        buf = pld.tensor.alloc_window_buffer(256, name="ring_incore_buf")
        sbuf = pld.tensor.alloc_window_buffer(96, name="ring_incore_sbuf")
        data = pld.tensor.window(buf, [1, 64], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [6, 4], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.ring_k(data, sig, device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def ring_many(self):
        nr = pld.system.world_size()
        buf = pld.tensor.alloc_window_buffer(4352, name="ring_many_buf")
        sbuf = pld.tensor.alloc_window_buffer(4096, name="ring_many_sbuf")
        data = pld.tensor.window(buf, [1, 1088], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [2 * (nr - 1) + 1, nr], dtype=pl.INT32)
        for r in pl.range(nr):
            self.touch(data, sig, device=r)
        data = pld.tensor.allreduce(data, sig, mode="ring")

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def barrier3(self):
        sbuf = pld.tensor.alloc_window_buffer(12, name="barrier3_sbuf")
        sig = pld.tensor.window(sbuf, [3], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.touch_sig(sig, device=r)
        sig = pld.tensor.barrier(sig)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def scatter4(self):
        buf = pld.tensor.alloc_window_buffer(128, name="scatter4_buf")
        sbuf = pld.tensor.alloc_window_buffer(16, name="scatter4_sbuf")
        data = pld.tensor.window(buf, [4, 8], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [4, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.touch(data, sig, device=r)
        data = pld.tensor.reduce_scatter(data, sig)
