# tile.load / tile.create without target_memory get the space their consumer
# requires (tile.add reads Vec) or Vec by default; later calls are re-deduced.
# RUN: pypto-opt %s --passes=infer-tile-memory-space --verify-each --roundtrip-each | FileCheck %s
# CHECK:      t: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT: s: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT: u: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, s)
# CHECK-NEXT: pl.tile.store(u, [0, 0], a)
import pypto.language as pl


@pl.program
class Infer:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]):
        t = pl.tile.load(a, [0, 0], [16, 64])
        s = pl.tile.create([16, 64], dtype=pl.FP32)
        u = pl.tile.add(t, s)
        pl.tile.store(u, [0, 0], a)
        return
