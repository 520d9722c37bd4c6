# A name first bound inside a loop body or an if branch ends with that block:
# a later loop that binds the same name does not carry it (its init would be out
# of scope) but gets a fresh version; a branch-only name is not merged by a
# later if either. Names in scope before a loop are still carried.
# RUN: pypto-opt %s --passes=convert-to-ssa --verify-each --roundtrip-each | FileCheck %s
# CHECK-LABEL: def k(
# CHECK:       for i in pl.range(2):
# CHECK-NEXT:      t: pl.Tile{{.*}} = pl.tile.load(x, [0, 0], [1, 64])
# CHECK:       for j in pl.range(2):
# CHECK-NEXT:      t_1: pl.Tile{{.*}} = pl.tile.load(x, [0, 0], [1, 64])
# CHECK:       if n > 0:
# CHECK-NEXT:      u: pl.Scalar[pl.INDEX] = n + 1
# CHECK-NEXT:  else:
# CHECK-NEXT:      v: pl.Scalar[pl.INDEX] = n + 2
# CHECK:       for k, (acc_1,) in pl.range(3, init_values=(acc,)):
# CHECK-NEXT:      u_1: pl.Scalar[pl.INDEX] = acc_1 + k
# CHECK-NEXT:      acc_2: pl.Scalar[pl.INDEX] = u_1
# CHECK-NEXT:      acc_3: pl.Scalar[pl.INDEX] = pl.yield_(acc_2)
# CHECK-NEXT:  return acc_3
import pypto.language as pl


@pl.program
class Scoping:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        for i in pl.range(2):
            t = pl.load(x, [0, 0], [1, 64])
            pl.store(t, [0, 0], y)
        for j in pl.range(2):
            t = pl.load(x, [0, 0], [1, 64])
            pl.store(t, [0, 0], y)
        if n > 0:
            u = n + 1
        else:
            v = n + 2
        acc = n
        for k in pl.range(3):
            u = acc + k
            acc = u
        return acc
