"""Upstream's write-back idioms in decorated Python: `pl.assemble` in a row loop,
`out[a:b, c:d] = v` slice assignment (plain and window targets) and
`pl.add(x, 1.0)` scalar operands. Each program runs on simulated ranks before and
after the default pipeline, bit-exactly against numpy; a bad slice assignment is
reported at the user's file and line."""

import numpy as np
import pytest

import pypto
import pypto.ir as ir
import pypto.language as pl
import pypto.language.distributed as pld
import pypto.sim
from dsl_util import import_module, write_module

ROWS = 8
COLS = 16


@pl.program
class RowsPlusOne:
    @pl.function(type=pl.FunctionType.InCore)
    def add_one(self, x: pl.Tensor[[ROWS, COLS], pl.FP32],
                y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        for row in pl.parallel(ROWS):
            x_row = pl.slice(x, [1, COLS], [row, 0])
            y_row = pl.add(x_row, 1.0)
            y = pl.assemble(y, y_row, [row, 0])
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def child(self, x: pl.Tensor[[ROWS, COLS], pl.FP32],
              y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        y = self.add_one(x, y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, ROWS, COLS], pl.FP32],
                  y: pl.Out[pl.Tensor[[2, ROWS, COLS], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.child(x[r], y[r], device=r)


@pl.program
class WindowColumns:
    @pl.function(type=pl.FunctionType.InCore)
    def step(self, inp: pl.Tensor[[ROWS, COLS], pl.FP32],
             out: pl.Out[pl.Tensor[[ROWS, 4], pl.FP32]],
             win: pld.DistributedTensor[[ROWS, COLS], pl.FP32]) -> pl.Tensor[[ROWS, 4], pl.FP32]:
        win[0:ROWS, 0:COLS] = inp[0:ROWS, 0:COLS]
        out[0:ROWS, 0:4] = win[0:ROWS, 4:8]
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, inp: pl.Tensor[[ROWS, COLS], pl.FP32],
             out: pl.Out[pl.Tensor[[ROWS, 4], pl.FP32]],
             win: pld.DistributedTensor[[ROWS, COLS], pl.FP32]) -> pl.Tensor[[ROWS, 4], pl.FP32]:
        return self.step(inp, out, win)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, inputs: pl.Tensor[[2, ROWS, COLS], pl.FP32],
                  outputs: pl.Out[pl.Tensor[[2, ROWS, 4], pl.FP32]]):
        buf = pld.alloc_window_buffer(ROWS * COLS * 4)
        for r in pl.range(pld.world_size()):
            win = pld.window(buf, [ROWS, COLS], dtype=pl.FP32)
            self.chip(inputs[r], outputs[r], win, device=r)


def _run_both(prog, inputs):
    before = pypto.sim.run(prog, ranks=2, inputs=inputs, detect_races=True)
    low = ir.run_passes(prog, "default", verify_each=True, roundtrip_each=True)
    after = pypto.sim.run(low, ranks=2, inputs=inputs, schedule="random:5", detect_races=True)
    ir.emit_pto(low)
    return before, after


def test_assemble_rows_with_scalar_add():
    x = (np.arange(2 * ROWS * COLS) % 23 - 9).astype(np.float32).reshape(2, ROWS, COLS)
    text = ir.python_print(RowsPlusOne)
    assert "pl.tensor.adds(x_row, 1.0)" in text
    assert "pl.tensor.assemble(" in text
    for out in _run_both(RowsPlusOne, {"x": x}):
        np.testing.assert_array_equal(out["y"], x + np.float32(1))


def test_slice_assignment_through_a_window():
    x = np.arange(2 * ROWS * COLS, dtype=np.float32).reshape(2, ROWS, COLS)
    for out in _run_both(WindowColumns, {"inputs": x}):
        np.testing.assert_array_equal(out["outputs"], x[:, :, 4:8])


def test_slice_assignment_shape_mismatch_names_users_line(tmp_path):
    src = '''\
import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
        out[0:8, 0:8] = x
'''
    path = write_module(tmp_path, src)
    with pytest.raises(pypto.ParseError) as e:
        import_module(path)
    msg = str(e.value)
    assert f"{path}:8:25: error: assignment to the region [8, 8] of 'out': the value has shape " \
           "[8, 16]; it must have the region's shape" in msg
