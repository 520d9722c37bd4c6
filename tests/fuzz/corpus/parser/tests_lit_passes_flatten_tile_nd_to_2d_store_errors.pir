# A 2-D tile stored through an N-D `shapes` region (flatten-tile-nd-to-2d's
# store form) needs its valid rows to be whole rows of the region: 5 valid rows
# of an [8, 64] tile are not a box of the [2, 4, 64] region, and a partly valid
# tile cannot be stored through a region with a different last extent. The PTO
# emitter reports both at the store (exit 1).
# RUN: %python %S/../../tools/Inputs/expect_exit.py 1 pypto-opt %s --emit=pto 2>&1 | FileCheck %s
# CHECK: store_errors.pir:[[@LINE+10]]:9: error: tile.store: the valid rows (5) of the flattened tile are not whole rows of the [2, 4, 64] region, which is not supported by the PTO backend; store a valid box of whole rows
# CHECK: store_errors.pir:[[@LINE+15]]:9: error: tile.store: a partly valid [8, 64] tile stored through the [2, 2, 128] region (a different last extent) is not supported by the PTO backend; store through a region ending in 64
import pypto.language as pl


@pl.program
class StoreErrors:
    @pl.function(type=pl.FunctionType.AIV)
    def rows(self, x: pl.Tensor[[8, 64], pl.FP32], out: pl.Out[pl.Tensor[[2, 4, 64], pl.FP32]]):
        t = pl.tile.load(x, [0, 0], [8, 64], [5, 64], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [0, 0, 0], out, [2, 4, 64])
        return

    @pl.function(type=pl.FunctionType.AIV)
    def cols(self, x: pl.Tensor[[8, 64], pl.FP32], out: pl.Out[pl.Tensor[[2, 2, 128], pl.FP32]]):
        t = pl.tile.load(x, [0, 0], [8, 64], [4, 64], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [0, 0, 0], out, [2, 2, 128])
        return
