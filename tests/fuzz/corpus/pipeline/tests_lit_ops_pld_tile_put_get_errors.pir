# pld.tile.put/get verifier: arity, Vec stage, stage within the flattened transfer, ping/pong shapes, 7-argument region naming.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadTilePutGet:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], win: pld.DistributedTensor[[32, 64], pl.FP32], w16: pld.DistributedTensor[[16, 64], pl.FP32], peer: pl.Scalar[pl.INT32]):
        ping = pl.tile.create([4, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        mat = pl.tile.create([4, 32], dtype=pl.FP32, target_memory=pl.Mem.Mat)
        big = pl.tile.create([32, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        odd = pl.tile.create([4, 16], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        # CHECK: tile_put_get_errors.pir:[[@LINE+1]]:9: error: pld.tile.put: takes 4, 5, 7 or 8 arguments (dst, peer, src, stage[, stage2][, dst_offsets, src_offsets, shape]), got 6; the region tuples must be given all together
        pld.tile.put(w16, peer, x, ping, [0, 0], [0, 0])
        # CHECK: tile_put_get_errors.pir:[[@LINE+1]]:36: error: pld.tile.get: argument 'stage' is in pl.Mem.Mat; TPUT/TGET stage through UB, so the staging tile must be in pl.Mem.Vec
        pld.tile.get(x, peer, w16, mat)
        # CHECK: tile_put_get_errors.pir:[[@LINE+1]]:36: error: pld.tile.put: argument 'stage' has shape [32, 64], larger than the flattened transfer [16, 64]; a stage may be a chunk of the transfer but never larger
        pld.tile.put(w16, peer, x, big)
        # CHECK: tile_put_get_errors.pir:[[@LINE+1]]:42: error: pld.tile.put: argument 'stage2' has shape [4, 16] but 'stage' has [4, 32]; ping/pong stages must have the same shape
        pld.tile.put(w16, peer, x, ping, odd)
        # CHECK: tile_put_get_errors.pir:[[@LINE+1]]:42: error: pld.tile.put: argument 'dst_offsets' places the [16, 64] transfer region outside 'dst' in dim 0 (24 + 16 > 32); the region must lie inside [32, 64]
        pld.tile.put(win, peer, x, ping, [24, 0], [0, 0], [16, 64])
        # CHECK-NOT: error
        return
