# tensor.assemble in a kernel becomes tile.store from the source's tile: a
# converted source is stored from its tile (c), a tensor param from its entry load
# (a_tile), a nested view is named `assemble_src` and loaded, a nested converted op
# becomes a named tile op, a nested view target is named `assemble_dst`; a
# DistributedTensor target is written the same way (w gains pl.Out). tensor.adds and tensor.mul with a scalar rhs become tile.adds /
# tile.muls (the scalar passes through).
# RUN: pypto-opt %s --passes=convert-tensor-to-tile-ops --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def kernel(self, a: pl.Tensor{{\[\[}}16, 64], pl.FP32], w: pl.Out[pld.DistributedTensor{{\[\[}}32, 64], pl.FP32]], y: pl.Out[pl.Tensor{{\[\[}}32, 64], pl.FP32]], s: pl.Scalar[pl.FP32]) -> pl.Tensor{{\[\[}}32, 64], pl.FP32]:
# CHECK-NEXT:     a_tile: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     b: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(a_tile, s)
# CHECK-NEXT:     c: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(b, 2.0)
# CHECK-NEXT:     y_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tile.store(c, [0, 0], y)
# CHECK-NEXT:     y_2: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tile.store(a_tile, [16, 0], y_1)
# CHECK-NEXT:     assemble_src: pl.Tensor{{\[\[}}8, 64], pl.FP32] = pl.tensor.slice(a, [8, 64], [8, 0])
# CHECK-NEXT:     assemble_src_tile: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(assemble_src, [0, 0], [8, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     w_1: pld.DistributedTensor{{\[\[}}32, 64], pl.FP32] = pl.tile.store(assemble_src_tile, [0, 0], w)
# CHECK-NEXT:     assemble_src_1: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.subs(a_tile, 1.0)
# CHECK-NEXT:     pl.tile.store(assemble_src_1, [16, 0], w_1)
# CHECK-NEXT:     assemble_dst: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.slice(y_2, [16, 64], [16, 0])
# CHECK-NEXT:     v: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tile.store(a_tile, [0, 0], assemble_dst)
# CHECK-NEXT:     return y_2
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class AssembleToStore:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 64], pl.FP32], w: pld.DistributedTensor[[32, 64], pl.FP32], y: pl.Out[pl.Tensor[[32, 64], pl.FP32]], s: pl.Scalar[pl.FP32]):
        b = pl.tensor.adds(a, s)
        c = pl.tensor.mul(b, 2.0)
        y_1 = pl.tensor.assemble(y, c, [0, 0])
        y_2 = pl.tensor.assemble(y_1, a, [16, 0])
        w_1 = pl.tensor.assemble(w, pl.tensor.slice(a, [8, 64], [8, 0]), [0, 0])
        pl.tensor.assemble(w_1, pl.tensor.subs(a, 1.0), [16, 0])
        v = pl.tensor.assemble(pl.tensor.slice(y_2, [16, 64], [16, 0]), a, [0, 0])
        return y_2
