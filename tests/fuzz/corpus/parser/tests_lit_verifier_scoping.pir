# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Verifier: values assigned inside a loop body are local to it; use the loop's
# iter args / results to carry them out.
import pypto.language as pl


@pl.program
class Scoping:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])
        for i in pl.range(0, 4, 1):
            inner: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
        # CHECK: scoping.pir:[[@LINE+3]]:53: error: use of 'inner' before its definition
        # CHECK-NEXT: u: pl.Tile
        # CHECK: scoping.pir:[[@LINE-3]]:13: note: 'inner' is defined here
        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(inner, t)
        return
