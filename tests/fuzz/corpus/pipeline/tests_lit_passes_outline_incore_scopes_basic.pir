# Live-ins become params (tensors first, then scalars, in first-use order);
# a value defined inside and used after the scope is returned; y is only
# written (tile.store) so it becomes Out; the Opaque parent becomes Orchestration.
# RUN: pypto-opt %s --passes=outline-incore-scopes --verify-each --roundtrip-each | FileCheck %s
# CHECK:      @pl.function(type=pl.FunctionType.InCore)
# CHECK-NEXT: def main_incore_0(self, x: pl.Tensor{{\[\[}}16, 64], pl.FP32], y: pl.Out[pl.Tensor{{\[\[}}16, 64], pl.FP32]], k: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
# CHECK-NEXT:     t: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     u: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
# CHECK-NEXT:     pl.tile.store(u, [0, 0], y)
# CHECK-NEXT:     m: pl.Scalar[pl.INDEX] = k * 2
# CHECK-NEXT:     return m
# CHECK:      @pl.function(type=pl.FunctionType.Orchestration)
# CHECK-NEXT: def main(self, x: pl.Tensor{{\[\[}}16, 64], pl.FP32], y: pl.Tensor{{\[\[}}16, 64], pl.FP32], n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
# CHECK-NEXT:     k: pl.Scalar[pl.INDEX] = n + 1
# CHECK-NEXT:     m: pl.Scalar[pl.INDEX] = self.main_incore_0(x, y, k)
# CHECK-NEXT:     r: pl.Scalar[pl.INDEX] = m + 1
# CHECK-NEXT:     return r
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Outline:
    @pl.function
    def main(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX]):
        k = n + 1
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
            u = pl.tile.add(t, t)
            pl.tile.store(u, [0, 0], y)
            m = k * 2
        r = m + 1
        return r
