"""pl.Array in the Python DSL: the annotation and the pl.array namespace evaluate,
and a decorated kernel using a[i] / a[i] = v, pl.tile.row_sum and pl.tile.reshape
prints canonically and runs exactly in pypto.sim before and after the pipeline."""

import numpy as np

import pypto
import pypto.ir as ir
import pypto.language as pl
import pypto.language.distributed as pld
import pypto.sim


@pl.program
class Hist:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, idx: pl.Tensor[[8, 1], pl.INT32], w: pl.Tensor[[4, 8], pl.FP32],
          cnt: pl.Out[pl.Tensor[[4, 1], pl.INT32]], s: pl.Out[pl.Tensor[[1, 4], pl.FP32]]):
        h = pl.array.create(4, pl.INT32)
        for i in pl.range(4):
            h[i] = 0
        for t in pl.range(8):
            b = pl.read(idx, [t, 0])
            h[b] = h[b] + 1
        for i in pl.range(4):
            pl.write(cnt, [i, 0], h[i])
        x = pl.load(w, [0, 0], [4, 8])
        tmp = pl.tile.create([4, 8], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        rs = pl.tile.row_sum(x, tmp)
        r = pl.tile.reshape(rs, [1, 4])
        pl.store(r, [0, 0], s)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, idx: pl.Tensor[[2, 8, 1], pl.INT32], w: pl.Tensor[[2, 4, 8], pl.FP32],
                  cnt: pl.Out[pl.Tensor[[2, 4, 1], pl.INT32]],
                  s: pl.Out[pl.Tensor[[2, 1, 4], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.k(idx[r], w[r], cnt[r], s[r], device=r)


def test_array_annotation_and_namespace():
    assert repr(pl.Array[16, pl.INT32]) == "pl.Array[16, pl.INT32]"
    assert "create" in dir(pl.array)
    assert "update_element" in dir(pl.array)


def test_array_program_prints_and_runs():
    text = ir.python_print(Hist)
    assert "h: pl.Array[4, pl.INT32] = pl.array.create(4, dtype=pl.INT32)" in text
    assert "pl.array.update_element(h, b, pl.array.get_element(h, b) + 1)" in text
    idx = np.array([[0, 3, 3, 1, 3, 0, 2, 3], [1, 1, 1, 1, 2, 2, 0, 0]],
                   np.int32).reshape(2, 8, 1)
    w = (np.arange(64, dtype=np.float32) * 0.5).reshape(2, 4, 8)
    want_cnt = np.stack([np.bincount(idx[r, :, 0], minlength=4) for r in range(2)])
    low = ir.run_passes(Hist, "default", verify_each=True, roundtrip_each=True)
    for prog in (Hist, low):
        out = pypto.sim.run(prog, ranks=2, inputs={"idx": idx, "w": w})
        assert np.array_equal(out["cnt"][..., 0], want_cnt.astype(np.int32))
        assert np.array_equal(out["s"][:, 0, :], w.sum(2))
    assert "pto.local_array_set" in ir.emit_pto(low)["k"]
