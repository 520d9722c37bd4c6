# pld.tile.remote_load(..., allow_physical_tail_padding=True): an FP16 allreduce
# tail reads its row on to the requested 32-byte rounded span. The executor
# reads that span inside the window's 32-byte granules (the elements past the
# valid region are don't-care: NaN), so tile.set_validshape must restore the
# logical valid shape before the tile is used; a span that runs past the
# window allocation is an error at the load.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-run %s --ranks 2 --output-dir %t.d --check-alignment --entry host_ok
# RUN: %python -c "import numpy as n; y = n.load('%t.d/y.npy'); assert (y[:, 0, :17] == 7).all() and (y[:, 0, 17:] == 0).all(), y"
# RUN: not pypto-run %s --ranks 2 --output-dir %t.d --entry host_past 2>&1 | FileCheck %s
# CHECK: physical_tail_padding.pir:[[@LINE+19]]:13: error: pld.tile.remote_load: the physical tail read (allow_physical_tail_padding) of 'data' runs to element 47 of window 'buf2', which holds 32 elements (its 34 bytes rounded up to 32-byte granules); the rounded span must stay inside the window allocation (on rank {{[01]}})
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class TailPadding:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, data: pl.InOut[pld.DistributedTensor[[1, 17], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], y: pl.Out[pl.Tensor[[1, 32], pl.FP16]], col: pl.Scalar[pl.INDEX]):
        ctx = pld.get_comm_ctx(data)
        me = pld.rank(ctx)
        peer = (me + 1) % pld.nranks(ctx)
        t = pl.tile.full([1, 32], dtype=pl.FP16, value=7.0)
        t17 = pl.tile.set_validshape(t, 1, 17)
        pl.store(t17, [0, 0], data)
        pld.system.notify(sig, peer, [me, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [peer, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        r = pld.tile.remote_load(data, peer, [0, col], [1, 32], [1, 32], allow_physical_tail_padding=True)
        v = pl.tile.set_validshape(r, 1, 17 - col)
        p = pl.tile.fillpad_inplace(v)
        pl.store(p, [0, 0], y)
        pld.system.notify(sig, peer, [me, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [peer, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.notify(sig, me, [peer, 0], pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_ok(self, y: pl.Out[pl.Tensor[[NR, 1, 32], pl.FP16]]):
        buf = pld.alloc_window_buffer(34)
        sbuf = pld.alloc_window_buffer(64)
        data = pld.window(buf, [1, 17], dtype=pl.FP16)
        sig = pld.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.k(data, sig, y[r], 0, device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_past(self, y: pl.Out[pl.Tensor[[NR, 1, 32], pl.FP16]]):
        buf2 = pld.alloc_window_buffer(34)
        sbuf2 = pld.alloc_window_buffer(64)
        data = pld.window(buf2, [1, 17], dtype=pl.FP16)
        sig = pld.window(sbuf2, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.k(data, sig, y[r], 16, device=r)
