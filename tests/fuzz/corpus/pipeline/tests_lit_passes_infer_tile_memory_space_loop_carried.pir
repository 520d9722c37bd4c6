# Loop-carried tiles follow their producers: the accumulator loaded without a
# space (inferred Vec from its consumer tile.add) is carried through a for loop
# and an if inside it; the iter arg, the if's return var and the loop's return
# var all end up Vec, so the store sees a Vec tile.
# RUN: pypto-opt %s --passes=infer-tile-memory-space --verify-each --roundtrip-each | FileCheck %s
# CHECK:      acc: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [1, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT: for i, (acc_it,) in pl.range(4, init_values=(acc,)):
# CHECK-NEXT:     if i != 0:
# CHECK-NEXT:         nxt: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc_it, acc_it)
# CHECK-NEXT:         sel: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
# CHECK-NEXT:     else:
# CHECK-NEXT:         sel: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_it)
# CHECK-NEXT:     acc_out: pl.Tile{{\[\[}}1, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(sel)
# CHECK-NEXT: pl.tile.store(acc_out, [0, 0], a)
import pypto.language as pl


@pl.program
class Carried:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.InOut[pl.Tensor[[1, 64], pl.FP32]]):
        acc = pl.tile.load(a, [0, 0], [1, 64])
        for i, (acc_it,) in pl.range(4, init_values=(acc,)):
            if i != 0:
                nxt = pl.tile.add(acc_it, acc_it)
                sel: pl.Tile[[1, 64], pl.FP32] = pl.yield_(nxt)
            else:
                sel: pl.Tile[[1, 64], pl.FP32] = pl.yield_(acc_it)
            acc_out: pl.Tile[[1, 64], pl.FP32] = pl.yield_(sel)
        pl.tile.store(acc_out, [0, 0], a)
        return
