# tensor.view / tensor.slice operands the PTO backend cannot address are
# reported at the call (exit 1): a view that changes the layout, a reshape of a
# tensor that is not packed ND, and a slice of a DN tensor without explicit
# strides.
# RUN: %python %S/../tools/Inputs/expect_exit.py 1 pypto-opt %s --emit=pto 2>&1 | FileCheck %s
# CHECK: tensor_view_errors.pir:[[@LINE+11]]:13: error: tensor.view: changing a tensor's layout is not supported by the PTO backend; view it with its own layout
# CHECK: tensor_view_errors.pir:[[@LINE+16]]:13: error: tensor.view: reshaping 'x' is not supported by the PTO backend; only packed ND tensors can be reshaped
# CHECK: tensor_view_errors.pir:[[@LINE+21]]:13: error: tensor.slice: slicing 'x' is not supported by the PTO backend; a DN tensor needs explicit strides (pl.TensorView(stride=...)) to be sliced
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ViewErrors:
    @pl.function(type=pl.FunctionType.AIV)
    def relayout(self, x: pl.Tensor[[16, 64], pl.FP32]):
        v = pl.tensor.view(x, [16, 64], layout=pl.TensorLayout.DN)
        t = pl.tile.load(v, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def reshape_dn(self, x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(layout=pl.TensorLayout.DN)]):
        v = pl.tensor.view(x, [64, 16])
        t = pl.tile.load(v, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def slice_dn(self, x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(layout=pl.TensorLayout.DN)]):
        s = pl.tensor.slice(x, [8, 64], [8, 0])
        t = pl.tile.load(s, [0, 0], [8, 64], target_memory=pl.Mem.Vec)
        return
