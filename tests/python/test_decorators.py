"""@pl.program / @pl.function / @pl.jit: the decorated source goes through the C++
parser. Checks the canonical printed text of a class written in canonical form,
DSL -> IR text -> IR round trips (structural_equal), captured module constants and
pl.dynamic symbols, classes nested in functions (dedented source: columns still
name the user's text), jit free functions calling each other by name, and that
every error names this file, the right line and the rule."""

import re

import pytest

import pypto
import pypto.ir as ir
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
ROWS = 16
COLS = 64


@pl.program
class RingExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], signal: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):  # noqa: E501
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])
        for i, (acc,) in pl.range(0, 4, 1, init_values=(t,)):
            nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
            acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
        return


CANONICAL = '''\
# pypto.program: RingExchange
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], signal: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])
        for i, (acc,) in pl.range(0, 4, 1, init_values=(t,)):
            nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
            acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
        return
'''


def _line_of(marker):
    """1-based line of the first line of this file containing `marker`."""
    with open(__file__, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if marker in line and "_line_of(" not in line:
                return i
    raise AssertionError(marker)


def _first_error(exc):
    msg = str(exc)
    m = re.match(r"^(.*?):(\d+):(\d+): error: (.*)$", msg.split("\n")[0])
    assert m, msg
    return m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)


def test_program_is_a_program_named_after_the_class():
    assert isinstance(RingExchange, pypto.Program)
    assert RingExchange.name == "RingExchange"
    assert RingExchange.function_names == ["kernel"]
    assert RingExchange.dynamic_dims == ["NR"]


def _range_form(text):
    # The brief's example spells the loop `pl.range(0, 4, 1, ...)`; the printer
    # currently elides a zero start and unit step. Both are accepted; compare the
    # rest byte for byte.
    return text.replace("pl.range(0, 4, 1, init_values", "pl.range(4, init_values")


def test_canonical_class_prints_byte_identically():
    assert _range_form(ir.python_print(RingExchange)) == _range_form(CANONICAL)
    assert str(RingExchange) == ir.python_print(RingExchange)
    # Printing is a fixed point: print -> parse -> print is byte-identical.
    printed = ir.python_print(RingExchange)
    assert ir.python_print(ir.parse(printed)) == printed


def test_dsl_to_text_to_ir_round_trip():
    again = ir.parse(ir.python_print(RingExchange))
    assert ir.structural_equal(RingExchange, again)
    assert ir.structural_hash(RingExchange) == ir.structural_hash(again)
    assert pl.parse(CANONICAL).name == "RingExchange"
    ir.assert_structural_equal(pl.parse(CANONICAL), RingExchange)


def test_module_constants_are_captured():
    @pl.program
    class UsesConstants:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, a: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):  # noqa: E501
            t = pl.load(a, [0, 0], [ROWS, COLS])
            pl.store(t, [0, 0], out)

    text = ir.python_print(UsesConstants)
    assert "def k(self, a: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):" in text  # noqa: E501
    assert "t: pl.Tile[[16, 64], pl.FP32] = pl.tile.load(a, [0, 0], [16, 64])" in text


def test_local_constants_of_the_defining_function_are_captured():
    width = 32

    @pl.program
    class UsesLocal:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, a: pl.Tensor[[8, width], pl.FP32]):
            return

    assert "a: pl.Tensor[[8, 32], pl.FP32]" in ir.python_print(UsesLocal)


def test_string_and_bool_closure_constants_are_captured():
    # Upstream's factories fold a mode string and flags into the program.
    def build(mode, with_stage):
        @pl.program
        class Reveal:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, d: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]],
                  s: pl.InOut[pld.DistributedTensor[[2, 2], pl.INT32]]):
                if with_stage:
                    d = pld.tensor.allreduce(d, s, op=pld.ReduceOp.Sum, mode=mode)
        return Reveal

    ring = ir.python_print(build("ring", True))
    assert 'op=pld.ReduceOp.Sum, mode="ring")' in ring
    assert 'mode="mesh"' in ir.python_print(build("mesh", True))
    with pytest.raises(pypto.ParseError, match='is "tree"; expected "mesh" or "ring"'):
        build("tree", True)


