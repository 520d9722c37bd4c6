# pld.tensor.all_to_all_v: packed flat layouts, [NR] send counts, window-as-result.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: r: pld.DistributedTensor{{\[\[}}8, 32], pl.FP32] = pld.tensor.all_to_all_v(inp, out, sig, send, recv)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class A2AV:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, inp: pl.Tensor[[8, 32], pl.FP32], out: pl.InOut[pld.DistributedTensor[[8, 32], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]], send: pl.Tensor[[4], pl.INT32], recv: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        r = pld.tensor.all_to_all_v(inp, out, sig, send, recv)
        return
