# tile.move on every data path it allows, run on 2 ranks against numpy and
# emitted as pto.tmov (the ptoas tier assembles the module):
#  * chain (AIC): D = (A @ B) @ C. FP16 A / B go GM -> Mat -> Left / Right, their
#    product accumulates in FP32 (Acc), Acc -> Mat -> Left feeds the second
#    matmul with FP32 C (Mat -> Right); Mat -> Bias is emitted (no op reads it yet);
#  * copy (AIV): Vec -> Vec, then y = 2 * x.
# The paths between the cores (Acc -> Vec, Vec -> Mat) are in move_mixed.pir.
# Inputs are small integers, so every FP32 sum is exact.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; r = np.random.RandomState(5); [np.save('%t.d/%%s.npy' %% n, r.randint(-3, 4, s).astype(d)) for n, s, d in (('a', (2, 16, 32), np.float16), ('b', (2, 32, 16), np.float16), ('c', (2, 16, 16), np.float32), ('x', (2, 16, 16), np.float32))]"
# RUN: pypto-run %s --ranks 2 --entry chain --input a=%t.d/a.npy --input b=%t.d/b.npy --input c=%t.d/c.npy --output-dir %t.d/s
# RUN: pypto-run %s --ranks 2 --entry copy --input x=%t.d/x.npy --output-dir %t.d/s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --entry chain --input a=%t.d/a.npy --input b=%t.d/b.npy --input c=%t.d/c.npy --output-dir %t.d/l --schedule=random:3
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --entry copy --input x=%t.d/x.npy --output-dir %t.d/l --schedule=random:3
# RUN: %python -c "import numpy as np, sys; L = lambda d, n: np.load('%t.d/%%s/%%s.npy' %% (d, n)); a, b, c, x = (np.load('%t.d/%%s.npy' %% n).astype(np.float64) for n in 'abcx'); ab = np.stack([a[r] @ b[r] for r in (0, 1)]); want = {'d': np.stack([ab[r] @ c[r] for r in (0, 1)]), 'y': 2 * x}; ok = [(d, n, L(d, n).dtype == np.float32 and np.array_equal(L(d, n), want[n])) for d, ns in (('s', 'dy'), ('l', 'dy')) for n in ns]; print(ok); sys.exit(0 if all(o for _, _, o in ok) else 1)"
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --emit=pto --target=a5 | FileCheck %s --check-prefix=A5
# Without the pipeline (whose DCE drops it) the unread Mat -> Bias move is emitted.
# RUN: pypto-opt %s --emit=pto | FileCheck %s --check-prefix=BIAS
# BIAS: pto.tmov ins(%mbias : !pto.tile_buf<loc=mat{{.*}}>) outs(%bias : !pto.tile_buf<loc=bias, dtype=f32, rows=1, cols=16{{.*}}>)
# CHECK-LABEL: func.func @chain(
# CHECK: pto.tmov ins(%ma : !pto.tile_buf<loc=mat, dtype=f16{{.*}}>) outs(%la : !pto.tile_buf<loc=left, dtype=f16{{.*}}>)
# CHECK: pto.tmov ins(%mb : !pto.tile_buf<loc=mat, dtype=f16{{.*}}>) outs(%rb : !pto.tile_buf<loc=right, dtype=f16{{.*}}>)
# CHECK: pto.tmatmul ins(%la, %rb : {{.*}}) outs(%ab : !pto.tile_buf<loc=acc, dtype=f32{{.*}}>)
# CHECK: pto.tmov ins(%ab : !pto.tile_buf<loc=acc, dtype=f32{{.*}}>) outs(%mab : !pto.tile_buf<loc=mat, dtype=f32{{.*}}, fractal=512{{.*}}>)
# CHECK: pto.tmov ins(%mab : !pto.tile_buf<loc=mat{{.*}}>) outs(%lab : !pto.tile_buf<loc=left, dtype=f32{{.*}}>)
# CHECK: pto.tmov ins(%mc : !pto.tile_buf<loc=mat{{.*}}>) outs(%rc : !pto.tile_buf<loc=right, dtype=f32{{.*}}>)
# CHECK: pto.tmatmul ins(%lab, %rc : {{.*}}) outs(%out : !pto.tile_buf<loc=acc, dtype=f32{{.*}}>)
# CHECK-LABEL: func.func @copy(
# CHECK: pto.tmov ins(%t : !pto.tile_buf<loc=vec{{.*}}>) outs(%u : !pto.tile_buf<loc=vec{{.*}}>)
# A5-LABEL: func.func @chain(
# A5: pto.tmov ins(%ab : !pto.tile_buf<loc=acc{{.*}}>) outs(%mab : !pto.tile_buf<loc=mat{{.*}}>)
import pypto.language as pl


@pl.program
class Moves:
    @pl.function(type=pl.FunctionType.AIC)
    def chain(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], c: pl.Tensor[[16, 16], pl.FP32], d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        ma = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        mb = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        la = pl.move(ma, target_memory=pl.Mem.Left)
        rb = pl.move(mb, target_memory=pl.Mem.Right)
        ab = pl.matmul(la, rb)
        mab = pl.move(ab, target_memory=pl.Mem.Mat)
        lab = pl.move(mab, target_memory=pl.Mem.Left)
        mc = pl.load(c, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        rc = pl.move(mc, target_memory=pl.Mem.Right)
        mbias = pl.load(c, [0, 0], [1, 16], target_memory=pl.Mem.Mat)
        bias = pl.move(mbias, target_memory=pl.Mem.Bias)
        out = pl.matmul(lab, rc)
        pl.store(out, [0, 0], d)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def copy(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        t = pl.load(x, [0, 0], [16, 16])
        u = pl.move(t)
        s = pl.add(u, t)
        pl.store(s, [0, 0], y)
        return
