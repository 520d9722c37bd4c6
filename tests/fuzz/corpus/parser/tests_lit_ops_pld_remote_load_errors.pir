# pld.tile.remote_load verifier: window-bound target, tuple ranks, positive shape, valid extents, physical bounds.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadRemoteLoad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, win: pld.DistributedTensor[[64, 128], pl.FP32], plain: pl.Tensor[[64, 128], pl.FP32], peer: pl.Scalar[pl.INT32]):
        # CHECK: remote_load_errors.pir:[[@LINE+1]]:34: error: pld.tile.remote_load: argument 'target' must be a pld.DistributedTensor (window-bound), got pl.Tensor{{\[\[}}64, 128], pl.FP32]
        a = pld.tile.remote_load(plain, peer, [0, 0], [16, 128])
        # CHECK: remote_load_errors.pir:[[@LINE+1]]:45: error: pld.tile.remote_load: argument 'offsets' must have 2 elements (one per dimension of 'target'), got 1
        b = pld.tile.remote_load(win, peer, [0], [16, 128])
        # CHECK: remote_load_errors.pir:[[@LINE+1]]:53: error: pld.tile.remote_load: argument 'shape' element 1 is 0; tile dimensions must be positive
        c = pld.tile.remote_load(win, peer, [0, 0], [16, 0])
        # CHECK: remote_load_errors.pir:[[@LINE+1]]:64: error: pld.tile.remote_load: argument 'valid_shape' element 0 is 20, larger than the tile's dim 0 (16); a valid extent must lie within the tile shape
        d = pld.tile.remote_load(win, peer, [0, 0], [16, 128], [20, 128])
        # CHECK: remote_load_errors.pir:[[@LINE+1]]:54: error: pld.tile.remote_load: argument 'shape' reads past 'target' in dim 0 (56 + 16 > 64, target shape [64, 128]); pass a valid_shape that stops at the tensor's edge
        e = pld.tile.remote_load(win, peer, [56, 0], [16, 128])
        # CHECK-NOT: error
        return
