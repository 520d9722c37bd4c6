# Assignment to a subscript (`x[a:b, c:d] = v`) and pl.assemble: the forms that
# are not supported and the value/region checks, each reported at file:line:col.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl


@pl.program
class BadSliceAssign:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Tensor[[32, 64], pl.FP32], s: pl.Scalar[pl.FP32], xs: pl.Tuple[pl.Tensor[[16, 64], pl.FP32]]):
        # CHECK: subscript_assign.pir:[[@LINE+1]]:27: error: assignment to the region [16, 32] of 'out': the value has shape [16, 64]; it must have the region's shape
        out[0:16, 0:32] = x
        # CHECK: subscript_assign.pir:[[@LINE+1]]:24: error: assignment to the region [1, 64] of 'out': the value has shape [16, 64]; it must have the region's shape (or [64])
        out[3, 0:64] = x
        # CHECK: subscript_assign.pir:[[@LINE+1]]:27: error: assignment to the region [16, 64] of 'out': the value must be a tensor or a tile, got pl.Scalar[pl.FP32]; filling a region with a scalar is not supported
        out[0:16, 0:64] = s
        # CHECK: subscript_assign.pir:[[@LINE+1]]:13: error: too many indices: 3 for a rank-2 value
        out[0:16, 0:64, 0] = x
        # CHECK: subscript_assign.pir:[[@LINE+1]]:18: error: slice steps are not supported
        out[0:16:2, 0:64] = x
        # CHECK: subscript_assign.pir:[[@LINE+1]]:9: error: assignment to a subscript is not supported; use pl.write(...)
        xs[0][0:16, 0:64] = x
        # CHECK: subscript_assign.pir:[[@LINE+1]]:9: error: assignment to a subscript is not supported; use pl.write(...) ('s' has type pl.Scalar[pl.FP32])
        s[0] = x
        # CHECK: subscript_assign.pir:[[@LINE+1]]:13: error: tensor.assemble: argument 'offset' region exceeds 'target' in dim 0: offset 20 + extent 16 > 32
        out[20:36, 0:64] = x
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Tensor[[16, 64], pl.FP32]):
        t = pl.load(x, [0, 0], [16, 64])
        # CHECK: subscript_assign.pir:[[@LINE+1]]:9: error: assignment to a region of a tile is not supported; only an element (t[i, j] = scalar) can be assigned
        t[0:8, 0:64] = t
        # CHECK: subscript_assign.pir:[[@LINE+1]]:24: error: assignment to the region [8, 64] of 'y': the value has shape [16, 64]; it must have the region's shape
        y[0:8, 0:64] = t
        # CHECK: subscript_assign.pir:[[@LINE+1]]:13: error: pl.assemble: with a tile source pass target, source and offset positionally (it becomes pl.tile.store(source, offset, target))
        y = pl.assemble(y, t, offset=[0, 0])
        # CHECK-NOT: error
        return
