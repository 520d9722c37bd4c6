# lower-host-tensor-collectives errors (run after the two passes it depends
# on, so positions are the user's): a plain pl.Tensor operand, two operands
# viewing one allocation, operands in different comm domains, a signal with
# fewer rows than its domain's devices, the ring restrictions (Sum / FP32
# only, [2 * (NR - 1) + 1, NR] signal, NR = device count, <= 16 ranks, element
# count divisible by NR), core_num above the AIV core count, a broadcast root
# outside the domain, and a collective nested in another expression.
# RUN: not pypto-opt %s --passes=synthesize-allreduce-signals,materialize-comm-domain-scopes,lower-host-tensor-collectives 2>&1 | FileCheck %s
# RUN: not pypto-opt %s --passes=synthesize-allreduce-signals,materialize-comm-domain-scopes,lower-host-tensor-collectives 2>&1 | grep -c "error:" | FileCheck %s --check-prefix=COUNT
# COUNT: 12
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class LowerErrors:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_s(self, sig: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_35(self, data: pl.InOut[pld.DistributedTensor[[3, 5], pl.FP32]]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_g(self, data: pl.InOut[pld.DistributedTensor[[4, 64], pl.FP32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, loc: pl.Tensor[[1, 64], pl.FP32]):
        a_buf = pld.tensor.alloc_window_buffer(4096)
        a = pld.tensor.window(a_buf, [16, 64], dtype=pl.FP32)
        sa_buf = pld.tensor.alloc_window_buffer(64)
        sa = pld.tensor.window(sa_buf, [4, 1], dtype=pl.INT32)
        for r in pl.range(2):
            self.chip(a, device=r)
        self.chip_s(sa, device=3)
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: its windows are in different comm domains ('a_buf' in 'comm_d0', 'sa_buf' in 'comm_d1'); every operand of a host collective must be dispatched to the same devices
        a = pld.tensor.allreduce(a, sa)

        c_buf = pld.tensor.alloc_window_buffer(4096)
        c = pld.tensor.window(c_buf, [16, 64], dtype=pl.FP32)
        sc_buf = pld.tensor.alloc_window_buffer(64)
        sc = pld.tensor.window(sc_buf, [2, 1], dtype=pl.INT32)
        for r in pl.range(3):
            self.chip(c, device=r)
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: argument 'signal' has 2 rows but its comm domain has 3 devices; it needs one row per participating device
        c = pld.tensor.allreduce(c, sc)

        e_buf = pld.tensor.alloc_window_buffer(4096)
        e = pld.tensor.window(e_buf, [16, 64], dtype=pl.FP32)
        se_buf = pld.tensor.alloc_window_buffer(64)
        se = pld.tensor.window(se_buf, [4, 1], dtype=pl.INT32)
        for r in pl.range(2):
            self.chip(e, device=r)
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.broadcast: root=3 but the comm domain has 2 devices; the root is a rank of the domain (< 2)
        e = pld.tensor.broadcast(e, se, root=3)

        f_buf = pld.tensor.alloc_window_buffer(4096)
        f = pld.tensor.window(f_buf, [16, 64], dtype=pl.FP32)
        sf_buf = pld.tensor.alloc_window_buffer(1024)
        sf = pld.tensor.window(sf_buf, [7, 4], dtype=pl.INT32)
        for r in pl.range(2):
            self.chip(f, device=r)
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: argument 'signal' has 4 columns but the comm domain has 2 devices; a ring signal is [2 * (NR - 1) + 1, NR] with NR the device count
        f = pld.tensor.allreduce(f, sf, mode="ring")

        g_buf = pld.tensor.alloc_window_buffer(4096)
        g = pld.tensor.window(g_buf, [16, 64], dtype=pl.FP32)
        sg_buf = pld.tensor.alloc_window_buffer(1024)
        sg = pld.tensor.window(sg_buf, [7, 4], dtype=pl.INT32)
        sh_buf = pld.tensor.alloc_window_buffer(1024)
        sh = pld.tensor.window(sh_buf, [6, 4], dtype=pl.INT32)
        si_buf = pld.tensor.alloc_window_buffer(4096)
        si = pld.tensor.window(si_buf, [35, 18], dtype=pl.INT32)
        j_buf = pld.tensor.alloc_window_buffer(4096)
        j = pld.tensor.window(j_buf, [3, 5], dtype=pl.FP32)
        sj_buf = pld.tensor.alloc_window_buffer(1024)
        sj = pld.tensor.window(sj_buf, [7, 4], dtype=pl.INT32)
        k_buf = pld.tensor.alloc_window_buffer(4096)
        k = pld.tensor.window(k_buf, [16, 64], dtype=pl.FP32)
        sk = pld.tensor.window(k_buf, [4, 1], dtype=pl.INT32)
        m_buf = pld.tensor.alloc_window_buffer(4096)
        m = pld.tensor.window(m_buf, [4, 64], dtype=pl.FP32)
        sm_buf = pld.tensor.alloc_window_buffer(64)
        sm = pld.tensor.window(sm_buf, [4, 1], dtype=pl.INT32)
        sn_buf = pld.tensor.alloc_window_buffer(64)
        sn = pld.tensor.window(sn_buf, [4, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.chip(g, device=r)
            self.chip_35(j, device=r)
            self.chip(k, device=r)
            self.chip_g(m, device=r)
            self.chip_s(sn, device=r)
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: mode="ring" on the HOST rail supports only pld.ReduceOp.Sum on pl.FP32 (got pld.ReduceOp.Max on pl.FP32); use the mesh mode
        g = pld.tensor.allreduce(g, sg, mode="ring", op=pld.ReduceOp.Max)
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: argument 'signal' has shape [6, 4]; on the HOST rail a ring signal is [2 * (NR - 1) + 1, NR] (one row per ring round plus the return-barrier row)
        g = pld.tensor.allreduce(g, sh, mode="ring")
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: mode="ring" on the HOST rail supports at most 16 ranks, got 18; use the mesh mode
        g = pld.tensor.allreduce(g, si, mode="ring")
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: argument 'target' has 15 elements, which the 4 ranks of the ring do not divide; the HOST ring kernel needs an element count divisible by NR
        j = pld.tensor.allreduce(j, sj, mode="ring")
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: core_num=64 exceeds the 48 AIV cores of target a2a3 (one block per AIV core)
        g = pld.tensor.allreduce(g, core_num=64)
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: arguments 'target' and 'signal' are views of the same window allocation 'k_buf'; every operand of a host collective needs its own pld.tensor.alloc_window_buffer (aliasing them races across ranks)
        k = pld.tensor.allreduce(k, sk)
        # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allgather: argument 'local_data' is pl.Tensor{{\[\[}}1, 64], pl.FP32]; on the HOST rail every operand is passed to the per-device builtin kernel, so it must be a window view (pld.tensor.window of a pld.tensor.alloc_window_buffer allocation)
        m = pld.tensor.allgather(loc, m, sm)
        # CHECK: errors.pir:[[@LINE+1]]:21: error: pld.tensor.barrier: a host collective must be the whole value of an assignment, an expression statement or a return value; bind it to a variable first
        self.chip_s(pld.tensor.barrier(sn), device=0)
        # CHECK-NOT: error
