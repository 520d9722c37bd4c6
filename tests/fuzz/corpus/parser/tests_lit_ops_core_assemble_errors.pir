# Verifier rules of tensor.assemble and the tensor/tile scalar ops: each bad call
# is reported (all of them, in order) at file:line:col with the op, the argument
# and the rule.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl


@pl.program
class BadAssemble:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32], h: pl.Tensor[[16, 64], pl.FP16], v: pl.Tensor[[64], pl.FP32], big: pl.Tensor[[32, 64], pl.FP32], out: pl.Tensor[[32, 64], pl.FP32], i: pl.Scalar[pl.INDEX], n: pl.Scalar[pl.INT32]):
        # CHECK: assemble_errors.pir:[[@LINE+1]]:37: error: tensor.assemble: argument 'source' dtype pl.FP16 does not match 'target' dtype pl.FP32; convert it with pl.cast first
        a = pl.tensor.assemble(out, h, [0, 0])
        # CHECK: assemble_errors.pir:[[@LINE+1]]:37: error: tensor.assemble: argument 'source' has rank 1 but 'target' has rank 2; the source must have one extent per target dimension
        a = pl.tensor.assemble(out, v, [0, 0])
        # CHECK: assemble_errors.pir:[[@LINE+1]]:40: error: tensor.assemble: argument 'offset' region exceeds 'target' in dim 0: offset 20 + extent 16 > 32
        a = pl.tensor.assemble(out, x, [20, 0])
        # CHECK: assemble_errors.pir:[[@LINE+1]]:35: error: tensor.assemble: argument 'source' shape [32, 64] does not fit in 'target' [16, 64]: dim 0 is 32 > 16
        a = pl.tensor.assemble(x, big, [i, 0])
        # CHECK: assemble_errors.pir:[[@LINE+1]]:40: error: tensor.assemble: argument 'offset' must have 2 elements (one per dimension of 'target'), got 1
        a = pl.tensor.assemble(out, x, [0])
        # CHECK: assemble_errors.pir:[[@LINE+1]]:31: error: tensor.adds: argument 'rhs' must be a scalar, got pl.Tensor{{\[\[}}16, 64], pl.FP32]; for two tensors use pl.tensor.add
        a = pl.tensor.adds(x, x)
        # CHECK: assemble_errors.pir:[[@LINE+1]]:31: error: tensor.muls: argument 'rhs' scalar dtype pl.Scalar[pl.INT32] does not match 'lhs' dtype pl.FP32
        a = pl.tensor.muls(x, n)
        # CHECK: assemble_errors.pir:[[@LINE+1]]:13: error: tensor.divs: expected 2 positional arguments (lhs, rhs), got 3
        a = pl.tensor.divs(x, 1.5, 2)
        # CHECK: assemble_errors.pir:[[@LINE+1]]:28: error: tensor.subs: argument 'lhs' must be a pl.Tensor or pld.DistributedTensor, got pl.Scalar[pl.INT32]
        a = pl.tensor.subs(n, 1)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], k: pl.Tensor[[16, 64], pl.INT32]):
        t = pl.load(x, [0, 0], [16, 64])
        kt = pl.load(k, [0, 0], [16, 64])
        # CHECK: assemble_errors.pir:[[@LINE+1]]:35: error: tensor.assemble: argument 'source' must be a pl.Tensor or pld.DistributedTensor, got pl.Tile{{\[\[}}16, 64], pl.FP32]; to write a tile into a tensor use pl.tile.store(tile, offsets, target)
        a = pl.tensor.assemble(x, t, [0, 0])
        # CHECK: assemble_errors.pir:[[@LINE+1]]:29: error: tile.adds: argument 'rhs' must be a scalar, got pl.Tile{{\[\[}}16, 64], pl.FP32]; for two tiles use pl.tile.add
        b = pl.tile.adds(t, t)
        # CHECK: assemble_errors.pir:[[@LINE+1]]:30: error: tile.subs: argument 'rhs' scalar dtype pl.Scalar[pl.FP32] does not match 'lhs' dtype pl.INT32
        c = pl.tile.subs(kt, 1.5)
        # CHECK: assemble_errors.pir:[[@LINE+1]]:26: error: tile.muls: argument 'lhs' must be a pl.Tile, got pl.Tensor{{\[\[}}16, 64], pl.FP32]
        d = pl.tile.muls(x, 2.0)
        # CHECK-NOT: error
        return
