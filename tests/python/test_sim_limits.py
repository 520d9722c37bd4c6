"""pypto.sim.run as a hostile caller uses it: the program is verified first,
input names and byte orders are checked, ranks and memory are bounded, windows
cost only the pages a run touches, Ctrl-C stops a run, and bad arguments of
pypto.ir / pypto.sim raise pypto.ArgumentError with a clear message."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import pypto
import pypto.ir
import pypto.sim

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

# Rank r copies x[r] into y[r] through a window (one put to itself) so a run
# touches a window; WINDOW_BYTES is the size of that window's buffer.
COPY = """import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Copy:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(dst)
        me = pld.rank(ctx)
        pld.tensor.put(dst, me, src, atomic=pld.AtomicType.None_)
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(dst, [0, 0], [4, 8])
        o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.kernel(src, dst, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(WINDOW_BYTES)
        data = pld.tensor.window(buf, [4, 8], dtype=pl.FP32)
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], data, y[r], device=r)
"""


def _copy(window_bytes=128):
    return pypto.ir.parse(COPY.replace("WINDOW_BYTES", str(window_bytes)), "copy.pir")


def _x(ranks=2, dtype=np.float32):
    return (np.arange(ranks * 32) % 97 - 48).astype(dtype).reshape(ranks, 4, 8)


def test_a_program_the_verifier_rejects_does_not_run():
    # The kernel's output is [4, 16]; the call passes [4, 8].
    kernel = ("def kernel(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.InOut[pld."
              "DistributedTensor[[4, 8], pl.FP32]], out: pl.Out[pl.Tensor[[4, 8]")
    assert kernel in COPY
    text = COPY.replace("WINDOW_BYTES", "128").replace(kernel, kernel[:-3] + "16]")
    prog = pypto.ir.parse(text, "bad.pir", verify=False)
    with pytest.raises(pypto.VerifyError) as info:
        pypto.sim.run(prog, ranks=2, inputs={"x": _x()})
    assert info.value.exit_code == 1
    line = text.splitlines().index("        self.kernel(src, dst, out)") + 1
    assert str(info.value).startswith(
        f"bad.pir:{line}:9: error: self.kernel: argument 2 has type pl.Tensor[[4, 8], pl.FP32] "
        "but parameter 'out' is pl.Tensor[[4, 16], pl.FP32]\n")


def test_an_input_that_is_no_parameter_is_an_error():
    with pytest.raises(pypto.SimError) as info:
        pypto.sim.run(_copy(), ranks=2, inputs={"x": _x(), "xx": _x()})
    assert info.value.exit_code == 1
    assert str(info.value) == ("error: input 'xx' is not a parameter of entry 'host_orch'; "
                               "its parameters are: x, y")


def test_big_endian_inputs_are_byte_swapped_not_misread():
    x = _x()
    big = x.astype(">f4")
    assert big.tobytes() != x.tobytes()
    out = pypto.sim.run(_copy(), ranks=2, inputs={"x": big})
    assert out["y"].dtype == np.float32
    assert out["y"].tobytes() == x.tobytes()


@pytest.mark.parametrize("ranks,message", [
    (0, "pypto.sim.run: ranks=0 is out of range (1 .. 1024)"),
    (1025, "pypto.sim.run: ranks=1025 is out of range (1 .. 1024)"),
    (2**70, f"pypto.sim.run: ranks={2**70} is out of range (1 .. 1024)"),
    ("2", "pypto.sim.run: 'ranks' must be an int, got str '2'"),
])
def test_ranks_are_bounded_like_the_cli(ranks, message):
    assert pypto.sim.MAX_RANKS == 1024
    with pytest.raises(pypto.ArgumentError) as info:
        pypto.sim.run(_copy(), ranks=ranks, inputs={"x": _x()})
    assert str(info.value) == message


def test_memory_estimate_above_the_limit_is_refused_up_front():
    prog = _copy(window_bytes=64 << 20)
    with pytest.raises(pypto.SimError) as info:
        pypto.sim.run(prog, ranks=2, inputs={"x": _x()}, memory_limit="100M")
    assert info.value.exit_code == 1
    assert str(info.value).startswith(
        "error: this run needs an estimated 128.0 MiB (134218240 bytes) (windows 128.0 MiB "
        "(134217728 bytes) on 2 ranks, host tensors 512 bytes) before it starts; the memory "
        "limit is 100.0 MiB (104857600 bytes); raise it with --memory-limit=BYTES")
    out = pypto.sim.run(prog, ranks=2, inputs={"x": _x()}, memory_limit=200 << 20)
    assert out["y"].tobytes() == _x().tobytes()
    with pytest.raises(pypto.ArgumentError) as info:
        pypto.sim.run(prog, ranks=2, inputs={"x": _x()}, memory_limit="lots")
    assert str(info.value) == ("bad byte size 'lots'; expected digits with an optional K, M, G "
                               "or T suffix (binary), or 'none'")


def _child(script, timeout=120):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "bindings"))
    return subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=timeout)


def test_a_4_gib_window_costs_only_the_pages_touched():
    # 2 ranks x 4 GiB of window, of which the run touches one [4, 8] view; the
    # peak RSS of the child stays far below one GiB (eager zeroing: 8 GiB).
    res = _child(f"""
