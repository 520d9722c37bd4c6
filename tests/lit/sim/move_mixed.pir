# The tile.move paths between the cores, run on 2 ranks against numpy (before
# lowering: the executor runs a mixed kernel as written; expand-mixed-kernel
# rejects it, as it does not split kernels into AIC + AIV yet):
#  * drain: Acc -> Vec, then a vector op: E = A @ B + 1;
#  * feed: Vec -> Mat hands a vector tile to the cube unit: F = (2 A) @ B.
# Inputs are small integers, so every FP32 sum is exact.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; r = np.random.RandomState(6); [np.save('%t.d/%%s.npy' %% n, r.randint(-3, 4, s).astype(np.float16)) for n, s in (('a', (2, 16, 32)), ('b', (2, 32, 16)))]"
# RUN: pypto-run %s --ranks 2 --entry drain --input a=%t.d/a.npy --input b=%t.d/b.npy --output-dir %t.d
# RUN: pypto-run %s --ranks 2 --entry feed --input a=%t.d/a.npy --input b=%t.d/b.npy --output-dir %t.d
# RUN: not pypto-opt %s --pipeline=default 2>&1 | FileCheck %s
# CHECK: move_mixed.pir:{{[0-9]+}}:{{[0-9]+}}: error: expand-mixed-kernel: kernel 'drain' mixes cube and vector work
# CHECK: move_mixed.pir:{{[0-9]+}}:{{[0-9]+}}: error: expand-mixed-kernel: kernel 'feed' mixes cube and vector work
# RUN: %python -c "import numpy as np, sys; a, b = (np.load('%t.d/%%s.npy' %% n).astype(np.float64) for n in 'ab'); ab = np.stack([a[r] @ b[r] for r in (0, 1)]); ok = [np.load('%t.d/%%s.npy' %% n).dtype == np.float32 and np.array_equal(np.load('%t.d/%%s.npy' %% n), w) for n, w in (('e', ab + 1), ('f', 2 * ab))]; print(ok); sys.exit(0 if all(ok) else 1)"
import pypto.language as pl


@pl.program
class MixedMoves:
    @pl.function(type=pl.FunctionType.InCore)
    def drain(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], e: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        la = pl.move(pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        rb = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        v = pl.move(pl.matmul(la, rb), target_memory=pl.Mem.Vec)
        pl.store(pl.add(v, 1.0), [0, 0], e)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def feed(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], f: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        va = pl.load(a, [0, 0], [16, 32])
        la = pl.move(pl.move(pl.add(va, va), target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        rb = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        pl.store(pl.matmul(la, rb), [0, 0], f)
        return
