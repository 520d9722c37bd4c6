# lower-auto-vector-split: what the region path cannot halve is reported (never
# skipped): odd split extents, tiles from outside the region, tensor-level
# transfers, tile-yielding ifs; a function-level split together with regions.
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# RUN: not pypto-opt %s --passes=lower-auto-vector-split 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class SplitErrors:
    @pl.function(type=pl.FunctionType.InCore)
    def odd(self, x: pl.Tensor[[7, 64], pl.FP32], out: pl.Out[pl.Tensor[[7, 64], pl.FP32]]):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            # CHECK: split_errors.pir:[[@LINE+1]]:13: error: lower-auto-vector-split: tile.load whose split extent 7 is odd inside a pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN) region is not supported; only full-width element-wise tile work (tile.load / tile.store of 2-D tensors, tile.create, element-wise tile ops) can be halved
            t: pl.Tile[[7, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [7, 64])
            pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def outside(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            # CHECK: split_errors.pir:[[@LINE+1]]:13: error: lower-auto-vector-split: tile.add of tile 't' defined outside the region inside a pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN) region is not supported; only full-width element-wise tile work (tile.load / tile.store of 2-D tensors, tile.create, element-wise tile ops) can be halved
            u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
            pl.tile.store(u, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def transfer(self, x: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            # CHECK: split_errors.pir:[[@LINE+1]]:13: error: lower-auto-vector-split: pld.tensor.put (its tensor regions are not halved) inside a pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT) region is not supported; only full-width element-wise tile work (tile.load / tile.store of 2-D tensors, tile.create, element-wise tile ops) can be halved
            pld.tensor.put(dst, 0, x)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def branchy(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]], k: pl.Scalar[pl.INDEX]):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
            # CHECK: split_errors.pir:[[@LINE+1]]:13: error: lower-auto-vector-split: an if yielding a tile ('v') inside a pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN) region is not supported; only full-width element-wise tile work (tile.load / tile.store of 2-D tensors, tile.create, element-wise tile ops) can be halved
            if k > 0:
                u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
                v: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(u)
            else:
                v: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(t)
            pl.tile.store(v, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.InCore, split=pl.SplitMode.UP_DOWN)
    # CHECK: split_errors.pir:[[@LINE+1]]:9: error: lower-auto-vector-split: kernel 'both' has both a function-level split and pl.split_aiv regions; use one of them
    def both(self, x: pl.Tensor[[16, 64], pl.FP32]):
        for aiv_id in pl.split_aiv(2):
            pass
        return

    # A function-level split on a pure-vector kernel halves its whole body, so
    # what cannot be halved is reported naming the kernel and its split (never
    # ignored, which would run the full-width body on both lanes).
    @pl.function(type=pl.FunctionType.InCore, split=pl.SplitMode.LEFT_RIGHT)
    def auto_odd(self, x: pl.Tensor[[16, 63], pl.FP32], out: pl.Out[pl.Tensor[[16, 63], pl.FP32]]):
        # CHECK: split_errors.pir:[[@LINE+1]]:9: error: lower-auto-vector-split: tile.load whose split extent 63 is odd inside kernel 'auto_odd' (its split=pl.SplitMode.LEFT_RIGHT halves the whole body) is not supported; only full-width element-wise tile work (tile.load / tile.store of 2-D tensors, tile.create, element-wise tile ops) can be halved
        t: pl.Tile[[16, 63], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 63])
        pl.tile.store(t, [0, 0], out)
        return

    # The AUTO split of a kernel mixing cube and vector work is not implemented:
    # an error at the first cube call (the load into Mat), never a silently unsplit kernel.
    @pl.function(type=pl.FunctionType.InCore, split=pl.SplitMode.UP_DOWN)
    def auto_mixed(self, a: pl.Tensor[[16, 16], pl.FP16], b: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        # CHECK: split_errors.pir:[[@LINE+1]]:14: error: lower-auto-vector-split: kernel 'auto_mixed' with split=pl.SplitMode.UP_DOWN mixes cube and vector work (tile.load); the AUTO vector split of mixed kernels is not supported
        ma = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        mb = pl.load(b, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        la = pl.move(ma, target_memory=pl.Mem.Left)
        rb = pl.move(mb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, rb)
        v = pl.move(acc, target_memory=pl.Mem.Vec)
        pl.store(v, [0, 0], c)
        return
