# An N-D load whose inner merged dim does not cover the tensor cannot be one
# 2-D window: reported as not supported (exit 1) at the load.
# RUN: %python %S/../../tools/Inputs/expect_exit.py 1 pypto-opt %s --passes=flatten-tile-nd-to-2d 2>&1 | FileCheck %s
# CHECK: noncontiguous.pir:[[@LINE+8]]:13: error: flatten-tile-nd-to-2d: tile.load: dim 1 of the region (2) does not cover the tensor dim (4) from offset 0; a 2-D tile needs contiguous rows, so this N-D load is not supported
import pypto.language as pl


@pl.program
class NC:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[8, 4, 64], pl.FP32]):
        t = pl.tile.load(a, [0, 0, 0], [2, 2, 64], target_memory=pl.Mem.Vec)
        return
