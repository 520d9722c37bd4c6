# Re-assignment renames; loop-carried values become iter_args + yield + return
# vars; values changed in an if become return vars with yields in both branches
# (an else branch is created when missing); a value first bound in both
# branches is merged too.
# RUN: pypto-opt %s --passes=convert-to-ssa --verify-each --roundtrip-each | FileCheck %s
# CHECK:      x: pl.Scalar[pl.INDEX] = n + 1
# CHECK-NEXT: x_1: pl.Scalar[pl.INDEX] = x * 2
# CHECK-NEXT: acc: pl.Scalar[pl.INDEX] = 0
# CHECK-NEXT: for i, (acc_1, x_2) in pl.range(4, init_values=(acc, x_1)):
# CHECK-NEXT:     acc_2: pl.Scalar[pl.INDEX] = acc_1 + x_2
# CHECK-NEXT:     x_3: pl.Scalar[pl.INDEX] = x_2 + 1
# CHECK-NEXT:     acc_3, x_4 = pl.yield_(acc_2, x_3)
# CHECK-NEXT: if c:
# CHECK-NEXT:     acc_4: pl.Scalar[pl.INDEX] = acc_3 + 1
# CHECK-NEXT:     acc_5: pl.Scalar[pl.INDEX] = pl.yield_(acc_4)
# CHECK-NEXT: else:
# CHECK-NEXT:     y: pl.Scalar[pl.INDEX] = 3
# CHECK-NEXT:     acc_5: pl.Scalar[pl.INDEX] = pl.yield_(acc_3)
# CHECK-NEXT: if c:
# CHECK-NEXT:     z: pl.Scalar[pl.INDEX] = 1
# CHECK-NEXT:     z_2: pl.Scalar[pl.INDEX] = pl.yield_(z)
# CHECK-NEXT: else:
# CHECK-NEXT:     z_1: pl.Scalar[pl.INDEX] = 2
# CHECK-NEXT:     z_2: pl.Scalar[pl.INDEX] = pl.yield_(z_1)
# CHECK-NEXT: if c:
# CHECK-NEXT:     x_5: pl.Scalar[pl.INDEX] = x_4 + 5
# CHECK-NEXT:     x_6: pl.Scalar[pl.INDEX] = pl.yield_(x_5)
# CHECK-NEXT: else:
# CHECK-NEXT:     x_6: pl.Scalar[pl.INDEX] = pl.yield_(x_4)
# CHECK-NEXT: r: pl.Scalar[pl.INDEX] = acc_5 + z_2 + x_6
# CHECK-NEXT: return r
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class SSA:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, n: pl.Scalar[pl.INDEX], c: pl.Scalar[pl.BOOL]):
        x = n + 1
        x = x * 2
        acc = 0
        for i in pl.range(4):
            acc = acc + x
            x = x + 1
        if c:
            acc = acc + 1
        else:
            y = 3
        if c:
            z = 1
        else:
            z = 2
        if c:
            x = x + 5
        r = acc + z + x
        return r
