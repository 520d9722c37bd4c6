# tile.set_validshape on a loop result. ptoas resizes only a tile bound by a
# local alloc_tile, so the loop's carried buffers must be one buffer: the
# result is then re-bound at that address (tile_ops.pir shows the accepted
# form). When the init is still read after the body writes the next value, one
# buffer would be wrong, and the emitter says so at the call; likewise for an
# if result (not coalesced).
# RUN: not pypto-opt %s --emit=pto 2>&1 | FileCheck %s
# CHECK: carried_resize.pir:[[@LINE+16]]:13: error: tile.set_validshape: the tile it resizes is a loop or if result that is not one buffer on every path, and the PTO backend can resize only a buffer it allocated; resize the tile before it is yielded instead (a loop result is one buffer when the loop's init is not read after the body writes the next value)
# CHECK: carried_resize.pir:[[@LINE+28]]:13: error: tile.set_validshape: the tile it resizes is a loop or if result
# CHECK-NOT: error
import pypto.language as pl


@pl.program
class CarriedResize:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], n: pl.Scalar[pl.INDEX]):
        a = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        b = pl.tile.mul(a, a)
        for i, (acc,) in pl.range(0, n, 1, init_values=(b,)):
            s = pl.tile.add(acc, a)
            t = pl.tile.add(s, b)
            acc_out = pl.yield_(t)
        v = pl.tile.set_validshape(acc_out, 8, 32)
        pl.tile.store(v, [0, 0], y)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def branch(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], n: pl.Scalar[pl.INDEX]):
        a = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        if n > 2:
            b = pl.tile.mul(a, a)
            r = pl.yield_(b)
        else:
            c = pl.tile.add(a, a)
            r = pl.yield_(c)
        v = pl.tile.set_validshape(r, 8, 32)
        pl.tile.store(v, [0, 0], y)
        return
