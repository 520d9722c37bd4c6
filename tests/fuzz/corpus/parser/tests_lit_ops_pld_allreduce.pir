# pld.tensor.allreduce: window-as-result in kernels (mesh/ring signals, every ReduceOp) and on the host (synthesized signal, multi-core mesh).
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: a: pld.DistributedTensor{{\[\[}}256], pl.FP32] = pld.tensor.allreduce(data, sig)
# CHECK: pld.tensor.allreduce(h, sig, op=pld.ReduceOp.Prod)
# CHECK: pld.tensor.allreduce(data, ring, op=pld.ReduceOp.Min, mode="ring")
# CHECK: pld.tensor.allreduce(data, op=pld.ReduceOp.Max)
# CHECK: pld.tensor.allreduce(data, sig, core_num=4)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Allreduce:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, data: pl.InOut[pld.DistributedTensor[[256], pl.FP32]], h: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], ring: pl.InOut[pld.DistributedTensor[[2 * (NR - 1), NR], pl.INT32]]):
        a = pld.tensor.allreduce(data, sig)
        b = pld.tensor.allreduce(h, sig, op=pld.ReduceOp.Prod)
        c = pld.tensor.allreduce(data, ring, op=pld.ReduceOp.Min, mode="ring")
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, ):
        buf = pld.alloc_window_buffer(1024)
        data = pld.window(buf, [256], dtype=pl.FP32)
        sbuf = pld.alloc_window_buffer(256)
        sig = pld.window(sbuf, [8, 4], dtype=pl.INT32)
        data = pld.tensor.allreduce(data, op=pld.ReduceOp.Max)
        data = pld.tensor.allreduce(data, sig, core_num=4)
        return
