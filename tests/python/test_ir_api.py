"""pypto.ir / pypto._core API: parse (filename, allow_internal_ops, constants,
line_offset), print, verify, structural equality, the exception hierarchy and
its structured diagnostics, pass pipelines and PTO emission."""

import pytest

import pypto
import pypto.ir as ir
import pypto.language as pl

KERNEL = '''\
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class K:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.FP32] = pl.tile.load(a, [0, 0], [16, 64])
        pl.tile.store(t, [0, 0], out)
'''

BAD_OP = '''\
@pl.program
class A:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16], pl.FP32]):
        x = pl.tile.nope(a)
'''

HOST_BUILTIN = '''\
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class H:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[4, 16, 64], pl.FP32]):
        buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
        data: pld.DistributedTensor[[16, 64], pl.FP32] = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        out: pld.DistributedTensor[[16, 64], pl.FP32] = pl.builtin.tensor.allreduce(data)
'''


def test_exception_hierarchy():
    for e in (pypto.ParseError, pypto.VerifyError, pypto.PassError, pypto.EmitError,
              pypto.SimError):
        assert issubclass(e, pypto.PyptoError)
    assert issubclass(pypto.PyptoError, Exception)
    assert pypto.ParseError is pypto._core.ParseError


def test_parse_print_round_trip():
    p = ir.parse(KERNEL, "k.pir")
    assert isinstance(p, pypto.Program) and repr(p) == "<pypto.Program 'K' with 1 functions>"
    text = ir.python_print(p)
    assert text == "# pypto.program: K\n" + KERNEL
    q = pl.parse(text)
    assert ir.structural_equal(p, q) and ir.structural_diff(p, q) is None
    assert p.function_text("k") == "\n".join(
        line[4:] for line in KERNEL.split("\n")[6:]) .rstrip("\n") + "\n"
    with pytest.raises(KeyError, match="no function named 'zz'"):
        p.function_text("zz")


def test_structural_diff_names_the_difference():
    p = ir.parse(KERNEL)
    q = ir.parse(KERNEL.replace("pl.FP32", "pl.FP16"))
    assert not ir.structural_equal(p, q)
    assert ir.structural_diff(p, q)
    with pytest.raises(AssertionError, match="programs differ structurally"):
        ir.assert_structural_equal(p, q)


def test_parse_error_message_and_diagnostics():
    with pytest.raises(pypto.ParseError) as info:
        ir.parse(BAD_OP, "a.pir")
    assert str(info.value) == (
        "a.pir:5:13: error: unknown op 'pl.tile.nope'; did you mean 'pl.tile.move'?\n"
        "        x = pl.tile.nope(a)\n"
        "            ^~")
    d = info.value.diagnostics
    assert [(x["file"], x["line"], x["col"], x["severity"]) for x in d] == \
        [("a.pir", 5, 13, "error")]


def test_line_offset_shifts_reported_lines():
    with pytest.raises(pypto.ParseError) as info:
        pypto._core.parse(BAD_OP, filename="user.py", line_offset=100)
    assert str(info.value).startswith("user.py:105:13: error: unknown op 'pl.tile.nope'")
    assert str(info.value).split("\n")[1] == "        x = pl.tile.nope(a)"


def test_constants_option():
    text = KERNEL.replace("[16, 64], pl.FP32]", "[R, C], pl.FP32]")
    p = pypto._core.parse(text, constants={"R": 16, "C": 64})
    assert ir.structural_equal(p, ir.parse(KERNEL))
    p2 = pypto._core.parse(text, constants=[("R", 16), ("C", 64)])
    assert ir.structural_equal(p, p2)
    with pytest.raises(TypeError, match="constant values must be"):
        pypto._core.parse(text, constants={"R": object()})


