# pld.tensor.all_to_all_v verifier: core_num=1, distinct operands, packed ND layout, full valid shape, counts dtype/shape.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadA2AV:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, inp: pl.Tensor[[8, 32], pl.FP32], dn: pl.Tensor[[8, 32], pl.FP32, pl.TensorView(stride=[1, 8], layout=pl.TensorLayout.DN)], out: pld.DistributedTensor[[8, 32], pl.FP32], strided: pld.DistributedTensor[[8, 32], pl.FP32, pl.TensorView(stride=[64, 1], layout=pl.TensorLayout.ND)], sig: pld.DistributedTensor[[4, 1], pl.INT32], send: pl.Tensor[[4], pl.INT32], fsend: pl.Tensor[[4], pl.FP32], recv: pld.DistributedTensor[[4, 1], pl.INT32]):
        # CHECK: all_to_all_v_errors.pir:[[@LINE+1]]:73: error: pld.tensor.all_to_all_v: keyword 'core_num' is 2; every all_to_all_v rail is single-block today, so only core_num=1 is accepted (multi-block launch is planned for the CHIP rail)
        a = pld.tensor.all_to_all_v(inp, out, sig, send, recv, core_num=2)
        # CHECK: all_to_all_v_errors.pir:[[@LINE+1]]:58: error: pld.tensor.all_to_all_v: argument 'recv_counts' is the same value as 'send_counts'; the two operands must be distinct buffers (aliasing them races the exchange)
        b = pld.tensor.all_to_all_v(inp, out, sig, recv, recv)
        # CHECK: all_to_all_v_errors.pir:[[@LINE+1]]:37: error: pld.tensor.all_to_all_v: argument 'input' has layout pl.TensorLayout.DN; it is addressed by flat element arithmetic, so it must be a packed row-major (ND) view
        c = pld.tensor.all_to_all_v(dn, out, sig, send, recv)
        # CHECK: all_to_all_v_errors.pir:[[@LINE+1]]:42: error: pld.tensor.all_to_all_v: argument 'target' has strides [64, 1] for shape [8, 32]; it is addressed by flat element arithmetic, so it needs the packed row-major strides
        d = pld.tensor.all_to_all_v(inp, strided, sig, send, recv)
        # CHECK: all_to_all_v_errors.pir:[[@LINE+1]]:52: error: pld.tensor.all_to_all_v: argument 'send_counts' must have element type pl.INT32 (row counts), got pl.FP32
        e = pld.tensor.all_to_all_v(inp, out, sig, fsend, recv)
        # CHECK-NOT: error
        return
