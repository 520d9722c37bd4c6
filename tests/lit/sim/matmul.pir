# tile.matmul / tile.matmul_acc / tile.full on the executor, checked against
# numpy: C = A @ B + A @ B for integer-valued FP16 inputs (exact in the FP32
# accumulator), on 2 ranks; and a broadcast fill.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py arange %t.d/a.npy float16 2 16 32
# RUN: %python %S/Inputs/simtool.py arange %t.d/b.npy float16 2 32 16
# RUN: pypto-run %s --ranks 2 --entry gemm --input a=%t.d/a.npy --input b=%t.d/b.npy --output-dir %t.d
# RUN: %python %S/Inputs/simtool.py expect-matmul %t.d/a.npy %t.d/b.npy %t.d/c.npy 2 | FileCheck %s --check-prefix=MM
# MM: matmul OK
# The same through the default pipeline.
# RUN: pypto-opt %s --pipeline=default --emit=ir -o %t.d/lowered.pir
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --entry gemm --input a=%t.d/a.npy --input b=%t.d/b.npy --output-dir %t.d
# RUN: %python %S/Inputs/simtool.py expect-matmul %t.d/a.npy %t.d/b.npy %t.d/c.npy 2 | FileCheck %s --check-prefix=MM
# RUN: %python %S/Inputs/simtool.py arange %t.d/y.npy float32 1 8 16
# RUN: pypto-run %s --ranks 1 --entry fill --input y=%t.d/y.npy --output-dir %t.d
# RUN: %python -c "import numpy as np; y = np.load('%t.d/y.npy'); print('fill', y.dtype, y.shape, bool((y == 3.0).all()))" | FileCheck %s --check-prefix=FILL
# FILL: fill float32 (1, 8, 16) True
import pypto.language as pl


@pl.program
class Gemm:
    @pl.function(type=pl.FunctionType.AIC)
    def gemm(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        ma = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        mb = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        la = pl.move(ma, target_memory=pl.Mem.Left)
        rb = pl.move(mb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, rb)
        acc2 = pl.matmul_acc(acc, la, rb)
        pl.store(acc2, [0, 0], c)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def fill(self, y: pl.InOut[pl.Tensor[[8, 16], pl.FP32]]):
        t = pl.tile.full([8, 16], dtype=pl.FP32, value=3.0)
        pl.store(t, [0, 0], y)
        return
