# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Verifier: self-calls must match the callee's parameter types (shapes, dtypes,
# and a pld.DistributedTensor parameter needs a distributed argument).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Calls:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a: pl.Tensor[[16, 64], pl.FP32], b: pl.Tensor[[16, 32], pl.FP32], d: pld.DistributedTensor[[16, 64], pl.FP32]):
        # Well-typed call.
        self.kernel(a, d)
        # CHECK: call_signature.pir:[[@LINE+1]]:9: error: self.kernel: argument 0 has type pl.Tensor{{\[\[}}16, 32], pl.FP32] but parameter 'src' is pl.Tensor{{\[\[}}16, 64], pl.FP32]
        self.kernel(b, d)
        # CHECK: call_signature.pir:[[@LINE+1]]:9: error: self.kernel: argument 1 has type pl.Tensor{{\[\[}}16, 64], pl.FP32] but parameter 'dst' is pld.DistributedTensor{{\[\[}}16, 64], pl.FP32]
        self.kernel(a, a)
        return
