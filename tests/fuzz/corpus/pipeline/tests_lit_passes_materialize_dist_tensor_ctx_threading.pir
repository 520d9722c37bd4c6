# One pld.CommCtx param per DistributedTensor param (in order, <param>_ctx) on
# every non-host function; kernels' get_comm_ctx(p) becomes p's ctx param; the
# chip orchestration forwards its own ctx params; the host orchestrator queries
# pld.system.get_comm_ctx(view) right before the dispatch. Running it twice is a
# no-op.
# RUN: pypto-opt %s --passes=materialize-dist-tensor-ctx --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=materialize-dist-tensor-ctx,materialize-dist-tensor-ctx --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def kernel(self, src: pl.Tensor{{\[\[}}16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor{{\[\[}}16, 64], pl.FP32]], signal: pld.DistributedTensor{{\[\[}}4, 1], pl.INT32], peer: pl.Scalar[pl.INT32], dst_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
# CHECK-NEXT:     me: pl.Scalar[pl.INT32] = pld.system.rank(signal_ctx)
# CHECK:      def chip(self, x: pl.Tensor{{\[\[}}16, 64], pl.FP32], data: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32], sig: pld.DistributedTensor{{\[\[}}4, 1], pl.INT32], peer: pl.Scalar[pl.INT32], data_ctx: pld.CommCtx, sig_ctx: pld.CommCtx):
# CHECK-NEXT:     self.kernel(x, data, sig, peer, data_ctx, sig_ctx)
# CHECK:      def host_orch(self, x: pl.Tensor{{\[\[}}4, 16, 64], pl.FP32]):
# CHECK:          for r in pl.range(pld.system.world_size()):
# CHECK-NEXT:         data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
# CHECK-NEXT:         sig_ctx: pld.CommCtx = pld.system.get_comm_ctx(sig)
# CHECK-NEXT:         self.chip({{.*}}, data, sig, pl.const(1, pl.INT32), data_ctx, sig_ctx, device=r)
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Ctx:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], signal: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        c = pld.system.get_comm_ctx(signal)
        me = pld.system.rank(c)
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        return

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32], data: pld.DistributedTensor[[16, 64], pl.FP32], sig: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        self.kernel(x, data, sig, peer)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[4, 16, 64], pl.FP32]):
        buf = pld.tensor.alloc_window_buffer(4096)
        data = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        sbuf = pld.tensor.alloc_window_buffer(16)
        sig = pld.tensor.window(sbuf, [4, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], data, sig, pl.const(1, pl.INT32), device=r)
        return
