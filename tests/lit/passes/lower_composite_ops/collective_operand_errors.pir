# lower-composite-ops: a data collective (broadcast, reduce_scatter, allgather,
# all_to_all, all_to_all_v) moves packed row-major rows through UB, so a
# strided, DN or partially valid data operand is an error at the call naming
# the operand, what it is and what would work (never a kept call that the PTO
# backend then rejects, never a crash).
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# RUN: not pypto-opt %s --passes=lower-composite-ops 2>&1 | FileCheck %s
# RUN: not pypto-opt %s --pipeline=default --emit=pto 2>&1 | FileCheck %s --check-prefix=PIPE
# PIPE-NOT: not supported by the PTO backend
# PIPE-NOT: internal error
# PIPE: error: pld.tensor.broadcast: argument 'target' has strides [32, 1]
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
W = pl.dynamic("W")


@pl.program
class OperandErrors:
    @pl.function(type=pl.FunctionType.InCore)
    def bc_strided(self, data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32, pl.TensorView(stride=[32, 1])]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        # CHECK: collective_operand_errors.pir:[[@LINE+1]]:9: error: pld.tensor.broadcast: argument 'target' has strides [32, 1] for shape [4, 16] (packed: [16, 1]); the InCore lowering moves packed row-major rows of it through UB in chunks, so it needs a packed, fully valid ND view; pass a window whose shape is its storage (a packed view)
        pld.tensor.broadcast(data, sig, root=0)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def bc_partial(self, data: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP16, pl.TensorView(valid_shape=[2, 16])]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        # CHECK: collective_operand_errors.pir:[[@LINE+1]]:9: error: pld.tensor.broadcast: argument 'target' is partially valid (valid_shape [2, 16] of shape [4, 16]); {{.*}}; pass the whole window and narrow the result after the call
        pld.tensor.broadcast(data, sig, root=0)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def rs_dn(self, data: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32, pl.TensorView(stride=[1, NR], layout=pl.TensorLayout.DN)]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        # CHECK: collective_operand_errors.pir:[[@LINE+1]]:9: error: pld.tensor.reduce_scatter: argument 'target' has layout pl.TensorLayout.DN; {{.*}}; pass an ND window (the default layout)
        pld.tensor.reduce_scatter(data, sig, op=pld.ReduceOp.Max)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def ag_strided_input(self, x: pl.Tensor[[1, 16], pl.FP32, pl.TensorView(stride=[W, 1])], data: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        # CHECK: collective_operand_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allgather: argument 'local_data' has strides [W, 1] for shape [1, 16] (packed: [16, 1]);
        pld.tensor.allgather(x, data, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def aa_partial(self, x: pl.Tensor[[NR, 16], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, 16], pl.FP32, pl.TensorView(valid_shape=[NR, 8])]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        # CHECK: collective_operand_errors.pir:[[@LINE+1]]:9: error: pld.tensor.all_to_all: argument 'target' is partially valid (valid_shape [NR, 8] of shape [NR, 16]);
        pld.tensor.all_to_all(x, data, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def aav_strided(self, x: pl.Tensor[[8, 16], pl.FP32, pl.TensorView(stride=[W, 1])], counts: pl.Tensor[[NR], pl.INT32], data: pl.InOut[pld.DistributedTensor[[8, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        # CHECK: collective_operand_errors.pir:[[@LINE+1]]:9: error: pld.tensor.all_to_all_v: argument 'input' has strides [W, 1] for shape [8, 16] (packed: [16, 1]);
        pld.tensor.all_to_all_v(x, data, sig, counts, rc)
        return
