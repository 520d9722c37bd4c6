# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# A name bound to a dtype or an enum member is accepted only where that kind of
# value is expected; otherwise the error says what the name is.
# CHECK: named_dtype_enum.pir:28:36: error: pl.Tensor: 'OP' is the enum value pld.ReduceOp.Max; expected a dtype such as pl.FP32
# CHECK: named_dtype_enum.pir:28:58: error: pl.Tile: 'N' is the integer constant 16; expected a dtype such as pl.FP32
# CHECK: named_dtype_enum.pir:28:75: error: pl.Scalar: 'DTYPO' is undefined; expected a dtype such as pl.FP32
# CHECK: named_dtype_enum.pir:33:44: error: keyword 'op' expects a pld.ReduceOp value; 'DT' is the dtype pl.FP16
# CHECK: named_dtype_enum.pir:34:44: error: keyword 'op' expects a pld.ReduceOp value; 'WC' is the enum value pld.WaitCmp.Ge
# CHECK: named_dtype_enum.pir:35:44: error: keyword 'op' expects a pld.ReduceOp value; 'reduce_op' is undefined
# CHECK: named_dtype_enum.pir:36:46: error: keyword 'dtype' expects a dtype such as pl.FP32; 'OP' is the enum value pld.ReduceOp.Max
# CHECK: named_dtype_enum.pir:37:13: error: 'DT' is the dtype pl.FP16, not a value here; pass it as a keyword argument (dtype=DT) or use pl.const(v, DT)
# CHECK: named_dtype_enum.pir:38:13: error: 'OP' is the enum value pld.ReduceOp.Max, which can only be passed as a keyword argument
# CHECK: named_dtype_enum.pir:39:24: error: pl.cast: 'OP' is the enum value pld.ReduceOp.Max; expected a dtype such as pl.INT32
# CHECK: named_dtype_enum.pir:40:25: error: pl.const: 'N' is the integer constant 16; expected a dtype such as pl.INT32
# CHECK-NOT: error
import pypto.language as pl
import pypto.language.distributed as pld

DT = pl.FP16
OP = pld.ReduceOp.Max
WC = pld.WaitCmp.Ge
N = 16


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, a: pl.Tensor[[16], OP], b: pl.Tile[[16], N], c: pl.Scalar[DTYPO]):
        pass

    @pl.function(type=pl.FunctionType.InCore)
    def g(self, d: pld.DistributedTensor[[2, 16], DT], s: pld.DistributedTensor[[2, 1], pl.INT32], w: pl.Ptr):
        d1 = pld.tensor.allreduce(d, s, op=DT)
        d2 = pld.tensor.allreduce(d, s, op=WC)
        d3 = pld.tensor.allreduce(d, s, op=reduce_op)
        v = pld.tensor.window(w, [16], dtype=OP)
        x = DT
        y = OP
        z = pl.cast(d, OP)
        k = pl.const(1, N)
