# Ops without a PTO lowering are reported at the call's line:col; a kernel whose
# DistributedTensor params are not paired with CommCtx params is rejected.
# RUN: not pypto-opt %s --emit=pto 2>&1 | FileCheck %s
# CHECK: unsupported.pir:[[@LINE+12]]:9: error: pld.tensor.put: not supported by the PTO backend
# CHECK: note: tensor-level op: lower it to tile ops
# CHECK: error: bad_ctx: kernel has 1 DistributedTensor parameter(s) but 0 CommCtx parameter(s); run materialize-dist-tensor-ctx before PTO emission
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Unsupported:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, dst: pld.DistributedTensor[[16, 64], pl.FP16], peer: pl.Scalar[pl.INT32], src: pl.Tensor[[16, 64], pl.FP16], dst_ctx: pld.CommCtx):
        pl.system.fence()
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def bad_ctx(self, sig: pld.DistributedTensor[[4, 1], pl.INT32]):
        return