def test_error_names_user_file_line_and_rule():
    with pytest.raises(pypto.VerifyError) as info:
        @pl.program
        class Bad:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, a: pl.Tensor[[16, 64], pl.FP32]):
                n = pld.world_size()  # MARK-world-size-in-kernel

    file, line, col, rule = _first_error(info.value)
    assert file == __file__
    assert line == _line_of("MARK-world-size-in-kernel")
    src_line = open(__file__).read().split("\n")[line - 1]
    # The class is nested (indented) in this function: the column counts from the
    # start of the user's line, not the dedented text the parser saw.
    assert col == src_line.index("pld.world_size()") + 1
    assert rule.startswith("pld.system.world_size: only allowed in the host orchestrator")
    assert str(info.value).split("\n")[1] == src_line
    assert str(info.value).split("\n")[2] == " " * (col - 1) + "^~~"


def test_parse_error_position_in_nested_class():
    with pytest.raises(pypto.ParseError) as info:
        @pl.program
        class Bad:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, a: pl.Tensor[[16, 64], pl.FP32]):
                pld.system.wait(a, [0, 0])  # MARK-wait-arity

    file, line, col, rule = _first_error(info.value)
    assert (file, line) == (__file__, _line_of("MARK-wait-arity"))
    src_line = open(__file__).read().split("\n")[line - 1]
    assert col == src_line.index("pld.system.wait") + 1
    assert rule == ("pld.system.wait: expected 3 positional arguments (signal, offsets, "
                    "expected), got 2")
    assert len(info.value.diagnostics) >= 1
    assert all(d["file"] == __file__ for d in info.value.diagnostics)


def test_undefined_name_is_reported_at_its_use():
    with pytest.raises(pypto.ParseError) as info:
        @pl.program
        class Bad:
            @pl.function(type=pl.FunctionType.InCore)
            def k(self, a: pl.Tensor[[16, 64], pl.FP32]):
                t = pl.load(a, [0, 0], [16, no_such_name])  # noqa: F821 MARK-undefined

    file, line, col, rule = _first_error(info.value)
    assert (file, line) == (__file__, _line_of("MARK-undefined"))
    assert "no_such_name" in rule


