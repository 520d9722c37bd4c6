# RUN: pypto-opt %s > %t.1 && pypto-opt %t.1 > %t.2 && diff %t.1 %t.2
# RUN: FileCheck %s < %t.1
# SSA control flow: if/else joins through `x = pl.yield_(...)`, loops with
# init_values (range, parallel, unroll), the pl.while_ form with pl.cond, and a
# plain while with break.
import pypto.language as pl


@pl.program
class ControlFlow:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        # CHECK:      if n > 3 and not n == 5:
        # CHECK-NEXT:     r: pl.Scalar[pl.INDEX] = pl.yield_((n - 1) * 2 // 3)
        # CHECK-NEXT: else:
        # CHECK-NEXT:     r: pl.Scalar[pl.INDEX] = pl.yield_(pl.min(n, -4))
        if n > 3 and not n == 5:
            r = pl.yield_((n - 1) * 2 // 3)
        else:
            r = pl.yield_(pl.min(n, -4))
        # CHECK: for i, (a, b) in pl.range(1, n, 2, init_values=(r, 0)):
        for i, (a, b) in pl.range(1, n, 2, init_values=(r, 0)):
            # CHECK-NEXT: a2: pl.Scalar[pl.INDEX] = a + i
            a2 = a + i
            # CHECK-NEXT: a_out, b_out = pl.yield_(a2, b - 1)
            a_out, b_out = pl.yield_(a2, b - 1)
        # CHECK: for j in pl.parallel(n):
        for j in pl.parallel(n):
            pass
        # CHECK: for k in pl.unroll(0, 4, 2):
        for k in pl.unroll(0, 4, 2):
            pass
        # CHECK:      for (x,) in pl.while_(init_values=(a_out,)):
        # CHECK-NEXT:     pl.cond(x < 100)
        # CHECK-NEXT:     x_next: pl.Scalar[pl.INDEX] = pl.yield_(x * 2)
        for (x,) in pl.while_(init_values=(a_out,)):
            pl.cond(x < 100)
            x_next = pl.yield_(x * 2)
        # CHECK: while x_next < b_out:
        # CHECK-NEXT: break
        while x_next < b_out:
            break
        return x_next
