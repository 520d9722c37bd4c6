# A side-effecting op call returned directly is bound to a Var first, named
# after the argument it writes, so later passes and the PTO backend see the
# store as a statement; a pure value or a function call is returned as is.
# RUN: pypto-opt %s --passes=simplify --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s --check-prefix=PTO
# CHECK-LABEL: def k(
# CHECK:       t: pl.Tile{{.*}} = pl.tile.load(x, [0, 0], [1, 64])
# CHECK-NEXT:  y_1: pl.Tensor{{\[\[}}1, 64], pl.FP32] = pl.tile.store(t, [0, 0], y)
# CHECK-NEXT:  return y_1
# CHECK-LABEL: def orch(
# CHECK-NEXT:  return self.k(x, y)
# PTO:         pto.tstore
# PTO-NEXT:    return
import pypto.language as pl


@pl.jit.incore
def k(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
    t = pl.load(x, [0, 0], [1, 64])
    return pl.store(t, [0, 0], y)


@pl.jit
def orch(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
    return k(x, y)
