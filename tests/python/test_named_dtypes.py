"""Names bound to a dtype or an enum member in the defining scope of a decorated
program (`DTYPE = dtype` in a kernel factory, a factory parameter `op`, a module
global) are forwarded to the parser as constants spelled in the DSL (`pl.FP16`,
`pld.ReduceOp.Min`), so they can be used wherever the value itself could be
written. Checks the printed IR, bit-exact runs, and that a wrongly-kinded name is
an error naming this file, the right line and column, and what the name is."""

import re

import numpy as np
import pytest

import pypto
import pypto.ir as ir
import pypto.language as pl
import pypto.language.distributed as pld
import pypto.sim
from pypto.language import _frontend

MODULE_DT = pl.INT32
MODULE_MEM = pl.Mem.Vec


def _line_of(marker):
    with open(__file__, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if marker in line and "_line_of(" not in line:
                return i
    raise AssertionError(marker)


def _host_allreduce(dtype=pl.FP16, op=pld.ReduceOp.Max):
    DTYPE = dtype  # a factory local

    @pl.program
    class NamedAllReduce:
        @pl.function(type=pl.FunctionType.InCore)
        def stage(self, x: pl.Tensor[[1, 16], DTYPE], data: pl.InOut[pld.DistributedTensor[[1, 16], DTYPE]]) -> pld.DistributedTensor[[1, 16], DTYPE]:  # noqa: E501
            return pl.store(pl.load(x, [0, 0], [1, 16]), [0, 0], data)

        @pl.function(type=pl.FunctionType.InCore)
        def unstage(self, data: pld.DistributedTensor[[1, 16], DTYPE], y: pl.Out[pl.Tensor[[1, 16], DTYPE]]) -> pl.Tensor[[1, 16], DTYPE]:  # noqa: E501
            return pl.store(pl.load(data, [0, 0], [1, 16]), [0, 0], y)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(self, x: pl.Tensor[[2, 1, 16], DTYPE], y: pl.Out[pl.Tensor[[2, 1, 16], DTYPE]]):  # noqa: E501
            buf = pld.alloc_window_buffer(16 * DTYPE.get_byte())
            sbuf = pld.alloc_window_buffer(8)
            data = pld.window(buf, [1, 16], dtype=DTYPE)
            sig = pld.window(sbuf, [2, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                self.stage(x[r], data, device=r)
            data = pld.tensor.allreduce(data, sig, op=op)  # a factory parameter
            for r in pl.range(pld.world_size()):
                self.unstage(data, y[r], device=r)
    return NamedAllReduce


@pytest.mark.parametrize("dtype,npdt,op,fn", [
    (pl.FP16, np.float16, pld.ReduceOp.Max, np.max),
    (pl.FP32, np.float32, pld.ReduceOp.Min, np.min),
    (pl.FP16, np.float16, pld.ReduceOp.Sum, np.sum),
])
def test_factory_local_and_parameter_dtype_and_enum(dtype, npdt, op, fn):
    prog = _host_allreduce(dtype, op)
    text = ir.python_print(prog)
    assert f"x: pl.Tensor[[1, 16], pl.{dtype.name}]" in text
    assert f"pld.tensor.window(buf, [1, 16], dtype=pl.{dtype.name})" in text
    assert f"op=pld.ReduceOp.{op.name})" in text
    assert f"pld.tensor.alloc_window_buffer({16 * dtype.get_byte()})" in text
    assert ir.python_print(ir.parse(text)) == text
    x = ((np.arange(32).reshape(2, 1, 16) * 5) % 13 - 6).astype(npdt)
    want = np.stack([fn(x, axis=0).astype(npdt)] * 2)
    for p in (prog, ir.run_passes(prog, "default", verify_each=True, roundtrip_each=True)):
        out = pypto.sim.run(p, ranks=2, inputs={"x": x}, check_signals=True)
        assert out["y"].dtype == npdt
        assert np.array_equal(out["y"], want)


def test_module_globals_bound_to_a_dtype_and_an_enum_member():
    @pl.program
    class Globals:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, a: pl.Tensor[[1, 8], MODULE_DT], out: pl.Out[pl.Tensor[[1, 8], MODULE_DT]]) -> pl.Tensor[[1, 8], MODULE_DT]:  # noqa: E501
            t: pl.Tile[[1, 8], MODULE_DT, MODULE_MEM] = pl.load(a, [0, 0], [1, 8])
            return pl.store(t, [0, 0], out)

    text = ir.python_print(Globals)
    assert "def k(self, a: pl.Tensor[[1, 8], pl.INT32]" in text
    assert "t: pl.Tile[[1, 8], pl.INT32, pl.Mem.Vec] = pl.tile.load(a" in text
    a = np.arange(8, dtype=np.int32).reshape(1, 1, 8)
    assert np.array_equal(pypto.sim.run(Globals, ranks=1, entry="k", inputs={"a": a})["out"], a)


def _bad_factory(op=pld.ReduceOp.Max):
    OP = op

    @pl.program
    class Bad:
        @pl.function(type=pl.FunctionType.InCore)
        def k(self, a: pl.Tensor[[1, 8], OP]):  # MARK-enum-as-dtype
            pass
    return Bad


def test_an_enum_member_where_a_dtype_is_expected_is_an_error_at_the_use():
    with pytest.raises(pypto.ParseError) as info:
        _bad_factory()
    first = str(info.value).split("\n")[0]
    m = re.match(r"^(.*?):(\d+):(\d+): error: (.*)$", first)
    assert m, first
    line = _line_of("MARK-enum-as-dtype")
    col = open(__file__).read().split("\n")[line - 1].index("OP]") + 1
    assert (m.group(1), int(m.group(2)), int(m.group(3))) == (__file__, line, col)
    assert m.group(4) == ("pl.Tensor: 'OP' is the enum value pld.ReduceOp.Max; expected a "
                          "dtype such as pl.FP32")


def test_constant_spelling():
    text = _frontend._constant_text
    assert text(pl.FP16) == "pl.FP16"
    assert text(pl.FLOAT32) == "pl.FP32"
    assert text([pl.INT8, pl.BF16]) == "[pl.INT8, pl.BF16]"
    assert text(pld.ReduceOp.Prod) == "pld.ReduceOp.Prod"
    assert text(pld.AtomicType.NONE) == "pld.AtomicType.None_"
    assert text(pl.Mem.Vec) == "pl.Mem.Vec"
    assert text(pl.Level.NODE) == "pl.Level.HOST"
    assert _frontend._is_plain_constant(pld.WaitCmp.Ge)
    assert not _frontend._is_plain_constant(object())
