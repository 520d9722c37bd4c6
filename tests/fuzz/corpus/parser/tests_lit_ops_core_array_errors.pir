# pl.Array (kernel-local scalar array) rules: each bad use is reported at
# file:line:col with the op, the argument and the rule; a subscript assignment to
# something that is not an array keeps its old error.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class BadArray:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 1], pl.INT32], n: pl.Scalar[pl.INDEX]):
        # CHECK: array_errors.pir:[[@LINE+1]]:29: error: array.create: argument 'extent' must be positive, got 0
        z = pl.array.create(0, pl.INT32)
        # CHECK: array_errors.pir:[[@LINE+1]]:38: error: array.create: keyword 'dtype' must be an integer dtype or pl.BOOL (not pl.INDEX), got pl.FP32
        f = pl.array.create(4, dtype=pl.FP32)
        # CHECK: array_errors.pir:[[@LINE+1]]:29: error: array.create: argument 'extent' must be an integer constant, got pl.Scalar[pl.INDEX]
        d = pl.array.create(n, pl.INT32)
        a = pl.array.create(4, pl.INT32)
        # CHECK: array_errors.pir:[[@LINE+1]]:15: error: array.get_element: argument 'index' 4 is out of bounds for a pl.Array of extent 4
        v = a[4]
        # CHECK: array_errors.pir:[[@LINE+1]]:16: error: array.update_element: argument 'value' must be a pl.Scalar[pl.INT32] (the array's dtype), got pl.Scalar[pl.FP32]
        a[0] = 1.5
        # CHECK: array_errors.pir:[[@LINE+1]]:11: error: a pl.Array subscript takes exactly one integer index, e.g. a[i]
        a[0, 1] = 2
        # CHECK: array_errors.pir:[[@LINE+1]]:15: error: a pl.Array subscript takes exactly one integer index, e.g. a[i]
        w = a[1:2]
        # CHECK: array_errors.pir:[[@LINE+1]]:34: error: array.get_element: argument 'array' must be a pl.Array, got pl.Tensor{{\[\[}}4, 1], pl.INT32]
        u = pl.array.get_element(x, 0)
        # CHECK: array_errors.pir:[[@LINE+1]]:21: error: pl.Array: the extent must be a positive integer constant
        q: pl.Array[n, pl.INT32] = pl.array.create(4, pl.INT32)
        # CHECK: array_errors.pir:[[@LINE+1]]:12: error: pl.Array: expected [extent, dtype], e.g. pl.Array[16, pl.INT32]
        q: pl.Array[4] = pl.array.create(4, pl.INT32)
        # CHECK: array_errors.pir:[[@LINE+1]]:12: error: type annotation of 'q' does not match its value: annotated pl.Array[8, pl.INT32], but the value has type pl.Array[4, pl.INT32]
        q: pl.Array[8, pl.INT32] = pl.array.create(4, pl.INT32)
        # CHECK-NOT: error
        return
