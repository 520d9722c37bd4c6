"""pypto.sim.run on DSL programs: check_alignment names the user's line; a kernel's
dynamic dims bind from its tensor parameters (the cacheinvalid insert-comm-fence
adds runs after the default pipeline); an unbound dim is reported at the user's
statement, not at the decorator's generated pl.dynamic prelude."""

import numpy as np
import pytest

import pypto
import pypto.ir
import pypto.language as pl
import pypto.language.distributed as pld
import pypto.sim

NR = pl.dynamic("NR")
STAGED = pl.dynamic("STAGED")
M = pl.dynamic("M")


@pl.program
class RemoteRow:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 16], pl.FP32],
          data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]],
          sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
          y: pl.Out[pl.Tensor[[1, 8], pl.FP32]], col: pl.Scalar[pl.INDEX]):
        ctx = pld.get_comm_ctx(data)
        me = pld.rank(ctx)
        peer = (me + 1) % pld.nranks(ctx)
        pl.store(pl.load(x, [0, 0], [4, 16]), [0, 0], data)
        pld.system.notify(sig, peer, [me, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [peer, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        r = pld.tile.remote_load(data, peer, [0, col], [1, 8])  # MARK-align
        pl.store(r, [0, 0], y)
        pld.system.notify(sig, peer, [me, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [peer, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 16], pl.FP32], col: pl.Scalar[pl.INDEX],
                  y: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer(4 * 16 * 4)
        sbuf = pld.alloc_window_buffer(64)
        data = pld.window(buf, [4, 16], dtype=pl.FP32)
        sig = pld.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.k(x[r], data, sig, y[r], col, device=r)


def _line(mark):
    with open(__file__, encoding="utf-8") as f:
        return next(i for i, s in enumerate(f, 1) if mark in s and "next(" not in s)


def _x():
    return (np.arange(2 * 4 * 16) % 23).astype(np.float32).reshape(2, 4, 16)


def test_check_alignment_names_op_rank_line_and_address():
    x = _x()
    for col in (0, 8):  # 32-byte starts: clean, and the right rows arrive
        out = pypto.sim.run(RemoteRow, ranks=2, inputs={"x": x, "col": np.array(col)},
                            check_alignment=True)
        np.testing.assert_array_equal(out["y"][:, 0], np.roll(x, -1, axis=0)[:, 0, col:col + 8])
    pypto.sim.run(RemoteRow, ranks=2, inputs={"x": x, "col": np.array(5)})  # no check: runs
    with pytest.raises(pypto.SimError) as info:
        pypto.sim.run(RemoteRow, ranks=2, inputs={"x": x, "col": np.array(5)},
                      check_alignment=True)
    msg = str(info.value)
    assert f"{__file__}:{_line('# MARK-align')}:" in msg
    assert ("pld.tile.remote_load: misaligned GM transfer (--check-alignment): 'target' ('data') "
            "starts at byte 20 of window 'buf' (element [0, 5] of a FP32 [4, 16] view), not a "
            "multiple of 32") in msg
    assert "(on rank " in msg


@pl.program
class Staged:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[STAGED, 8], pl.FP32],
              data: pl.InOut[pld.DistributedTensor[[STAGED, 8], pl.FP32]]
              ) -> pld.DistributedTensor[[STAGED, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        d2 = pl.store(t, [0, 0], data)
        return d2

    @pl.function(type=pl.FunctionType.InCore)
    def unstage(self, data: pld.DistributedTensor[[NR, 8], pl.FP32], row: pl.Scalar[pl.INDEX],
                y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t = pl.load(data, [row, 0], [1, 8])
        return pl.store(t, [0, 0], y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32],
                  y: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer(4 * 8 * 4)
        sbuf = pld.alloc_window_buffer(16)
        data = pld.window(buf, [4, 8], dtype=pl.FP32)
        sig = pld.window(sbuf, [4, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.stage(x[r], data, device=r)
        data = pld.tensor.reduce_scatter(data, sig)
        for r in pl.range(pld.world_size()):
            self.unstage(data, r, y[r], device=r)


def test_reduce_scatter_with_a_staged_dim_runs_after_the_pipeline():
    x = (np.arange(4 * 4 * 8) % 13).astype(np.float32).reshape(4, 4, 8)
    low = pypto.ir.run_passes(Staged, "default")
    assert "pl.system.cacheinvalid(data, [STAGED, 8], [0, 0])" in pypto.ir.python_print(low)
    want = x.sum(axis=0)[:, None, :]
    for prog in (Staged, low):
        out = pypto.sim.run(prog, ranks=4, inputs={"x": x}, check_signals=True,
                            check_alignment=True)
        np.testing.assert_array_equal(out["y"], want)


@pl.program
class Unbound:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 8], pl.FP32],
          y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        n: pl.Scalar[pl.INDEX] = M + 1  # MARK-unbound
        return pl.store(t, [0, 0], y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.k(x, y, device=0)


def test_unbound_dim_is_reported_at_the_users_statement():
    with pytest.raises(pypto.SimError) as info:
        pypto.sim.run(Unbound, ranks=1, inputs={"x": np.zeros((4, 8), np.float32)})
    msg = str(info.value)
    assert msg.startswith(f"{__file__}:{_line('# MARK-unbound')}:9: error: use of variable 'M' "
                          "(declared at "), msg
    assert "that has no value at run time" in msg
