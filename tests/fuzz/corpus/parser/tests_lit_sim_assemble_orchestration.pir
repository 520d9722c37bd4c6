# tensor.assemble outside kernels (a chip orchestration) runs in the executor and
# survives the pipeline: slice assignment and pl.assemble into a window
# (DistributedTensor: writes this rank's copy; the written view is passed on to a
# kernel, so materialize-dist-tensor-ctx forwards w's ctx through the write-back)
# and into an Out tensor, with tensor.muls / tensor.adds sources.
# Expected: y = [x * -2; x] (rows), z = [x + 0.25, x] (columns), per rank.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: FileCheck %s < %t.d/lowered.pir
# RUN: %python -c "import numpy as np; np.save('%t.d/x.npy', (np.arange(3 * 256) %% 37 - 11).astype(np.float32).reshape(3, 16, 16) / 4)"
# RUN: pypto-run %s --ranks 3 --input x=%t.d/x.npy --output-dir %t.d/s --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 3 --input x=%t.d/x.npy --output-dir %t.d/l --detect-races --schedule=random:3
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x.npy'); y = np.concatenate([x * np.float32(-2), x], 1); z = np.concatenate([x + np.float32(0.25), x], 2); ok = [np.array_equal(np.load('%t.d/%%s/y.npy' %% d), y) and np.array_equal(np.load('%t.d/%%s/z.npy' %% d), z) for d in 'sl']; print(ok); sys.exit(0 if all(ok) else 1)"
# CHECK:      w_2: pld.DistributedTensor{{\[\[}}32, 16], pl.FP32] = pl.tensor.assemble(w_1, pl.tensor.muls(x, -2.0), [0, 0])
# CHECK-NEXT: y_1: pl.Tensor{{\[\[}}32, 16], pl.FP32] = self.copy_out(w_2, y, w_ctx)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class OrchAssemble:
    @pl.function(type=pl.FunctionType.InCore)
    def copy_out(self, w: pld.DistributedTensor[[32, 16], pl.FP32], y: pl.Out[pl.Tensor[[32, 16], pl.FP32]]) -> pl.Tensor[[32, 16], pl.FP32]:
        t = pl.load(w, [0, 0], [32, 16])
        y = pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[16, 16], pl.FP32], w: pld.DistributedTensor[[32, 16], pl.FP32], y: pl.Out[pl.Tensor[[32, 16], pl.FP32]], z: pl.Out[pl.Tensor[[16, 32], pl.FP32]]):
        w[16:32, 0:16] = x
        w = pl.assemble(w, pl.muls(x, -2.0), [0, 0])
        y = self.copy_out(w, y)
        z[:, 16:32] = x
        z[0:16, 0:16] = pl.tensor.adds(x, 0.25)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 32, 16], pl.FP32]], z: pl.Out[pl.Tensor[[NR, 16, 32], pl.FP32]]):
        buf = pld.alloc_window_buffer(32 * 16 * 4)
        for r in pl.range(pld.world_size()):
            w = pld.window(buf, [32, 16], dtype=pl.FP32)
            self.chip(x[r], w, y[r], z[r], device=r)
