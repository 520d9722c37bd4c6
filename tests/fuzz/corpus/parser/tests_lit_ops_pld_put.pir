# pld.tensor.put: full slice from a plain Tensor, region, atomic add, chunked + pipelined, dynamic extent bounded by chunks.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: pld.tensor.put(w16, peer, x)
# CHECK: pld.tensor.put(win, peer, x, [16, 0], [0, 0], [16, 64], atomic=pld.AtomicType.Add)
# CHECK: pld.tensor.put(w16, peer, x, chunk_rows=4, chunk_cols=32, pipeline=True)
# CHECK: pld.tensor.put(dyn, peer, dx, chunk_rows=8)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Put:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], win: pl.InOut[pld.DistributedTensor[[32, 64], pl.FP32]], w16: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], dyn: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]], dx: pl.Tensor[[NR, 64], pl.FP32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(w16, peer, x)
        pld.tensor.put(win, peer, x, [16, 0], [0, 0], [16, 64], atomic=pld.AtomicType.Add)
        pld.tensor.put(w16, peer, x, chunk_rows=4, chunk_cols=32, pipeline=True)
        pld.tensor.put(dyn, peer, dx, chunk_rows=8)
        return