def test_internal_ops_only_when_allowed():
    with pytest.raises(pypto.ParseError) as info:
        ir.parse(HOST_BUILTIN, "b.pir", allow_internal_ops=False)
    assert str(info.value).startswith(
        "b.pir:11:57: error: pl.builtin.tensor.allreduce is internal compiler output and "
        "cannot be written in user code")
    with pytest.raises(pypto.ParseError) as info:  # allowed, but this call is malformed
        ir.parse(HOST_BUILTIN, "b.pir")
    assert "builtin.tensor.allreduce: expected 2 positional arguments (src, signal), got 1" in \
        str(info.value)


def test_verify_and_target_arch():
    p = ir.parse(KERNEL)
    assert ir.verify(p) is None
    assert p.target_arch == "a2a3"
    p.target_arch = "a5"
    assert p.target_arch == "a5"
    with pytest.raises(ValueError, match="target_arch must be"):
        p.target_arch = "x86"
    with pytest.raises(ValueError, match="target_arch must be"):
        ir.parse(KERNEL, target_arch="gpu")


def test_program_introspection():
    p = ir.parse(KERNEL)
    (f,) = p.functions
    assert f["name"] == "k" and f["type"] == "pl.FunctionType.InCore" and f["is_kernel"]
    assert [(x["name"], x["type"], x["direction"]) for x in f["params"]] == [
        ("a", "pl.Tensor[[16, 64], pl.FP32]", "In"),
        ("out", "pl.Tensor[[16, 64], pl.FP32]", "Out")]


def test_run_passes_and_emit_pto():
    p = ir.parse(KERNEL, "k.pir")
    assert "default" in ir.pipeline_names()
    assert ir.pass_names(implemented_only=True) == ir.pass_names()
    assert ir.pass_names()[0] == "outline-incore-scopes"
    lowered = ir.run_passes(p, "default")
    assert "not implemented" not in lowered.pass_log
    assert isinstance(lowered, pypto.Program)
    ir.verify(lowered)
    mods = ir.emit_pto(lowered)
    assert list(mods) == ["k"]
    assert mods["k"].startswith('module attributes {pto.target_arch = "a2a3"} {')
    assert "pto.tload" in mods["k"] and "pto.tstore" in mods["k"]
    assert ir.emit_pto(lowered) == mods  # deterministic


def test_run_passes_options():
    p = ir.parse(KERNEL)
    out = ir.run_passes(p, "convert-to-ssa,simplify", verify_each=True, roundtrip_each=True,
                        print_after=["simplify"])
    assert "@pl.program" in out.pass_log
    assert ir.structural_equal(ir.parse(ir.python_print(out)), out)


def test_run_passes_unknown_pass_is_a_pass_error():
    p = ir.parse(KERNEL)
    with pytest.raises(pypto.PassError) as info:
        ir.run_passes(p, "no-such-pass")
    assert "unknown pass or pipeline 'no-such-pass'; valid pipelines: default" in str(info.value)


def test_emit_before_lowering_names_the_op():
    text = KERNEL.replace(
        "        t: pl.Tile[[16, 64], pl.FP32] = pl.tile.load(a, [0, 0], [16, 64])\n"
        "        pl.tile.store(t, [0, 0], out)\n",
        "        s: pl.Tensor[[16, 64], pl.FP32] = pl.tensor.add(a, a)\n")
    p = ir.parse(text, "e.pir")
    with pytest.raises(pypto.EmitError) as info:
        ir.emit_pto(p)
    lines = str(info.value).split("\n")
    assert lines[0] == "e.pir:9:43: error: tensor.add: not supported by the PTO backend"
    assert lines[3].startswith("e.pir:9:43: note: tensor-level op: lower it to tile ops")


def test_concurrent_pipelines_on_one_context():
    # Handles derived from one parse share a context; the bindings serialise work
    # that builds in it, so Python threads can run passes side by side.
    import threading
    p = ir.parse(KERNEL)
    results, errors = [], []

    def work():
        try:
            for _ in range(5):
                results.append(ir.python_print(ir.run_passes(p, "default")))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(results) == 20 and len(set(results)) == 1
