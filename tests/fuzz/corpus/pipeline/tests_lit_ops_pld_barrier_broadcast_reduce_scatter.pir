# pld.tensor.barrier / broadcast / reduce_scatter: window-as-result rebinding with [NR, 1] and [NR] signals.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: s: pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32] = pld.tensor.barrier(sig)
# CHECK: b: pld.DistributedTensor{{\[\[}}NR, 64], pl.FP32] = pld.tensor.broadcast(data, sig1, root=0)
# CHECK: pld.tensor.reduce_scatter(data, sig, op=pld.ReduceOp.Sum)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BBRS:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, data: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], sig1: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]]):
        s = pld.tensor.barrier(sig)
        b = pld.tensor.broadcast(data, sig1, root=0)
        r = pld.tensor.reduce_scatter(data, sig, op=pld.ReduceOp.Sum)
        return
