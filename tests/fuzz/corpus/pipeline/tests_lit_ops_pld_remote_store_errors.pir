# remote_store verifier: source level (naming the sibling), dtype, target rank, leading-1 sources, region fit, atomic-add dtypes.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadRemoteStore:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], h: pl.Tensor[[16, 64], pl.FP16], x3: pl.Tensor[[2, 16, 64], pl.FP32], w: pld.DistributedTensor[[32, 64], pl.FP32], w1: pld.DistributedTensor[[64], pl.FP32], q: pl.Tensor[[16, 64], pl.INT64], wq: pld.DistributedTensor[[32, 64], pl.INT64], peer: pl.Scalar[pl.INT32]):
        # CHECK: remote_store_errors.pir:[[@LINE+1]]:31: error: pld.tile.remote_store: argument 'src_tile' must be a pl.Tile, got pl.Tensor{{\[\[}}16, 64], pl.FP32]; to push a tensor-level value use pld.tensor.remote_store
        pld.tile.remote_store(x, w, peer, [0, 0])
        # CHECK: remote_store_errors.pir:[[@LINE+1]]:33: error: pld.tensor.remote_store: argument 'src' has element type pl.FP16 but 'target' has pl.FP32; remote_store does not convert
        pld.tensor.remote_store(h, w, peer, [0, 0])
        # CHECK: remote_store_errors.pir:[[@LINE+1]]:36: error: pld.tensor.remote_store: argument 'target' has rank 1; remote_store needs a target of rank >= 2 (the push lands on its inner two dims)
        pld.tensor.remote_store(x, w1, peer, [0])
        # CHECK: remote_store_errors.pir:[[@LINE+1]]:33: error: pld.tensor.remote_store: argument 'src' has shape [2, 16, 64] with leading dim 0 = 2; an N-D source must have every leading dim 1 (a larger extent would fold into the row count and overrun the target)
        pld.tensor.remote_store(x3, w, peer, [0, 0])
        # CHECK: remote_store_errors.pir:[[@LINE+1]]:45: error: pld.tensor.remote_store: argument 'offsets' places the pushed [16, 64] region outside 'target' [32, 64] in dim 0 (24 + 16 > 32); the region must fit inside the peer's slice
        pld.tensor.remote_store(x, w, peer, [24, 0])
        # CHECK: remote_store_errors.pir:[[@LINE+1]]:36: error: pld.tensor.remote_store: argument 'target' has element type pl.INT64, which has no hardware atomic add; atomic=pld.AtomicType.Add requires FP32, BF16, FP16, INT32, INT16 or INT8 (or use atomic=pld.AtomicType.None_)
        pld.tensor.remote_store(q, wq, peer, [0, 0], atomic=pld.AtomicType.Add)
        # CHECK-NOT: error
        return
