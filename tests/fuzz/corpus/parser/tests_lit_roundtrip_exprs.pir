# RUN: pypto-opt %s > %t.1 && pypto-opt %t.1 > %t.2 && diff %t.1 %t.2
# RUN: FileCheck %s < %t.1
# Scalar expressions: Python precedence with minimal parentheses, literal typing
# (bare int = INDEX, float = FP32, pl.const for other dtypes), casts, module
# constants folded, distinct Vars with one name hint printed distinctly.
import pypto.language as pl

N = 64
SCALE = 0.5


@pl.program
class Exprs:
    @pl.function
    def f(self, a: pl.Scalar[pl.INDEX], b: pl.Scalar[pl.INDEX], c: pl.Scalar[pl.INT32]):
        # CHECK: x: pl.Scalar[pl.INDEX] = (a + b) * (a - b)
        x = (a + b) * (a - b)
        # CHECK-NEXT: y: pl.Scalar[pl.INDEX] = a - (b - 1) + a ** 2 ** b
        y = a - (b - 1) + a ** (2 ** b)
        # CHECK-NEXT: z: pl.Scalar[pl.INDEX] = (-a) ** 2 % 7 // 2
        z = ((-a) ** 2 % 7) // 2
        # CHECK-NEXT: w: pl.Scalar[pl.INDEX] = 128
        w = N * 2
        # CHECK-NEXT: h: pl.Scalar[pl.FP32] = 0.5
        h = SCALE
        # CHECK-NEXT: f32: pl.Scalar[pl.FP32] = 0.1
        f32 = 0.1
        # CHECK-NEXT: f16: pl.Scalar[pl.FP16] = pl.const(1.5, pl.FP16)
        f16 = pl.const(1.5, pl.FP16)
        # CHECK-NEXT: big: pl.Scalar[pl.FP32] = 1e+20
        big = 1e20
        # CHECK-NEXT: i32: pl.Scalar[pl.INT32] = c + pl.const(1, pl.INT32)
        i32 = c + pl.const(1, pl.INT32)
        # CHECK-NEXT: ci: pl.Scalar[pl.INT32] = pl.cast(a, pl.INT32)
        ci = pl.cast(a, pl.INT32)
        # CHECK-NEXT: bits: pl.Scalar[pl.INDEX] = a << 2 | b & 3 ^ ~a
        bits = (a << 2) | ((b & 3) ^ ~a)
        # CHECK-NEXT: t: pl.Scalar[pl.BOOL] = True
        t = True
        # CHECK-NEXT: mx: pl.Scalar[pl.INDEX] = pl.max(pl.min(a, b), 16)
        mx = pl.max(pl.min(a, b), 16)
        # CHECK-NEXT: x_1: pl.Scalar[pl.INT32] = pl.cast(x, pl.INT32)
        x = pl.cast(x, pl.INT32)
        return
