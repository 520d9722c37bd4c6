"""Upstream's kernel styles through the Python API: an early `return` inside an
`if` and a nested one-liner `pl.store(pl.load(...), ...)`. The default pipeline
(eliminate-early-returns, flatten-call-args) keeps the results bit-exact and
makes the kernels emittable as PTO."""

import numpy as np
import pytest

import pypto
import pypto.ir as ir
import pypto.language as pl
import pypto.language.distributed as pld
import pypto.sim

NR = pl.dynamic("NR")


@pl.program
class RootPublishes:
    @pl.function(type=pl.FunctionType.InCore)
    def publish(self, inp: pl.Tensor[[16, 16], pl.INT32], out: pl.Out[pl.Tensor[[16, 16], pl.INT32]],
                acc: pld.DistributedTensor[[16, 16], pl.INT32]) -> pl.Tensor[[16, 16], pl.INT32]:
        if pld.rank(pld.get_comm_ctx(acc)) == 0:
            return pl.store(pl.add(pl.load(inp, [0, 0], [16, 16]), pl.load(inp, [0, 0], [16, 16])),
                            [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, inp: pl.Tensor[[16, 16], pl.INT32],
             out: pl.Out[pl.Tensor[[16, 16], pl.INT32]]) -> pl.Tensor[[16, 16], pl.INT32]:
        return pl.store(pl.load(inp, [0, 0], [16, 16]), [0, 0], out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 16], pl.INT32], y: pl.Out[pl.Tensor[[NR, 16, 16], pl.INT32]],
                  z: pl.Out[pl.Tensor[[NR, 16, 16], pl.INT32]]):
        buf = pld.alloc_window_buffer(16 * 16 * 4)
        for r in pl.range(pld.world_size()):
            acc = pld.window(buf, [16, 16], dtype=pl.INT32)
            self.publish(x[r], y[r], acc, device=r)
            self.copy(x[r], z[r], device=r)


@pytest.mark.parametrize("ranks", [2, 4])
def test_early_return_and_nested_calls_run_and_emit(ranks):
    x = (np.arange(ranks * 256, dtype=np.int32) % 29 - 7).reshape(ranks, 16, 16)
    y = np.zeros_like(x)
    y[0] = 2 * x[0]
    lowered = ir.run_passes(RootPublishes, "default", verify_each=True, roundtrip_each=True)
    for prog in (RootPublishes, lowered):
        out = pypto.sim.run(prog, ranks=ranks, inputs={"x": x}, check_signals=True)
        np.testing.assert_array_equal(out["y"], y)
        np.testing.assert_array_equal(out["z"], x)
    publish = ir.python_print(lowered).split("def publish(")[1].split("@pl.function")[0]
    returns = [ln for ln in publish.splitlines() if ln.strip().startswith("return")]
    assert returns == ["        return out_2"]  # one return, at the end of the body
    mods = ir.emit_pto(lowered)
    assert set(mods) == {"publish", "copy"}
    assert mods["publish"].count("scf.if") == 1 and mods["publish"].count("pto.tstore") == 1
    assert "pto.tload" in mods["copy"] and "pto.tstore" in mods["copy"]


def test_emit_without_the_normalizing_passes_fails():
    """Without flatten-call-args the backend rejects the nested store argument."""
    partial = ("outline-incore-scopes,convert-to-ssa,simplify,convert-tensor-to-tile-ops,"
               "infer-tile-memory-space,expand-mixed-kernel,materialize-dist-tensor-ctx")
    lowered = ir.run_passes(RootPublishes, partial)
    with pytest.raises(pypto.EmitError,
                       match="tile.store: argument .tile. must be a tile defined in this kernel"):
        ir.emit_pto(lowered)
