# pld.tensor.get: full slice into a plain Tensor, region, chunked + pipelined.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: pld.tensor.get(x, peer, w16)
# CHECK: pld.tensor.get(x, peer, win, [0, 0], [16, 0], [16, 64])
# CHECK: pld.tensor.get(x, peer, w16, chunk_rows=8, chunk_cols=64, pipeline=True)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Get:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], win: pld.DistributedTensor[[32, 64], pl.FP32], w16: pld.DistributedTensor[[16, 64], pl.FP32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.get(x, peer, w16)
        pld.tensor.get(x, peer, win, [0, 0], [16, 0], [16, 64])
        pld.tensor.get(x, peer, w16, chunk_rows=8, chunk_cols=64, pipeline=True)
        return
