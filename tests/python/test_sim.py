"""pypto.sim.run: numpy in and out, both schedules, ranks, and failures raised as
SimError with the executor's report and exit code."""

import numpy as np
import pytest

import pypto
import pypto.language as pl
import pypto.language.distributed as pld
import pypto.sim

NR = pl.dynamic("NR")


@pl.program
class Shift:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 8], pl.FP32],
               inbox: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]],
               signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
               out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(inbox)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        t = pl.load(src, [0, 0], [4, 8])
        pld.remote_store(t, inbox, right, [0, 0])
        pld.system.notify(signal, right, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        r = pl.load(inbox, [0, 0], [4, 8])
        pl.store(r, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32],
             inbox: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]],
             signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
             out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.kernel(src, inbox, signal, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32],
                  y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        b = pld.alloc_window_buffer(4 * 8 * 4)
        s = pld.alloc_window_buffer(4096)
        inbox = pld.window(b, [4, 8], dtype=pl.FP32)
        signal = pld.window(s, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(x[r], inbox, signal, y[r], device=r)


@pytest.mark.parametrize("ranks", [2, 3, 4])
@pytest.mark.parametrize("schedule", ["parallel", "random:1", "random:99", "pct:3", "pct:4:5:16"])
def test_shift_on_p_ranks(ranks, schedule):
    x = np.arange(ranks * 32, dtype=np.float32).reshape(ranks, 4, 8)
    out = pypto.sim.run(Shift, ranks=ranks, inputs={"x": x}, schedule=schedule)
    assert isinstance(out, pypto.sim.RunResult)
    assert set(out) == {"y"}
    assert out["y"].dtype == np.float32 and out["y"].shape == (ranks, 4, 8)
    np.testing.assert_array_equal(out["y"], np.roll(x, 1, axis=0))


def test_stats_report():
    x = np.ones((2, 4, 8), dtype=np.float32)
    out = pypto.sim.run(Shift, ranks=2, inputs={"x": x}, schedule="random:5", stats=True)
    assert out.report  # per-rank statistics


def test_missing_input_is_a_sim_error():
    with pytest.raises(pypto.SimError) as info:
        pypto.sim.run(Shift, ranks=2, inputs={}, schedule="random:1")
    assert info.value.exit_code == 1
    assert str(info.value).startswith(
        "error: input 'x' is missing: expected shape [2, 4, 8] dtype FP32")


def test_bad_schedule_is_a_value_error():
    with pytest.raises(ValueError, match="run_program: "):
        pypto.sim.run(Shift, ranks=2, inputs={}, schedule="sometimes")


def test_pct_trace_is_deterministic(tmp_path):
    x = np.arange(96, dtype=np.float32).reshape(3, 4, 8)
    traces = []
    for k in range(2):
        path = str(tmp_path / ("t%d.json" % k))
        pypto.sim.run(Shift, ranks=3, inputs={"x": x}, schedule="pct:11:2:8", trace_path=path)
        traces.append(open(path, "rb").read())
    assert traces[0] == traces[1] and b"traceEvents" in traces[0]


def test_max_steps_bounds_the_run():
    x = np.ones((2, 4, 8), dtype=np.float32)
    with pytest.raises(pypto.SimError) as info:
        pypto.sim.run(Shift, ranks=2, inputs={"x": x}, schedule="pct:1", max_steps=3)
    assert info.value.exit_code == 1
    assert "error: the run exceeded its step budget (--max-steps 3: loop iterations plus " \
           "schedule switch points, summed over all threads)" in str(info.value)
    with pytest.raises(pypto.ArgumentError, match=r"max_steps=-1 is out of range \(0 \.\. "):
        pypto.sim.run(Shift, ranks=2, inputs={"x": x}, max_steps=-1)


def test_bad_pct_schedule_is_a_value_error():
    with pytest.raises(ValueError, match=r"bad --schedule 'pct:1:99'; expected parallel, "
                       r"random:SEED or pct:SEED\[:DEPTH\[:STEPS\]\] \(DEPTH 1\.\.64"):
        pypto.sim.run(Shift, ranks=2, inputs={}, schedule="pct:1:99")


@pl.program
class Deadlock:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]):
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)  # MARK-dl

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]):
        self.kernel(signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4], pl.FP32]):
        s = pld.alloc_window_buffer(4096)
        signal = pld.window(s, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(signal, device=r)


def test_deadlock_report_names_the_users_line():
    with open(__file__, encoding="utf-8") as f:
        line = next(i for i, s in enumerate(f, 1) if "# MARK-dl" in s and "next(" not in s)
    with pytest.raises(pypto.SimError) as info:
        pypto.sim.run(Deadlock, ranks=2, inputs={"x": np.zeros((2, 4), np.float32)},
                      schedule="random:1")
    assert info.value.exit_code == 3
    msg = str(info.value)
    assert msg.startswith("error: deadlock: no runnable thread remains (random schedule, seed 1)")
    assert (f"rank 0 (thread rank0) blocked in pld.system.wait in function 'kernel' at "
            f"{__file__}:{line}: signal 'signal' (window 's') cell [0, 0] expected >= 1 (Ge), "
            "actual 0") in msg


@pl.program
class HostAllReduce:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[4, 8], pl.FP32],
              data: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]]):
        pl.store(pl.load(x, [0, 0], [4, 8]), [0, 0], data)

    @pl.function(type=pl.FunctionType.InCore)
    def unstage(self, data: pld.DistributedTensor[[4, 8], pl.FP32],
                y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        pl.store(pl.load(data, [0, 0], [4, 8]), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_in(self, x: pl.Tensor[[4, 8], pl.FP32],
                data: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]]):
        self.stage(x, data)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_out(self, data: pld.DistributedTensor[[4, 8], pl.FP32],
                 y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.unstage(data, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32],
                  y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer(4 * 8 * 4)
        data = pld.window(buf, [4, 8], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            self.chip_in(x[r], data, device=r)
        red = pld.tensor.allreduce(data, op=pld.ReduceOp.Max)
        for r in pl.range(pld.world_size()):
            self.chip_out(red, y[r], device=r)


@pytest.mark.parametrize("schedule", ["parallel", "random:2"])
def test_host_allreduce_without_signal(schedule):
    x = np.random.RandomState(0).randint(0, 9, (3, 4, 8)).astype(np.float32)
    out = pypto.sim.run(HostAllReduce, ranks=3, inputs={"x": x}, schedule=schedule)
    np.testing.assert_array_equal(out["y"], np.broadcast_to(x.max(axis=0), x.shape))


@pl.program
class DoubleBF16:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 16], pl.BF16], y: pl.Out[pl.Tensor[[4, 16], pl.BF16]]):
        t = pl.load(x, [0, 0], [4, 16])
        pl.store(pl.add(t, t), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[4, 16], pl.BF16], y: pl.Out[pl.Tensor[[4, 16], pl.BF16]]):
        self.k(x, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 16], pl.BF16],
                  y: pl.Out[pl.Tensor[[NR, 4, 16], pl.BF16]]):
        for r in pl.range(pld.world_size()):
            self.chip(x[r], y[r], device=r)


