# Tensor and system op verifier rules: each bad call is reported (all of them,
# in order) at file:line:col with the op, the argument and the rule.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadTensor:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32], h: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[4, 8], pl.INT32]):
        # CHECK: tensor_errors.pir:[[@LINE+1]]:30: error: tensor.add: argument 'rhs' dtype pl.FP16 does not match 'lhs' dtype pl.FP32
        a = pl.tensor.add(x, h)
        # CHECK: tensor_errors.pir:[[@LINE+1]]:31: error: tensor.view: argument 'shape' shape [8, 64] has 512 elements but 'input' [16, 64] has 1024; a view must keep the element count
        v = pl.tensor.view(x, [8, 64])
        sl = pl.tensor.slice(x, [8, 32], [8, 0])
        # CHECK: tensor_errors.pir:[[@LINE+1]]:28: error: tensor.view: argument 'input' has a strided view; reshaping requires a packed tensor
        w = pl.tensor.view(sl, [256])
        # CHECK: tensor_errors.pir:[[@LINE+1]]:41: error: tensor.slice: argument 'offset' region exceeds 'input' in dim 0: offset 12 + extent 8 > 16
        s = pl.tensor.slice(x, [8, 32], [12, 0])
        # CHECK: tensor_errors.pir:[[@LINE+1]]:53: error: tensor.slice: argument 'drop_dims' axis 0 must have extent 1 in 'shape', got 8
        s = pl.tensor.slice(x, [8, 32], [0, 0], [], [0])
        # CHECK: tensor_errors.pir:[[@LINE+1]]:40: error: tensor.write: argument 'value' must be a pl.Scalar[pl.INT32] (the tensor's dtype), got pl.Scalar[pl.FP32]
        w = pl.tensor.write(k, [0, 0], 1.5)
        # CHECK: tensor_errors.pir:[[@LINE+1]]:13: error: tensor.create: missing required keyword argument 'dtype'
        c = pl.tensor.create([16, 64])
        # CHECK: tensor_errors.pir:[[@LINE+1]]:43: error: tensor.cast: keyword 'target_type' pl.INDEX is not a storage dtype; use pl.INT64
        c = pl.tensor.cast(x, target_type=pl.INDEX)
        # CHECK: tensor_errors.pir:[[@LINE+1]]:31: error: tensor.read: argument 'indices' region exceeds 'tensor' in dim 1: offset 8 + extent 1 > 8
        e = pl.tensor.read(k, [0, 8])
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, w: pld.DistributedTensor[[1, 128], pl.FP32]):
        # CHECK: tensor_errors.pir:[[@LINE+1]]:9: error: system.cacheinvalid: expects no arguments (whole GM) or (tensor, shapes, offsets) for one region, got 1 arguments
        pl.system.cacheinvalid(w)
        # CHECK: tensor_errors.pir:[[@LINE+1]]:45: error: system.cacheinvalid: argument 'offsets' region exceeds 'tensor' in dim 1: offset 1 + extent 128 > 128
        pl.system.cacheinvalid(w, [1, 128], [0, 1])
        # CHECK-NOT: error
        return
