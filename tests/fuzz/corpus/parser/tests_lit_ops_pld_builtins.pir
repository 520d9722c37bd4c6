# builtin.tensor.* (LowerHostTensorCollectives output): every dispatch prints as pl.builtin.tensor.* and parses back (pypto-opt reads pass output).
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: pl.builtin.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum, dtype=pl.FP32)
# CHECK: pl.builtin.tensor.allreduce_ring(data, ring, op=pld.ReduceOp.Max, dtype=pl.FP32)
# CHECK: pl.builtin.tensor.barrier(sig)
# CHECK: pl.builtin.tensor.broadcast(rows, sig2, root=1, dtype=pl.FP32)
# CHECK: pl.builtin.tensor.reduce_scatter(rows, sig2, op=pld.ReduceOp.Sum, dtype=pl.FP32)
# CHECK: pl.builtin.tensor.allgather(chunk, rows, sig2, dtype=pl.FP32)
# CHECK: pl.builtin.tensor.all_to_all_v(a, b, sig2, send, recv, dtype=pl.FP32)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Builtins:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[256], pl.FP32]], rows: pl.InOut[pld.DistributedTensor[[4, 64], pl.FP32]], chunk: pl.Tensor[[1, 64], pl.FP32], sig: pl.InOut[pld.DistributedTensor[[4], pl.INT32]], sig2: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]], ring: pl.InOut[pld.DistributedTensor[[7, 4], pl.INT32]], rin: pl.Tensor[[4, 64], pl.FP32], a: pld.DistributedTensor[[8, 32], pl.FP32], b: pl.InOut[pld.DistributedTensor[[8, 32], pl.FP32]], send: pld.DistributedTensor[[4], pl.INT32], recv: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        x = pl.builtin.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum, dtype=pl.FP32)
        y = pl.builtin.tensor.allreduce_ring(data, ring, op=pld.ReduceOp.Max, dtype=pl.FP32)
        s = pl.builtin.tensor.barrier(sig)
        z = pl.builtin.tensor.broadcast(rows, sig2, root=1, dtype=pl.FP32)
        w = pl.builtin.tensor.reduce_scatter(rows, sig2, op=pld.ReduceOp.Sum, dtype=pl.FP32)
        g = pl.builtin.tensor.allgather(chunk, rows, sig2, dtype=pl.FP32)
        t = pl.builtin.tensor.all_to_all(rin, rows, sig2, dtype=pl.FP32)
        v = pl.builtin.tensor.all_to_all_v(a, b, sig2, send, recv, dtype=pl.FP32)
        return
