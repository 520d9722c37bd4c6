# End-to-end kernel: expert-parallel (MoE) dispatch / combine, one expert per
# rank, top-2 routing. Each rank holds T = 4 tokens of H = 64 FP32 and the
# router's output: slot[t, k] (the row dest * 4 + j of token t's k-th copy in
# the send window, tokens grouped by destination expert), gate[t, k] (combine
# weight) and send_counts[dest]. The kernel permutes its tokens into `send`
# (pl.read of slot as a row offset), dispatches them with
# pld.tensor.all_to_all_v (rows + counts), applies its expert
# (h = x * scale + bias) to exactly the rows that arrived (a loop bounded by
# the received count: mask first, then compute), sends them back with a second
# all_to_all_v whose send counts are the received counts, and combines
# y[t] = sum_k gate[t, k] * back[slot[t, k]].
# Checked: exact equality with a numpy oracle (Inputs/ep_oracle.py, integer
# inputs) at P = 2 and 4, before and after --pipeline=default, under the
# parallel, random and PCT schedules with --check-signals --detect-races
# --check-alignment; the PTO holds the puts, notifies and waits of both calls
# (the ptoas tier assembles it).
# RUN: rm -rf %t.d && mkdir -p %t.d/i2 %t.d/i4
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: %python %S/Inputs/ep_oracle.py inputs %t.d/i2 2
# RUN: %python %S/Inputs/ep_oracle.py inputs %t.d/i4 4
# RUN: pypto-run %s --ranks 2 --input x=%t.d/i2/x.npy --input slot=%t.d/i2/slot.npy --input gate=%t.d/i2/gate.npy --input send_counts=%t.d/i2/send_counts.npy --input w=%t.d/i2/w.npy --output-dir %t.d/w2 --check-signals --detect-races --check-alignment
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/i2/x.npy --input slot=%t.d/i2/slot.npy --input gate=%t.d/i2/gate.npy --input send_counts=%t.d/i2/send_counts.npy --input w=%t.d/i2/w.npy --output-dir %t.d/r2 --check-signals --detect-races --check-alignment --schedule=random:2
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/i2/x.npy --input slot=%t.d/i2/slot.npy --input gate=%t.d/i2/gate.npy --input send_counts=%t.d/i2/send_counts.npy --input w=%t.d/i2/w.npy --output-dir %t.d/p2 --check-signals --detect-races --check-alignment --schedule=pct:2 --sweep 4
# RUN: %python %S/Inputs/ep_oracle.py check %t.d/i2 2 %t.d/w2/y.npy %t.d/r2/y.npy %t.d/p2/y.npy | FileCheck %s --check-prefix=OK2
# OK2: OK P=2
# RUN: pypto-run %s --ranks 4 --input x=%t.d/i4/x.npy --input slot=%t.d/i4/slot.npy --input gate=%t.d/i4/gate.npy --input send_counts=%t.d/i4/send_counts.npy --input w=%t.d/i4/w.npy --output-dir %t.d/w4 --check-signals --detect-races --check-alignment
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/i4/x.npy --input slot=%t.d/i4/slot.npy --input gate=%t.d/i4/gate.npy --input send_counts=%t.d/i4/send_counts.npy --input w=%t.d/i4/w.npy --output-dir %t.d/r4 --check-signals --detect-races --check-alignment --schedule=random:4
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/i4/x.npy --input slot=%t.d/i4/slot.npy --input gate=%t.d/i4/gate.npy --input send_counts=%t.d/i4/send_counts.npy --input w=%t.d/i4/w.npy --output-dir %t.d/p4 --check-signals --detect-races --check-alignment --schedule=pct:2 --sweep 4
# RUN: %python %S/Inputs/ep_oracle.py check %t.d/i4 4 %t.d/w4/y.npy %t.d/r4/y.npy %t.d/p4/y.npy | FileCheck %s --check-prefix=OK4
# OK4: OK P=4
# CHECK-LABEL: func.func @moe(
# CHECK: pto.tload
# CHECK: pto.comm.tnotify
# CHECK: pto.comm.tput
# CHECK: pto.comm.twait
# CHECK: pto.tmul
# CHECK: pto.tadd
# CHECK: pto.comm.tput
# CHECK: pto.tmuls
# CHECK: pto.tstore
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class EpDispatchCombine:
    @pl.function(type=pl.FunctionType.InCore)
    def moe(self, x: pl.Tensor[[4, 64], pl.FP32], slot: pl.Tensor[[4, 2], pl.INT32], gate: pl.Tensor[[4, 2], pl.FP32], send_counts: pl.Tensor[[NR], pl.INT32], w: pl.Tensor[[2, 64], pl.FP32], send: pl.InOut[pld.DistributedTensor[[NR * 4, 64], pl.FP32]], recv: pl.InOut[pld.DistributedTensor[[NR * 4, 64], pl.FP32]], sig1: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc1: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], eout: pl.InOut[pld.DistributedTensor[[NR * 4, 64], pl.FP32]], back: pl.InOut[pld.DistributedTensor[[NR * 4, 64], pl.FP32]], sig2: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc2: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], y: pl.Out[pl.Tensor[[4, 64], pl.FP32]]) -> pl.Tensor[[4, 64], pl.FP32]:
        ctx = pld.get_comm_ctx(send)
        n = pld.nranks(ctx)
        for t in pl.range(4):
            tok = pl.load(x, [t, 0], [1, 64])
            for k in pl.range(2):
                s = pl.read(slot, [t, k])
                pl.store(tok, [s, 0], send)
        recv = pld.tensor.all_to_all_v(send, recv, sig1, send_counts, rc1)
        scale = pl.load(w, [0, 0], [1, 64])
        bias = pl.load(w, [1, 0], [1, 64])
        for src in pl.range(n):
            rows = pl.read(rc1, [src, 0])
            for j in pl.range(rows):
                v = pl.load(recv, [src * 4 + j, 0], [1, 64])
                h = pl.add(pl.mul(v, scale), bias)
                pl.store(h, [src * 4 + j, 0], eout)
        back = pld.tensor.all_to_all_v(eout, back, sig2, rc1, rc2)
        for t in pl.range(4):
            s0 = pl.read(slot, [t, 0])
            s1 = pl.read(slot, [t, 1])
            g0 = pl.read(gate, [t, 0])
            g1 = pl.read(gate, [t, 1])
            a = pl.mul(pl.load(back, [s0, 0], [1, 64]), g0)
            b = pl.mul(pl.load(back, [s1, 0], [1, 64]), g1)
            pl.store(pl.add(a, b), [t, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 64], pl.FP32], slot: pl.Tensor[[NR, 4, 2], pl.INT32], gate: pl.Tensor[[NR, 4, 2], pl.FP32], send_counts: pl.Tensor[[NR, NR], pl.INT32], w: pl.Tensor[[NR, 2, 64], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 64], pl.FP32]]):
        rows = pld.world_size() * 4
        send_buf = pld.alloc_window_buffer(rows * 64 * 4)
        recv_buf = pld.alloc_window_buffer(rows * 64 * 4)
        eout_buf = pld.alloc_window_buffer(rows * 64 * 4)
        back_buf = pld.alloc_window_buffer(rows * 64 * 4)
        sig1_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        rc1_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        sig2_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        rc2_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        for r in pl.range(pld.world_size()):
            send = pld.window(send_buf, [rows, 64], dtype=pl.FP32)
            recv = pld.window(recv_buf, [rows, 64], dtype=pl.FP32)
            eout = pld.window(eout_buf, [rows, 64], dtype=pl.FP32)
            back = pld.window(back_buf, [rows, 64], dtype=pl.FP32)
            sig1 = pld.window(sig1_buf, [pld.world_size(), 1], dtype=pl.INT32)
            rc1 = pld.window(rc1_buf, [pld.world_size(), 1], dtype=pl.INT32)
            sig2 = pld.window(sig2_buf, [pld.world_size(), 1], dtype=pl.INT32)
            rc2 = pld.window(rc2_buf, [pld.world_size(), 1], dtype=pl.INT32)
            self.moe(x[r], slot[r], gate[r], send_counts[r], w[r], send, recv, sig1, rc1, eout, back, sig2, rc2, y[r], device=r)
