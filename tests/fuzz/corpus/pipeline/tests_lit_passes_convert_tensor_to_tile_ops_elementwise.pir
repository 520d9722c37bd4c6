# Elementwise tensor ops on tensor params: entry tile.loads (Vec), tile ops, and
# for a returned value an exit tile.store into a new Out param <x>_out; the
# orchestration call site passes a fresh pl.tensor.create.
# RUN: pypto-opt %s --passes=convert-tensor-to-tile-ops --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def kernel(self, a: pl.Tensor{{\[\[}}16, 64], pl.FP32], b: pl.Tensor{{\[\[}}16, 64], pl.FP32], d_out: pl.Out[pl.Tensor{{\[\[}}16, 64], pl.FP32]]) -> pl.Tensor{{\[\[}}16, 64], pl.FP32]:
# CHECK-NEXT:     a_tile: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     b_tile: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(b, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     c: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.mul(a_tile, b_tile)
# CHECK-NEXT:     d: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.maximum(c, a_tile)
# CHECK-NEXT:     d_1: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tile.store(d, [0, 0], d_out)
# CHECK-NEXT:     return d_1
# CHECK:      def main(self, a: pl.Tensor{{\[\[}}16, 64], pl.FP32], b: pl.Tensor{{\[\[}}16, 64], pl.FP32]) -> pl.Tensor{{\[\[}}16, 64], pl.FP32]:
# CHECK-NEXT:     d_out: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.create([16, 64], dtype=pl.FP32)
# CHECK-NEXT:     r: pl.Tensor{{\[\[}}16, 64], pl.FP32] = self.kernel(a, b, d_out)
# CHECK-NEXT:     return r
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Elementwise:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 64], pl.FP32], b: pl.Tensor[[16, 64], pl.FP32]):
        c = pl.tensor.mul(a, b)
        d = pl.tensor.maximum(c, a)
        return d

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, a: pl.Tensor[[16, 64], pl.FP32], b: pl.Tensor[[16, 64], pl.FP32]):
        r = self.kernel(a, b)
        return r
