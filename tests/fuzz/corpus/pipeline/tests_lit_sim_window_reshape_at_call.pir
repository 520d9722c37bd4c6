# A tensor argument whose static shape differs from the parameter's but has as
# many elements of the same dtype is reshaped at the call with an explicit
# pl.tensor.view (upstream passes 1-D `[8]` / `[1]` windows to `[1, 8]` /
# `[1, 1]` parameters). The comm-domain pass sees through the view; ranks 0 and
# 1 swap their rows through the window. A different element count is still an
# error at the call.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s | FileCheck %s
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default > /dev/null
# RUN: %python -c "import numpy as np; np.save('%t.d/x.npy', np.arange(16, dtype=np.float32).reshape(2, 1, 8))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/o
# RUN: %python -c "import numpy as np, sys; y = np.load('%t.d/o/y.npy'); x = np.load('%t.d/x.npy'); print(y.ravel().tolist()); sys.exit(0 if np.array_equal(y, x[::-1]) else 1)"
# RUN: sed -e 's/\[8\], dtype=pl.FP32)/[9], dtype=pl.FP32)/' -e 's/alloc_window_buffer(32)/alloc_window_buffer(36)/' %s > %t.bad.pir
# RUN: not pypto-opt %t.bad.pir 2>&1 | FileCheck %s --check-prefix=BAD
# CHECK: self.chip(pl.tensor.slice(x, {{.*}}), pl.tensor.slice(y, {{.*}}), pl.tensor.view(win, [1, 8]), pl.tensor.view(sig, [1, 1]), 1 - r, device=r)
# BAD: bad.pir:43:13: error: self.chip: argument 2 has type pld.DistributedTensor{{\[\[}}9], pl.FP32] but parameter 'win' is pld.DistributedTensor{{\[\[}}1, 8], pl.FP32]
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ReshapeAtCall:
    @pl.function(type=pl.FunctionType.InCore)
    def swap(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]], win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[1, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 8])
        w = pl.store(t, [0, 0], win)
        pld.system.notify(sig, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal=sig, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        r = pld.tile.remote_load(w, peer=peer, offsets=[0, 0], shape=[1, 8])
        return pl.store(r, [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]], win: pld.DistributedTensor[[1, 8], pl.FP32], sig: pld.DistributedTensor[[1, 1], pl.INT32], peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[1, 8], pl.FP32]:
        return self.swap(x, y, win, sig, peer)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]):
        win_buf = pld.alloc_window_buffer(32)
        sig_buf = pld.alloc_window_buffer(4)
        for r in pl.range(2):
            win = pld.window(win_buf, [8], dtype=pl.FP32)
            sig = pld.window(sig_buf, [1], dtype=pl.INT32)
            self.chip(x[r], y[r], win, sig, 1 - r, device=r)
