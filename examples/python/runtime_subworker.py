"""Upstream's run surface on 4 simulated ranks: `ir.compile(..., distributed_config=...)`,
`compiled(x, y)`, a HOST SubWorker that combines the chip results in Python, and
`prepare(persistent=True)` windows that carry a running sum from call to call.

Each rank r computes x[r] * 2 on its device; the host SubWorker `summarize`
(plain Python, called between dispatches) writes per-rank row maxima into
`peaks`. A second program keeps a window per rank across calls.

    PYTHONPATH=bindings python3 examples/python/runtime_subworker.py
"""

import numpy as np

import pypto.language as pl
import pypto.language.distributed as pld
from pypto import ir
from pypto.runtime import DistributedConfig

N_RANKS = 4
ROWS, COLS = 8, 32


@pl.program
class DoubleThenSummarize:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, x: pl.Tensor[[ROWS, COLS], pl.FP32],
               y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        t = pl.load(x, [0, 0], [ROWS, COLS])
        y = pl.store(pl.add(t, t), [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[ROWS, COLS], pl.FP32],
             y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
        y = self.double(x, y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def summarize(y: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
                  peaks: pl.Out[pl.Tensor[[N_RANKS, ROWS], pl.FP32]]):
        # Host Python: numpy, loops, prints, raise... all allowed here.
        peaks[:] = y.max(axis=2)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
                  y: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
                  peaks: pl.Out[pl.Tensor[[N_RANKS, ROWS], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.chip(x[r], y[r], device=r)
        self.summarize(y, peaks)


@pl.program
class RunningSum:
    @pl.function(type=pl.FunctionType.InCore)
    def add_into(self, x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]],
                 acc: pld.DistributedTensor[[1, COLS], pl.FP32]) -> pl.Tensor[[1, COLS], pl.FP32]:
        total = pl.add(pl.load(x, [0, 0], [1, COLS]), pl.load(acc, [0, 0], [1, COLS]))
        acc = pl.store(total, [0, 0], acc)
        y = pl.store(total, [0, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[N_RANKS, 1, COLS], pl.FP32],
                  y: pl.Out[pl.Tensor[[N_RANKS, 1, COLS], pl.FP32]]):
        acc_buf = pld.alloc_window_buffer([1, COLS], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            acc = pld.window(acc_buf, [1, COLS], dtype=pl.FP32)
            self.add_into(x[r], y[r], acc, device=r)


def main(verbose=True):
    dc = DistributedConfig(device_ids=list(range(N_RANKS)))
    x = (np.arange(N_RANKS * ROWS * COLS) % 17).astype(np.float32).reshape(N_RANKS, ROWS, COLS)
    compiled = ir.compile(DoubleThenSummarize, platform="a2a3sim", distributed_config=dc)
    y, peaks = compiled(x)  # return style: both Out parameters come back
    ok = np.array_equal(y, 2 * x) and np.array_equal(peaks, (2 * x).max(axis=2))

    running = ir.compile(RunningSum, platform="a2a3sim", distributed_config=dc)
    sums = []
    with running.prepare(persistent=True, reset_persistent_windows=False) as rt:
        for call in range(1, 4):
            step = np.full((N_RANKS, 1, COLS), float(call), dtype=np.float32)
            sums.append(rt(step))
    # Calls add 1, 2, 3: the windows hold 1, 3, 6.
    ok = ok and all(np.all(s == v) for s, v in zip(sums, (1.0, 3.0, 6.0)))
    if verbose:
        print(f"peaks[0][:4] = {peaks[0][:4].tolist()}")
        print(f"running sums: {[float(s[0, 0, 0]) for s in sums]}")
        print(f"runtime_subworker on {N_RANKS} simulated ranks: {'OK' if ok else 'MISMATCH'}")
    return {"x": x, "y": y, "peaks": peaks, "sums": sums, "ok": ok}


if __name__ == "__main__":
    raise SystemExit(0 if main()["ok"] else 1)