@pl.jit.incore
def jit_kernel(src: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    t = pl.load(src, [0, 0], [16, 64])
    pl.store(t, [0, 0], out)


@pl.jit
def jit_chip(src: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
    jit_kernel(src, out)


@pl.jit.host
def jit_host(x: pl.Tensor[[NR, 16, 64], pl.FP32], y: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        jit_chip(x[r], y[r], device=r)


def test_jit_functions_gather_callees_by_name():
    prog = jit_host.program
    assert isinstance(prog, pypto.Program)
    assert prog.function_names == ["jit_kernel", "jit_chip", "jit_host"]
    kinds = {f["name"]: (f["type"], f["level"], f["role"]) for f in prog.functions}
    assert kinds["jit_kernel"][0] == "pl.FunctionType.InCore"
    assert kinds["jit_chip"][0] == "pl.FunctionType.Orchestration"
    assert kinds["jit_host"][1:] == ("pl.Level.HOST", "pl.Role.Orchestrator")
    # A callee alone is a program of just what it reaches.
    assert jit_kernel.program.function_names == ["jit_kernel"]
    assert jit_host.program is prog  # cached


def test_jit_program_round_trips():
    prog = jit_host.program
    again = ir.parse(ir.python_print(prog))
    assert ir.structural_equal(prog, again)
    assert ir.python_print(again) == ir.python_print(prog)


def test_calling_a_jit_function_from_python_is_an_error():
    with pytest.raises(pl.DSLUsageError, match="jit_kernel: a @pl.jit function is DSL code"):
        jit_kernel(None, None)


def test_source_unavailable_is_a_clear_error():
    ns = {"pl": pl}
    with pytest.raises(TypeError, match=r"@pl.program: cannot read the source of 'X'"):
        exec("@pl.program\nclass X:\n    pass\n", ns)


def test_jit_functions_nested_in_a_function():
    @pl.jit.incore
    def k2(a: pl.Tensor[[8, COLS], pl.FP32], out: pl.Out[pl.Tensor[[8, COLS], pl.FP32]]):
        pl.store(pl.load(a, [0, 0], [8, COLS]), [0, 0], out)

    @pl.jit
    def c2(a: pl.Tensor[[8, COLS], pl.FP32], out: pl.Out[pl.Tensor[[8, COLS], pl.FP32]]):
        k2(a, out)

    prog = c2.program
    assert prog.function_names == ["k2", "c2"]
    assert "def k2(self, a: pl.Tensor[[8, 64], pl.FP32], out: pl.Out[pl.Tensor[[8, 64], pl.FP32]]):" \
        in ir.python_print(prog)


def test_jit_error_names_user_line():
    @pl.jit.incore
    def bad(a: pl.Tensor[[8, 8], pl.FP32]):
        pld.system.notify(a, 0, [0, 0], 1, op=pld.NotifyOp.Set)  # MARK-jit-notify

    with pytest.raises(pypto.ParseError) as info:
        bad.program
    file, line, col, rule = _first_error(info.value)
    assert (file, line) == (__file__, _line_of("MARK-jit-notify"))
    src_line = open(__file__).read().split("\n")[line - 1]
    # The diagnostic points at the offending argument `a`, not at the call.
    assert col == src_line.index("(a, 0,") + 2
    assert rule.startswith("pld.system.notify: argument 'target' must be a pld.DistributedTensor")


def _make_ring_kernel(nr):
    @pl.jit.incore
    def ring_k(signal: pl.InOut[pld.DistributedTensor[[2 * (nr - 1), nr], pl.INT32]]):
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
    return ring_k


def _make_ring_program(nr):
    @pl.program
    class Ring:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, signal: pl.InOut[pld.DistributedTensor[[2 * (nr - 1), nr], pl.INT32]]):
            pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
    return Ring


def test_factories_bind_compile_time_rank_counts():
    # Ring collectives need a constant NR, so upstream builds programs in factory
    # functions: the factory's locals are constants of the program (also after the
    # factory returned, for jit functions compiled lazily).
    k4 = _make_ring_kernel(4)
    assert "signal: pl.InOut[pld.DistributedTensor[[6, 4], pl.INT32]]" in ir.python_print(k4.program)
    assert "signal: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32]]" in \
        ir.python_print(_make_ring_program(3))


def _make_add_step(*, m0, n):
    # A kernel factory, as upstream's STs write them: the closure's m0/n size it.
    @pl.function(type=pl.FunctionType.InCore)
    def add_step(self, a: pl.Tensor[[m0, n], pl.FP32], out: pl.Out[pl.Tensor[[m0, n], pl.FP32]]) -> pl.Tensor[[m0, n], pl.FP32]:  # noqa: E501
        t = pl.load(a, [0, 0], [m0, n])
        t = pl.add(t, t)
        return pl.store(t, [0, 0], out)
    return add_step


def _make_bad_step(*, n):
    @pl.function(type=pl.FunctionType.InCore)
    def bad_step(self, a: pl.Tensor[[1, n], pl.FP32]):
        pld.system.wait(a, [0, 0])  # MARK-factory-wait-arity
    return bad_step


def test_class_attribute_kernel_from_a_factory_becomes_a_method():
    import numpy as np
    import pypto.sim
    m0, n = 2, 8

    @pl.program
    class AttrKernel:
        doubled = _make_add_step(m0=m0, n=n)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, a: pl.Tensor[[m0, n], pl.FP32], out: pl.Out[pl.Tensor[[m0, n], pl.FP32]]) -> pl.Tensor[[m0, n], pl.FP32]:  # noqa: E501
            return self.doubled(a, out)

    names = [f["name"] for f in AttrKernel.functions]
    assert names == ["doubled", "chip"]  # renamed to the attribute, in class order
    text = ir.python_print(AttrKernel)
    assert "def doubled(self, a: pl.Tensor[[2, 8], pl.FP32]" in text
    a = np.arange(16, dtype=np.float32).reshape(1, 2, 8)
    o = pypto.sim.run(AttrKernel, ranks=1, entry="chip", inputs={"a": a})
    assert np.array_equal(o["out"], 2 * a)


def test_class_attribute_kernel_errors_name_the_factory_line():
    with pytest.raises(pypto.ParseError) as info:
        @pl.program
        class Bad:
            step = _make_bad_step(n=4)

    file, line, col, rule = _first_error(info.value)
    assert (file, line) == (__file__, _line_of("MARK-factory-wait-arity"))
    src_line = open(__file__).read().split("\n")[line - 1]
    assert col == src_line.index("pld.system.wait") + 1
    assert rule.startswith("pld.system.wait: expected 3 positional arguments")


def test_class_attribute_kernel_with_a_conflicting_constant_is_an_error():
    n = 16  # the class sees n = 16, the factory's closure n = 8

    with pytest.raises(TypeError, match="'n' is 8 here but 16 in another part"):
        @pl.program
        class Clash:
            step = _make_add_step(m0=1, n=8)

            @pl.function(type=pl.FunctionType.Orchestration)
            def chip(self, a: pl.Tensor[[1, n], pl.FP32], out: pl.Out[pl.Tensor[[1, n], pl.FP32]]):
                self.step(a, out)