def test_bf16_through_float_arrays():
    x = (np.arange(2 * 4 * 16) * 0.5).astype(np.float32).reshape(2, 4, 16)
    out = pypto.sim.run(DoubleBF16, ranks=2, inputs={"x": x})
    assert out["y"].dtype == np.float32
    np.testing.assert_array_equal(out["y"], 2 * x)
    # 1 + 2**-9 is not representable in BF16: it rounds to nearest even (1.0).
    x2 = np.full((2, 4, 16), 1 + 2 ** -9, dtype=np.float32)
    np.testing.assert_array_equal(pypto.sim.run(DoubleBF16, ranks=2, inputs={"x": x2})["y"],
                                  np.full((2, 4, 16), 2.0, dtype=np.float32))


@pl.program
class ManualDeferred:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, inp: pl.Tensor[[1, 8], pl.INT32], out: pl.Out[pl.Tensor[[3, 8], pl.INT32]],
             payload: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]],
             sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
             peer: pl.Scalar[pl.INT32], epoch: pl.Scalar[pl.INT32]) -> pl.Tensor[[3, 8], pl.INT32]:
        with pl.manual_scope():
            for row in pl.range(3):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as w:
                    pld.system.defer_wait(sig, [0, 0], epoch, cmp=pld.WaitCmp.Ge)
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="consumer", deps=[w]):
                    got = pl.load(payload, [0, 0], [1, 8])
                    out = pl.store(got, [row, 0], out)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="publisher"):
                mine = pl.load(inp, [0, 0], [1, 8])
                pld.remote_store(mine, payload, peer, [0, 0])
                sent: pl.Scalar[pl.INT32] = pl.read(inp, [0, 0])
                pld.system.notify(sig, peer, [0, 0], sent, op=pld.NotifyOp.Set)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.INT32], y: pl.Out[pl.Tensor[[2, 3, 8], pl.INT32]]):
        pbuf = pld.alloc_window_buffer(32)
        sbuf = pld.alloc_window_buffer(4)
        for r in pl.range(pld.world_size()):
            payload = pld.window(pbuf, [1, 8], dtype=pl.INT32)
            sig = pld.window(sbuf, [1, 1], dtype=pl.INT32)
            self.chip(x[r], y[r], payload, sig, (r + 1) % pld.world_size(), 2, device=r)


@pytest.mark.parametrize("schedule", ["parallel", "random:2"])
def test_manual_scope_deferred_completion(schedule):
    # Waiters (defer_wait) come before the publisher in program order; in the
    # manual scope only deps=[w] orders the consumers, so the run completes.
    text = pypto.ir.python_print(ManualDeferred)
    assert 'with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as w:' in text
    assert 'deps=[w]' in text
    assert pypto.ir.python_print(pypto.ir.parse(text)) == text
    x = np.full((2, 1, 8), 5, np.int32)
    x[1] = 6
    x[:, :, 0] = 2
    want = np.empty((2, 3, 8), np.int32)
    want[0], want[1] = x[1], x[0]
    low = pypto.ir.run_passes(ManualDeferred, "default", verify_each=True, roundtrip_each=True)
    assert 'attrs={"deps": ["w"]}' in pypto.ir.python_print(low)
    for prog in (ManualDeferred, low):
        out = pypto.sim.run(prog, ranks=2, inputs={"x": x}, schedule=schedule, detect_races=True)
        np.testing.assert_array_equal(out["y"], want)
