# pld.tensor.get verifier: window-bound src, no atomic kwarg, region bounds, dynamic innermost extent needs chunk_cols.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadGet:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], win: pld.DistributedTensor[[32, 64], pl.FP32], w16: pld.DistributedTensor[[16, 64], pl.FP32], k: pl.Scalar[pl.INDEX], peer: pl.Scalar[pl.INT32]):
        # CHECK: get_errors.pir:[[@LINE+1]]:33: error: pld.tensor.get: argument 'src' must be a pld.DistributedTensor (window-bound), got pl.Tensor{{\[\[}}16, 64], pl.FP32]
        pld.tensor.get(x, peer, x)
        # CHECK: get_errors.pir:[[@LINE+1]]:38: error: pld.tensor.get: unknown keyword argument 'atomic' (arguments: dst, peer, src, dst_offsets, src_offsets, shape; keywords: chunk_rows, chunk_cols, pipeline)
        pld.tensor.get(x, peer, w16, atomic=pld.AtomicType.Add)
        # CHECK: get_errors.pir:[[@LINE+1]]:46: error: pld.tensor.get: argument 'src_offsets' element 1 is negative (-4); offsets must be non-negative
        pld.tensor.get(x, peer, win, [0, 0], [0, -4], [16, 64])
        # CHECK: get_errors.pir:[[@LINE+1]]:54: error: pld.tensor.get: argument 'shape' gives a transfer extent [16, k] whose innermost dim is dynamic; pass chunk_cols= to bound the statically allocated staging tile
        pld.tensor.get(x, peer, win, [0, 0], [0, 0], [16, k], chunk_rows=8)
        # CHECK-NOT: error
        return
