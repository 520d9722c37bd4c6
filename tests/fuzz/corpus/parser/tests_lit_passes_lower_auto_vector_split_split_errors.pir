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
