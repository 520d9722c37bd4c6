# A kernel's dynamic dim STAGED appears only in its tensor parameters' shapes;
# after the default pipeline insert-comm-fence gives the publishing store a
# pl.system.cacheinvalid(data, [STAGED, 8], ...) that uses STAGED as a value.
# The executor binds STAGED from the tensor passed (as the PTO emitter does,
# from the shape argument), so the lowered run works and is bit-exact with the
# unlowered run and with numpy (before the fix it failed with "use of variable
# 'STAGED' that has no value at run time", pointing at the declaration line).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; np.save('%t.d/x.npy', (np.arange(4 * 4 * 8) %% 13).astype(np.float32).reshape(4, 4, 8))"
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: FileCheck %s < %t.d/low.pir
# CHECK: pl.system.cacheinvalid(data, [STAGED, 8], [0, 0])
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x.npy --output-dir %t.d/a --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 4 --input x=%t.d/x.npy --output-dir %t.d/b --check-signals --schedule=random:7
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x.npy'); want = x.sum(axis=0)[:, None, :]; sys.exit(0 if all(np.array_equal(np.load('%t.d/%%s/y.npy' %% s), want) for s in 'ab') else 1)"
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
STAGED = pl.dynamic("STAGED")


@pl.program
class ReduceScatterStaged:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[STAGED, 8], pl.FP32], data: pl.InOut[pld.DistributedTensor[[STAGED, 8], pl.FP32]]) -> pld.DistributedTensor[[STAGED, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        d2 = pl.store(t, [0, 0], data)
        return d2

    @pl.function(type=pl.FunctionType.InCore)
    def unstage(self, data: pld.DistributedTensor[[NR, 8], pl.FP32], row: pl.Scalar[pl.INDEX], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t = pl.load(data, [row, 0], [1, 8])
        return pl.store(t, [0, 0], y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer(4 * 8 * 4)
        sbuf = pld.alloc_window_buffer(16)
        data = pld.window(buf, [4, 8], dtype=pl.FP32)
        sig = pld.window(sbuf, [4, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.stage(x[r], data, device=r)
        data = pld.tensor.reduce_scatter(data, sig)
        for r in pl.range(pld.world_size()):
            self.unstage(data, r, y[r], device=r)
