"""pypto.runtime: upstream-shaped programs run with only their imports changed
(`import numpy as torch` stands in for torch, which is not installed here; the
tensor calls these programs make exist under the same names in numpy),
a SubWorker combining two chip results, a persistent three-call run whose
windows carry state, unknown-option errors and a SubWorker's exception with
its traceback. Expected values are closed forms computed with numpy from the
inputs."""

import traceback

import numpy as np
import pytest

import numpy as torch  # noqa: F401  (the upstream programs' `torch` calls)
import pypto
import pypto.language as pl
import pypto.language.distributed as pld
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import RunConfig

ROWS, COLS = 16, 32
N_RANKS = 4


@pl.program
class TwoChipCombine:
    """Upstream L3 shape: two chip tasks on two devices (a+b, a-b), then a host
    SubWorker combines their results."""

    @pl.function(type=pl.FunctionType.InCore)
    def tile_add(self, a: pl.Tensor[[ROWS, COLS], pl.FP32], b: pl.Tensor[[ROWS, COLS], pl.FP32],
                 f: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        tb = pl.load(b, [0, 0], [ROWS, COLS])
        out = pl.store(pl.add(ta, tb), [0, 0], f)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def tile_sub(self, a: pl.Tensor[[ROWS, COLS], pl.FP32], b: pl.Tensor[[ROWS, COLS], pl.FP32],
                 f: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        ta = pl.load(a, [0, 0], [ROWS, COLS])
        tb = pl.load(b, [0, 0], [ROWS, COLS])
        out = pl.store(pl.sub(ta, tb), [0, 0], f)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_add(self, a: pl.Tensor[[ROWS, COLS], pl.FP32], b: pl.Tensor[[ROWS, COLS], pl.FP32],
                 f: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        out = self.tile_add(a, b, f)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_sub(self, a: pl.Tensor[[ROWS, COLS], pl.FP32], b: pl.Tensor[[ROWS, COLS], pl.FP32],
                 f: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        out = self.tile_sub(a, b, f)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def combine(total: pl.Tensor[[ROWS, COLS], pl.FP32], diff: pl.Tensor[[ROWS, COLS], pl.FP32],
                f: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        # Host Python, not DSL: any library call, control flow or raise works here.
        if total.shape != (ROWS, COLS):
            raise ValueError(f"unexpected shape {total.shape}")
        f[:] = torch.maximum(total, diff) * 2.0 + 1.0
        return f

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, a: pl.Tensor[[ROWS, COLS], pl.FP32], b: pl.Tensor[[ROWS, COLS], pl.FP32],
                  f: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        total = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
        diff = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
        s = self.chip_add(a, b, total, device=0)
        d = self.chip_sub(a, b, diff, device=1)
        out = self.combine(s, d, f)
        return out


def _ab():
    a = np.arange(ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS) - 100.0
    b = (np.arange(ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS) % 7) - 3.0
    return a, b


def _combine_oracle(a, b):
    # max(a+b, a-b) = a + |b|
    return (a + np.abs(b)) * 2.0 + 1.0


def test_subworker_combines_two_chip_results_in_place():
    compiled = ir.compile(TwoChipCombine, platform="a2a3sim",
                          distributed_config=DistributedConfig(device_ids=[0, 1],
                                                               num_sub_workers=1))
    a, b = _ab()
    f = np.zeros((ROWS, COLS), dtype=np.float32)
    assert compiled(a, b, f) is None
    np.testing.assert_array_equal(f, _combine_oracle(a, b))


def test_return_style_and_array_likes():
    compiled = ir.compile(TwoChipCombine, platform="a2a3sim",
                          distributed_config=DistributedConfig(device_ids=[0, 1]))
    a, b = _ab()
    f = compiled(a.tolist(), b)  # a list (numpy.asarray-able) in, the Out returned
    assert isinstance(f, np.ndarray) and f.dtype == np.float32
    np.testing.assert_array_equal(f, _combine_oracle(a, b))


def test_subworker_overrides_replace_the_python_function():
    compiled = ir.compile(TwoChipCombine, platform="a2a3sim",
                          distributed_config=DistributedConfig(device_ids=[0, 1]))
    seen = []

    def combine(total, diff, f):
        seen.append((total.copy(), diff.copy()))
        f[:] = total - diff
        return f

    a, b = _ab()
    with compiled.prepare(sub_worker_overrides={"combine": combine}) as rt:
        f = rt(a, b)
    np.testing.assert_array_equal(seen[0][0], a + b)
    np.testing.assert_array_equal(seen[0][1], a - b)
    np.testing.assert_array_equal(f, 2 * b)
    with pytest.raises(pypto.ArgumentError) as e:
        compiled.prepare(sub_worker_overrides={"nope": combine})
    assert str(e.value) == (
        "pypto.runtime.CompiledProgram.prepare: sub_worker_overrides names 'nope', which are not "
        "sub-workers of program 'TwoChipCombine' (its HOST SubWorker functions: combine)")


@pl.program
class CarryAcrossCalls:
    """Each call adds x into a window and reports the window: with persistent
    windows that are not reset the window is a running sum across calls."""

    @pl.function(type=pl.FunctionType.InCore)
    def accumulate(self, x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
                   acc: pld.DistributedTensor[[1, COLS], pl.FP32]) -> pl.Tensor[[1, COLS], pl.FP32]:
        total = pl.add(pl.load(x, [0, 0], [1, COLS]), pl.load(acc, [0, 0], [1, COLS]))
        acc = pl.store(total, [0, 0], acc)
        y = pl.store(total, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
             acc: pld.DistributedTensor[[1, COLS], pl.FP32]) -> pl.Tensor[[1, COLS], pl.FP32]:
        y = self.accumulate(x, y, acc)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[N_RANKS, 1, COLS], pl.FP32],
                  y: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]]):
        acc_buf = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            acc = pld.window(acc_buf, [1, COLS], dtype=pl.FP32)
            self.chip(x[r], y[r], acc, device=r)


def _x(call):
    r = np.arange(N_RANKS, dtype=np.float32).reshape(N_RANKS, 1, 1)
    i = np.arange(COLS, dtype=np.float32).reshape(1, 1, COLS)
    return (call * 10 + r * 1000 + i).astype(np.float32)


@pytest.fixture(scope="module")
def carry():
    return ir.compile(CarryAcrossCalls, platform="a2a3sim",
                      distributed_config=DistributedConfig(device_ids=[0, 1, 2, 3]))


def test_persistent_windows_carry_state_over_three_calls(carry):
    with carry.prepare(persistent=True, reset_persistent_windows=False) as rt:
        for call in (1, 2, 3):
            y = np.zeros((N_RANKS, 1, COLS), dtype=np.float32)
            rt(_x(call), y)
            np.testing.assert_array_equal(y, sum(_x(k) for k in range(1, call + 1)))
        assert rt.calls == 3
        rt.reset_persistent_windows()
        y = np.zeros((N_RANKS, 1, COLS), dtype=np.float32)
        rt(_x(4), y)
        np.testing.assert_array_equal(y, _x(4))


def test_persistent_windows_reset_between_calls_by_default(carry):
    with carry.prepare(persistent=True) as rt:
        for call in (1, 2, 3):
            y = rt(_x(call))
            np.testing.assert_array_equal(y, _x(call))


def test_without_prepare_every_call_starts_from_zeroed_windows(carry):
    for call in (1, 2):
        np.testing.assert_array_equal(carry(_x(call)), _x(call))


def test_our_options_are_keywords(carry):
    y = carry(_x(1), schedule="random:7", detect_races=True, check_signals=True)
    np.testing.assert_array_equal(y, _x(1))
    cfg = RunConfig(platform="a2a3sim", schedule="random:3",
                    distributed_config=DistributedConfig(device_ids=[0, 1, 2, 3]))
    compiled = pypto.runtime.compile(CarryAcrossCalls, cfg)
    np.testing.assert_array_equal(compiled(_x(2)), _x(2))


def test_timeline_of_a_call_and_of_a_persistent_call(carry, tmp_path):
    page = tmp_path / "call.html"
    np.testing.assert_array_equal(carry(_x(1), schedule="random:4", timeline=str(page)), _x(1))
    doc = page.read_text()
    assert "<title>pypto-run timeline: CarryAcrossCalls</title>" in doc
    # one task bar per rank (the chip function dispatched to each of the 4 ranks)
    assert doc.count('<rect class="bar task"') == N_RANKS
    with carry.prepare(persistent=True) as rt:
        rt(_x(2), timeline=str(tmp_path / "p.html"))
    assert (tmp_path / "p.html").read_text().count('<rect class="bar task"') == N_RANKS


def test_unknown_options_are_errors_naming_them(carry):
    with pytest.raises(pypto.ArgumentError) as e:
        RunConfig(platform="a2a3sim", shedule="random:1")
    assert str(e.value).startswith("pypto.runtime.RunConfig: unknown option 'shedule'; valid "
                                   "options: platform, device_id, rtol, atol, ")
    assert "schedule, detect_races" in str(e.value)
    with pytest.raises(pypto.ArgumentError) as e:
        DistributedConfig(device_ids=[0, 1], num_subworkers=1)
    assert str(e.value) == ("pypto.runtime.DistributedConfig: unknown option 'num_subworkers'; "
                            "valid options: device_ids, num_sub_workers, block_dim, "
                            "aicpu_thread_num")
    with pytest.raises(pypto.ArgumentError) as e:
        carry(_x(1), detect_race=True)
    assert str(e.value) == ("pypto.runtime: compiled(...): unknown option 'detect_race'; valid "
                            "options: schedule, detect_races, check_signals, poison_nan, "
                            "deadline_s, stats, trace_path, memory_limit, timeline")
    with pytest.raises(pypto.ArgumentError) as e:
        ir.compile(CarryAcrossCalls, platform="a2a3sim", distributed_config=None, optimize=2)
    assert str(e.value).startswith("pypto.runtime.compile: unknown option 'optimize'; ")
    with pytest.raises(pypto.ArgumentError) as e:
        RunConfig(platform="a3")
    assert str(e.value) == ("pypto.runtime.RunConfig: invalid platform 'a3'; expected one of "
                            "a2a3sim, a2a3, a5sim, a5")


def test_distributed_config_checks_device_ids():
    with pytest.raises(pypto.ArgumentError) as e:
        DistributedConfig(device_ids=[0, 1, 1])
    assert str(e.value) == ("pypto.runtime.DistributedConfig: device ids must be distinct; 1 "
                            "appear more than once")
    with pytest.raises(pypto.ArgumentError) as e:
        DistributedConfig(device_ids=[])
    assert "'device_ids' is empty" in str(e.value)
    with pytest.raises(pypto.ArgumentError) as e:
        DistributedConfig(device_ids=[0, -2])
    assert str(e.value) == ("pypto.runtime.DistributedConfig: device id -2 must be a "
                            "non-negative int")


def test_wrong_argument_count_is_an_error(carry):
    with pytest.raises(pypto.ArgumentError) as e:
        carry()
    assert str(e.value) == ("pypto.runtime: compiled(...): missing argument(s) 'x' of "
                            "'host_orch' (x, y); only trailing Out parameters may be left off "
                            "(they are returned)")


class SubWorkerFailure(Exception):
    pass


@pl.program
class FailingCheck:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, a: pl.Tensor[[1, COLS], pl.FP32],
               f: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
        t = pl.load(a, [0, 0], [1, COLS])
        out = pl.store(pl.add(t, t), [0, 0], f)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def verify(f: pl.Tensor[[1, COLS], pl.FP32]):
        if f[0, 0] != 0.0:
            raise SubWorkerFailure(f"verify failed: f[0, 0] = {f[0, 0]}")

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, a: pl.Tensor[[1, COLS], pl.FP32],
                  f: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
        out = self.double(a, f, device=0)
        self.verify(out)
        return out


def test_subworker_exception_surfaces_with_its_traceback():
    compiled = ir.compile(FailingCheck, platform="a2a3sim",
                          distributed_config=DistributedConfig(device_ids=[0]))
    a = np.full((1, COLS), 3.0, dtype=np.float32)
    with pytest.raises(SubWorkerFailure) as e:
        compiled(a)
    assert str(e.value) == "verify failed: f[0, 0] = 6.0"
    frames = traceback.extract_tb(e.tb)
    assert any(fr.name == "verify" and fr.filename == __file__ and
               "raise SubWorkerFailure" in fr.line for fr in frames)
    notes = getattr(e.value, "__notes__", [])
    assert any("SubWorker 'verify' raised SubWorkerFailure: verify failed" in n for n in notes)
    # The run stays usable: a passing input runs cleanly afterwards.
    np.testing.assert_array_equal(compiled(np.zeros((1, COLS), np.float32)),
                                  np.zeros((1, COLS), np.float32))


def test_pypto_sim_run_calls_subworkers_too():
    a, b = _ab()
    out = pypto.sim.run(TwoChipCombine, 2, {"a": a, "b": b})
    np.testing.assert_array_equal(out["f"], _combine_oracle(a, b))


def test_subworker_body_is_python_not_ir():
    text = ir.python_print(TwoChipCombine)
    assert ("    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n"
            "    def combine(self, total: pl.Tensor[[16, 32], pl.FP32], diff: pl.Tensor[[16, 32], "
            "pl.FP32], f: pl.Out[pl.Tensor[[16, 32], pl.FP32]]) -> pl.Tensor[[16, 32], pl.FP32]:\n"
            "        ...\n") in text
    assert ir.structural_equal(ir.parse(text), TwoChipCombine)


def test_ir_subworker_with_a_body_is_rejected():
    with pytest.raises(pypto.VerifyError) as e:
        ir.parse("import pypto.language as pl\n\n@pl.program\nclass P:\n"
                 "    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n"
                 "    def s(x: pl.Tensor[[4], pl.FP32]):\n"
                 "        y = pl.tensor.create([4], dtype=pl.FP32)\n")
    assert "HOST SubWorker function 's' has an IR body" in str(e.value)


def test_torch_inputs_and_outputs_when_torch_is_installed():
    real_torch = pytest.importorskip("torch")
    compiled = ir.compile(TwoChipCombine, platform="a2a3sim",
                          distributed_config=DistributedConfig(device_ids=[0, 1]))
    kinds = []

    def combine(total, diff, f):  # torch code, as upstream's SubWorkers are
        kinds.append(type(total))
        f.copy_(real_torch.maximum(total, diff) * 2.0 + 1.0)
        return f

    a, b = _ab()
    f = real_torch.zeros((ROWS, COLS), dtype=real_torch.float32)
    with compiled.prepare(sub_worker_overrides={"combine": combine}) as rt:
        rt(real_torch.from_numpy(a), real_torch.from_numpy(b), f)
        out = rt(real_torch.from_numpy(a), real_torch.from_numpy(b))
    np.testing.assert_array_equal(f.numpy(), _combine_oracle(a, b))
    assert isinstance(out, real_torch.Tensor)
    np.testing.assert_array_equal(out.numpy(), _combine_oracle(a, b))
    assert kinds == [real_torch.Tensor, real_torch.Tensor]


_SUB_HEADER = ("import pypto.language as pl\n\n@pl.program\nclass P:\n"
               "    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)\n"
               "    def s(x: pl.Tensor[[4], pl.FP32]):\n"
               "        ...\n\n")


def test_subworker_call_with_device_is_rejected():
    text = _SUB_HEADER + (
        "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
        "    def host_orch(self, x: pl.Tensor[[4], pl.FP32]):\n"
        "        self.s(x, device=0)\n")
    with pytest.raises(pypto.VerifyError) as e:
        ir.parse(text, "sub.pir")
    assert str(e.value).splitlines()[0] == (
        "sub.pir:11:9: error: self.s: 's' is a HOST SubWorker and runs on the host; drop device= "
        "(only chip orchestration functions are dispatched to a device)")


def test_subworker_called_from_device_code_is_rejected():
    text = _SUB_HEADER + (
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def chip(self, x: pl.Tensor[[4], pl.FP32]):\n"
        "        self.s(x)\n")
    with pytest.raises(pypto.VerifyError) as e:
        ir.parse(text, "sub.pir")
    assert str(e.value).splitlines()[0] == (
        "sub.pir:11:9: error: self.s: 's' is a HOST SubWorker (host Python); only the host "
        "orchestrator calls it, but it is called from orchestration function 'chip' "
        "(Orchestration)")


def test_ellipsis_body_is_only_for_subworkers():
    text = ("import pypto.language as pl\n\n@pl.program\nclass P:\n"
            "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
            "    def host_orch(self, x: pl.Tensor[[4], pl.FP32]):\n"
            "        ...\n")
    with pytest.raises(pypto.ParseError) as e:
        ir.parse(text, "e.pir")
    assert str(e.value).splitlines()[0] == (
        "e.pir:7:9: error: this statement has no effect; expected a call or an assignment")


_LOOP_ALLOC = '''import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class L:
    @pl.function(type=pl.FunctionType.InCore)
    def add_into(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]], acc: pld.DistributedTensor[[1, 8], pl.FP32]) -> pl.Tensor[[1, 8], pl.FP32]:
        s = pl.add(pl.load(x, [0, 0], [1, 8]), pl.load(acc, [0, 0], [1, 8]))
        acc2 = pl.store(s, [0, 0], acc)
        y2 = pl.store(s, [0, 0], y)
        return y2

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]):
        for i in pl.range(2):
            buf = pld.alloc_window_buffer([1, 8], dtype=pl.FP32)
            for r in pl.range(pld.world_size()):
                acc = pld.window(buf, [1, 8], dtype=pl.FP32)
                self.add_into(x[r], y[r], acc, device=r)
'''


def test_an_allocation_site_in_a_loop_keeps_one_window_per_iteration():
    # Two windows from one site per call. Were the second iteration handed the
    # first's window, call 1 would already report 2; per-iteration windows
    # persisting across calls give k after call k.
    compiled = pypto.runtime.compile(ir.parse(_LOOP_ALLOC, "loop.pir"), pipeline=None,
                                     distributed_config=DistributedConfig(device_ids=[0, 1]))
    x = np.ones((2, 1, 8), np.float32)
    with compiled.prepare(persistent=True, reset_persistent_windows=False) as rt:
        for k in (1, 2, 3):
            np.testing.assert_array_equal(rt(x), np.full((2, 1, 8), float(k), np.float32))


@pl.jit.incore
def jit_double(x: pl.Tensor[[1, COLS], pl.FP32],
               y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
    t = pl.load(x, [0, 0], [1, COLS])
    y = pl.store(pl.add(t, t), [0, 0], y)
    return y


@pl.jit
def jit_chip(x: pl.Tensor[[1, COLS], pl.FP32],
             y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]) -> pl.Tensor[[1, COLS], pl.FP32]:
    return jit_double(x, y)


@pl.jit.host
def jit_host(x: pl.Tensor[[N_RANKS, 1, COLS], pl.FP32],
             y: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        jit_chip(x[r], y[r], device=r)


def test_jit_host_compile_with_a_run_config_is_callable():
    # Upstream's jit form: program.compile(x, y, config=cfg); compiled(x, y, config=cfg).
    cfg = RunConfig(platform="a2a3sim",
                    distributed_config=DistributedConfig(device_ids=[0, 1, 2, 3]))
    x = _x(5)
    y = np.zeros_like(x)
    compiled = jit_host.compile(x, y, config=cfg)
    compiled(x, y, config=cfg)
    np.testing.assert_array_equal(y, 2 * x)
    assert ir.structural_equal(jit_host.compile("default"), ir.run_passes(jit_host.program))
