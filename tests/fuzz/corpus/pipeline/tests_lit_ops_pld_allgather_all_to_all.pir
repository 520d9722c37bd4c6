# pld.tensor.allgather / all_to_all: plain-Tensor inputs, window targets returned as the result.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: a: pld.DistributedTensor{{\[\[}}NR, 64], pl.FP32] = pld.tensor.allgather(chunk, g, sig)
# CHECK: b: pld.DistributedTensor{{\[\[}}NR, 64], pl.FP32] = pld.tensor.all_to_all(rows, x, sig)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Gather:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, chunk: pl.Tensor[[1, 64], pl.FP32], rows: pl.Tensor[[NR, 64], pl.FP32], g: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]], x: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        a = pld.tensor.allgather(chunk, g, sig)
        b = pld.tensor.all_to_all(rows, x, sig)
        return
