# The in-place allgather inside a kernel (composite lowering): each rank stores
# its chunk into row my_rank of the [2, 8] window, `pld.tensor.allgather(d,
# signal)` gathers the rows in place (lowered: row my_rank of the staged window
# is put into row my_rank of every rank), then the kernel copies the whole
# window out. Before and after the default pipeline both ranks see both rows.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: FileCheck %s < %t.d/low.pir
# RUN: pypto-opt %t.d/low.pir --emit=pto > /dev/null
# RUN: %python -c "import numpy as np; np.save('%t.d/x.npy', (np.arange(16).reshape(2, 1, 8) + 1).astype(np.float32))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/a --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/b --check-signals --detect-races --schedule=random:3
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x.npy')[:, 0, :]; ok = all(np.array_equal(np.load('%t.d/%%s/y.npy' %% d), np.stack([x, x])) for d in 'ab'); print(ok); sys.exit(0 if ok else 1)"
# CHECK: pld.tile.put(d, dest, d, stage_v, [my_rank_idx, put_col], [my_rank_idx, put_col], [1, put_valid]
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class G:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 8], pl.FP32], data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]], y: pl.Out[pl.Tensor[[2, 8], pl.FP32]], me: pl.Scalar[pl.INT32]) -> pl.Tensor[[2, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 8])
        d = pl.store(t, [me, 0], data)
        g = pld.tensor.allgather(d, signal)
        a = pl.load(g, [0, 0], [2, 8])
        return pl.store(a, [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[1, 8], pl.FP32], data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]], y: pl.Out[pl.Tensor[[2, 8], pl.FP32]], me: pl.Scalar[pl.INT32]) -> pl.Tensor[[2, 8], pl.FP32]:
        return self.k(x, data, signal, y, me)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, 2, 8], pl.FP32]]):
        db = pld.alloc_window_buffer(64)
        sb = pld.alloc_window_buffer(8)
        for r in pl.range(2):
            data = pld.window(db, [2, 8], dtype=pl.FP32)
            signal = pld.window(sb, [2, 1], dtype=pl.INT32)
            self.chip(x[r], data, signal, y[r], r, device=r)
