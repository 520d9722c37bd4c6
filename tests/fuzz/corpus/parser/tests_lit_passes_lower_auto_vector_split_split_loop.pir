# lower-auto-vector-split: a for loop inside an UP_DOWN region may carry a tile;
# the iter arg and return var take the halved type.
# RUN: pypto-opt %s --passes=lower-auto-vector-split --verify-each --roundtrip-each | FileCheck %s
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_split.py %s %t.d/acc --kernel accumulate --outputs out | FileCheck %s --check-prefix=DIFF
# DIFF: out: OK
# DIFF: FAILURES 0
# (Not run through --pipeline=default here: flatten-tile-nd-to-2d's roundtrip of a
# tile-carrying loop with an annotated memory space fails before this pass runs.)
# A for loop carrying a tile carries the halved tile:
# CHECK-LABEL: def accumulate(
# CHECK-NEXT: aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK-NEXT: t: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [aiv_id * 8, 0], [8, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT: for i, (acc,) in pl.range(3, init_values=(t,)):
# CHECK-NEXT: nxt: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
# CHECK-NEXT: acc_out: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
# CHECK-NEXT: pl.tile.store(acc_out, [aiv_id * 8, 0], out)
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class SplitLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def accumulate(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
            for i, (acc,) in pl.range(0, 3, 1, init_values=(t,)):
                nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
                acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
            pl.tile.store(acc_out, [0, 0], out)
        return
