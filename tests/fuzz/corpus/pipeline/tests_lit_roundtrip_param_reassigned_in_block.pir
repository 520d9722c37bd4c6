# RUN: pypto-opt %s > %t.1 && pypto-opt %t.1 > %t.2 && diff %t.1 %t.2
# RUN: FileCheck %s < %t.1
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each > /dev/null
# Python lets a block re-assign a parameter and use the new value after the
# block. The IR never re-binds a parameter, so the parser copies it into a fresh
# Var right before the top-level statement whose blocks assign it, and the name
# denotes the copy from there on (loops and branches then carry the copy).
# A parameter re-assigned at the top level still gets a new Var per assignment.
# A local re-assigned with a tile of another memory space keeps its Var (the
# load's space is open until infer-tile-memory-space).
import pypto.language as pl
import pypto.language.distributed as pld

# CHECK-LABEL: def rows(
# CHECK:       y_1: pl.Tensor{{\[\[}}4, 64], pl.FP32] = y
# CHECK-NEXT:  for r in pl.range(4):
# CHECK-NEXT:    t: pl.Tile{{\[\[}}1, 64], pl.FP32] = pl.tile.load(x, [r, 0], [1, 64])
# CHECK-NEXT:    y_1: pl.Tensor{{\[\[}}4, 64], pl.FP32] = pl.tile.store(t, [r, 0], y_1)
# CHECK-NEXT:  return y_1
@pl.jit.incore
def rows(x: pl.Tensor[[4, 64], pl.FP32], y: pl.Out[pl.Tensor[[4, 64], pl.FP32]]):
    for r in pl.range(4):
        t = pl.load(x, [r, 0], [1, 64])
        y = pl.store(t, [r, 0], y)
    return y


# CHECK-LABEL: def root_only(
# CHECK:       w_1: pld.DistributedTensor{{\[\[}}1, 64], pl.FP32] = w
# CHECK-NEXT:  if me == 0:
# CHECK:         w_1: pld.DistributedTensor{{\[\[}}1, 64], pl.FP32] = pl.tile.store(t, [0, 0], w_1)
# CHECK:       acc: pl.Tile{{\[\[}}1, 64], pl.FP32] = pl.tile.load(w_1, [0, 0], [1, 64])
# CHECK-NEXT:  for i in pl.range(3):
# CHECK-NEXT:    acc: pl.Tile{{\[\[}}1, 64], pl.FP32] = pl.tile.add(acc, acc)
# CHECK:       out_1: pl.Tensor{{\[\[}}1, 64], pl.FP32] = pl.tile.store(acc, [0, 0], out)
@pl.jit.incore
def root_only(x: pl.Tensor[[1, 64], pl.FP32], w: pld.DistributedTensor[[1, 64], pl.FP32],
              out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
    ctx = pld.get_comm_ctx(w)
    me = pld.rank(ctx)
    if me == 0:
        t = pl.load(x, [0, 0], [1, 64])
        w = pl.store(t, [0, 0], w)
    acc = pl.load(w, [0, 0], [1, 64])
    for i in pl.range(3):
        acc = pl.add(acc, acc)
    out = pl.store(acc, [0, 0], out)
    return out


@pl.jit
def chip(x: pl.Tensor[[4, 64], pl.FP32], y: pl.Out[pl.Tensor[[4, 64], pl.FP32]],
         x1: pl.Tensor[[1, 64], pl.FP32], w: pld.DistributedTensor[[1, 64], pl.FP32],
         out: pl.Out[pl.Tensor[[1, 64], pl.FP32]]):
    rows(x, y)
    root_only(x1, w, out)
