# --check-alignment: a GM transfer whose first element is not on a 32-byte
# boundary is an error naming the op, rank, line:col and byte address; without
# the flag the same program runs. A row of a dispatched host tensor is the
# device's own buffer (x[r] starts at byte 0), so only in-kernel offsets count.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py arange %t.d/x.npy float32 2 4 16
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d
# RUN: pypto-run %s --ranks 2 --entry host_aligned --input x=%t.d/x.npy --output-dir %t.d --check-alignment
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d --check-alignment | FileCheck %s
# CHECK: check_alignment.pir:[[@LINE+18]]:13: error: pld.tile.remote_load: misaligned GM transfer (--check-alignment): 'target' ('data') starts at byte 20 of window 'buf' (element [0, 5] of a FP32 [4, 16] view), not a multiple of 32; MTE transfers need 32-byte aligned GM starts (on rank {{[01]}})
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Misaligned:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 16], pl.FP32], data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]], col: pl.Scalar[pl.INDEX]):
        ctx = pld.get_comm_ctx(data)
        me = pld.rank(ctx)
        peer = (me + 1) % pld.nranks(ctx)
        t = pl.load(x, [0, 0], [4, 16])
        pl.store(t, [0, 0], data)
        pld.system.notify(sig, peer, [me, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [peer, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        r = pld.tile.remote_load(data, peer, [0, col], [1, 8])
        pl.store(r, [0, 0], y)
        pld.system.notify(sig, peer, [me, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [peer, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer(4 * 16 * 4)
        sbuf = pld.alloc_window_buffer(64)
        data = pld.window(buf, [4, 16], dtype=pl.FP32)
        sig = pld.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.k(x[r], data, sig, y[r], 5, device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_aligned(self, x: pl.Tensor[[NR, 4, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer(4 * 16 * 4)
        sbuf = pld.alloc_window_buffer(64)
        data = pld.window(buf, [4, 16], dtype=pl.FP32)
        sig = pld.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.k(x[r], data, sig, y[r], 8, device=r)
