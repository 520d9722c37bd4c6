# N-D tiles become [prod(leading), last]: tile.create is rebuilt, an N-D
# tile.load keeps its tensor-rank window and gains tile_2d=True (its result is
# the 2-D tile; upstream's contract: only the tile changes), elementwise ops and
# loop iter_args / return vars follow, tile.read indices are linearised
# ([1, 2, 3] -> [1 * 4 + 2, 3]) and tile.store keeps its tensor-rank offsets and
# gains the shapes argument.
# RUN: pypto-opt %s --passes=flatten-tile-nd-to-2d --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=flatten-tile-nd-to-2d,flatten-tile-nd-to-2d --verify-each | FileCheck %s
# CHECK:      t: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [2, 0, 0], [2, 4, 64], target_memory=pl.Mem.Vec, tile_2d=True)
# CHECK-NEXT: s: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([8, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT: u: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, s)
# CHECK-NEXT: for i, (acc,) in pl.range(2, init_values=(u,)):
# CHECK-NEXT:     nxt: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
# CHECK-NEXT:     acc_out: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
# CHECK-NEXT: v: pl.Scalar[pl.FP32] = pl.tile.read(acc_out, [6, 3])
# CHECK-NEXT: pl.tile.store(acc_out, [2, 0, 0], out, [2, 4, 64])
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Flat:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[8, 4, 64], pl.FP32], out: pl.Out[pl.Tensor[[8, 4, 64], pl.FP32]]):
        t = pl.tile.load(a, [2, 0, 0], [2, 4, 64], target_memory=pl.Mem.Vec)
        s = pl.tile.create([2, 4, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        u = pl.tile.add(t, s)
        for i, (acc,) in pl.range(0, 2, 1, init_values=(u,)):
            nxt = pl.tile.add(acc, t)
            acc_out = pl.yield_(nxt)
        v = pl.tile.read(acc_out, [1, 2, 3])
        pl.tile.store(acc_out, [2, 0, 0], out)
        return
