# pld.tensor.put verifier: window-bound dst, dtype/shape agreement, all-or-none region, bounds, chunks, pipeline, dynamic extents, atomic dtypes.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadPut:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], h: pl.Tensor[[16, 64], pl.FP16], n: pl.Tensor[[16, 32], pl.FP32], win: pld.DistributedTensor[[32, 64], pl.FP32], w16: pld.DistributedTensor[[16, 64], pl.FP32], dyn: pld.DistributedTensor[[NR, 64], pl.FP32], dx: pl.Tensor[[NR, 64], pl.FP32], q: pl.Tensor[[16, 64], pl.INT64], wq: pld.DistributedTensor[[16, 64], pl.INT64], peer: pl.Scalar[pl.INT32]):
        # CHECK: put_errors.pir:[[@LINE+1]]:24: error: pld.tensor.put: argument 'dst' must be a pld.DistributedTensor (window-bound), got pl.Tensor{{\[\[}}16, 64], pl.FP32]
        pld.tensor.put(x, peer, x)
        # CHECK: put_errors.pir:[[@LINE+1]]:35: error: pld.tensor.put: argument 'src' has element type pl.FP16 but 'dst' has pl.FP32; put/get move bytes without conversion, so both sides need the same element type
        pld.tensor.put(w16, peer, h)
        # CHECK: put_errors.pir:[[@LINE+1]]:35: error: pld.tensor.put: argument 'src' has shape [16, 32] but 'dst' has shape [16, 64] (dim 1); a full-slice transfer needs equal shapes — pass dst_offsets, src_offsets and shape to move a sub-region
        pld.tensor.put(w16, peer, n)
        # CHECK: put_errors.pir:[[@LINE+1]]:9: error: pld.tensor.put: dst_offsets, src_offsets and shape must be given all together (got 1 of the 3); omit all three for a full-slice transfer
        pld.tensor.put(win, peer, x, [0, 0])
        # CHECK: put_errors.pir:[[@LINE+1]]:38: error: pld.tensor.put: argument 'dst_offsets' places the [16, 64] transfer region outside 'dst' in dim 0 (24 + 16 > 32); the region must lie inside [32, 64]
        pld.tensor.put(win, peer, x, [24, 0], [0, 0], [16, 64])
        # CHECK: put_errors.pir:[[@LINE+1]]:49: error: pld.tensor.put: keyword 'chunk_rows' is -1; chunk sizes must be non-negative (0 = the full transfer extent)
        pld.tensor.put(w16, peer, x, chunk_rows=-1)
        # CHECK: put_errors.pir:[[@LINE+1]]:61: error: pld.tensor.put: keyword 'pipeline' requires both chunk_rows and chunk_cols to be set (> 0); double-buffering only helps a chunked transfer
        pld.tensor.put(w16, peer, x, chunk_rows=4, pipeline=True)
        # CHECK: put_errors.pir:[[@LINE+1]]:24: error: pld.tensor.put: argument 'dst' gives a transfer extent [NR, 64] with a dynamic leading dim; pass chunk_rows= to bound the statically allocated staging tile
        pld.tensor.put(dyn, peer, dx)
        # CHECK: put_errors.pir:[[@LINE+1]]:24: error: pld.tensor.put: argument 'dst' has element type pl.INT64, which has no hardware atomic add; atomic=pld.AtomicType.Add requires FP32, BF16, FP16, INT32, INT16 or INT8 (or use atomic=pld.AtomicType.None_)
        pld.tensor.put(wq, peer, q, atomic=pld.AtomicType.Add)
        # CHECK-NOT: error
        return
