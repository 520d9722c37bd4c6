# The write-back result of `pl.tensor.assemble(w, x, offs)` into a
# DistributedTensor param (here from the slice-assignment sugar in an
# orchestration) is an alias of w: passing it to a kernel forwards w's ctx.
# RUN: pypto-opt %s --passes=materialize-dist-tensor-ctx --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def chip(self, x: pl.Tensor{{\[\[}}16, 64], pl.FP32], w: pld.DistributedTensor{{\[\[}}32, 64], pl.FP32], w_ctx: pld.CommCtx):
# CHECK-NEXT:     w_1: pld.DistributedTensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(w, x, [16, 0])
# CHECK-NEXT:     self.kernel(w_1, w_ctx)
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class CtxAssemble:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, w: pld.DistributedTensor[[32, 64], pl.FP32]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32], w: pld.DistributedTensor[[32, 64], pl.FP32]):
        w[16:32, 0:64] = x
        self.kernel(w)