import resource
import numpy as np
import pypto.ir, pypto.sim
text = {COPY!r}.replace("WINDOW_BYTES", str(4 << 30))
x = (np.arange(64) % 97 - 48).astype(np.float32).reshape(2, 4, 8)
out = pypto.sim.run(pypto.ir.parse(text), ranks=2, inputs={{"x": x}})
assert out["y"].tobytes() == x.tobytes()
print("maxrss_kib", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
""")
    assert res.returncode == 0, res.stderr
    rss_kib = int(res.stdout.split()[-1])
    print(f"peak RSS with 2 x 4 GiB windows: {rss_kib / 1024:.1f} MiB")
    assert rss_kib < 512 * 1024


ENDLESS = """import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Spin:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        for i in pl.range(4611686018427387904):
            t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [4, 8])
            o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.kernel(src, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], y[r], device=r)
"""


@pytest.mark.parametrize("schedule", ["parallel", "random:3"])
def test_ctrl_c_interrupts_an_endless_run(schedule):
    # Threads are counted before and after the run (numpy's BLAS may own some).
    script = f"""
import sys
import numpy as np
import pypto.ir, pypto.sim


def threads():
    with open("/proc/self/status") as f:
        return next(l.split()[1] for l in f if l.startswith("Threads:"))


prog = pypto.ir.parse({ENDLESS!r})
before = threads()
print("running", flush=True)
try:
    pypto.sim.run(prog, ranks=2, inputs={{"x": np.zeros((2, 4, 8), np.float32)}},
                  schedule={schedule!r})
except KeyboardInterrupt:
    print("KeyboardInterrupt; threads left:", threads(), "of", before, flush=True)
    sys.exit(0)
print("the run finished")
"""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "bindings"))
    child = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "running\n"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        # A bound, not a measurement: the run must wind down by itself.
        out, err = child.communicate(timeout=60)
        print(f"exited {time.monotonic() - sent:.2f} s after SIGINT")
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err
    words = out.split()
    assert out.startswith("KeyboardInterrupt; threads left: "), out
    assert words[-3] == words[-1]  # the run's threads are all gone


@pytest.mark.parametrize("call,message", [
    (lambda p: pypto.ir.compile(42),
     "pypto.ir.compile: 'program' must be a pypto.Program (from pypto.ir.parse or "
     "@pl.program), got int 42"),
    (lambda p: pypto.ir.compile(p, "default", verify_eachh=True),
     "pypto.ir.compile: unknown option 'verify_eachh'; valid options: verify_each, "
     "roundtrip_each, print_after, print_after_all, time_passes"),
    (lambda p: pypto.ir.compile(p, 7),
     "pypto.ir.compile: 'pipeline' must be a str, got int 7"),
    (lambda p: pypto.ir.run_passes(p, verify_each="yes"),
     "pypto.ir.run_passes: 'verify_each' must be a bool, got str 'yes'"),
    (lambda p: pypto.ir.run_passes(p, print_after="simplify"),
     "pypto.ir.run_passes: 'print_after' must be a list of pass names (str), got str "
     "'simplify'"),
    (lambda p: pypto.ir.parse(b"text"),
     "pypto.ir.parse: 'text' must be a str, got bytes b'text'"),
    (lambda p: pypto.ir.parse_file(3),
     "pypto.ir.parse_file: 'path' must be a str or path, got int 3"),
    (lambda p: pypto.ir.parse_file("x.pir", verfy=False),
     "pypto.ir.parse_file: unknown option 'verfy'; valid options: verify, allow_internal_ops, "
     "constants, target_arch"),
    (lambda p: pypto.ir.verify("prog"),
     "pypto.ir.verify: 'program' must be a pypto.Program (from pypto.ir.parse or "
     "@pl.program), got str 'prog'"),
    (lambda p: pypto.ir.emit_pto(p, target_arch=5),
     "pypto.ir.emit_pto: 'target_arch' must be a str, got int 5"),
    (lambda p: pypto.ir.structural_equal(p, None),
     "pypto.ir.structural_equal: 'b' must be a pypto.Program (from pypto.ir.parse or "
     "@pl.program), got NoneType None"),
    (lambda p: pypto.ir.python_print([]),
     "pypto.ir.python_print: 'program' must be a pypto.Program (from pypto.ir.parse or "
     "@pl.program), got list []"),
    (lambda p: pypto.sim.run(p, 2, inputs=[1]),
     "pypto.sim.run: 'inputs' must be a dict {parameter name: array}, got list"),
    (lambda p: pypto.sim.run(p, 2, inputs={"x": object()}),
     "run_program: input 'x' has unsupported numpy dtype dtype('O')"),
    (lambda p: pypto.sim.run(p, 2, schedule=1),
     "pypto.sim.run: 'schedule' must be a str, got int 1"),
    (lambda p: pypto.sim.run(p, 2, schedule="sometimes"),
     "run_program: bad --schedule 'sometimes'; expected parallel, random:SEED or "
     "pct:SEED[:DEPTH[:STEPS]] (DEPTH 1..64, default 3; STEPS >= 1, default 64)"),
])
def test_bad_arguments_raise_argument_error(call, message):
    with pytest.raises(pypto.ArgumentError) as info:
        call(_copy())
    assert str(info.value) == message
    # Also what Python itself raises for a bad argument.
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)
    assert isinstance(info.value, pypto.PyptoError)
