# lower-composite-ops: an InCore allreduce target the lowering cannot address
# is an error at the call (what, why, what would work), never an internal error
# or a kept call: strided and DN targets (mesh and ring), a mesh valid box that
# does not collapse to one rectangle, a mesh valid rectangle over one 16 KiB
# chunk, a symbolic valid extent with no static physical bound, a ring valid box
# that is not a contiguous row-major prefix, and a mesh allreduce without a
# signal.
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# RUN: not pypto-opt %s --passes=lower-composite-ops 2>&1 | FileCheck %s
# RUN: not pypto-opt %s --pipeline=default 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
M = pl.dynamic("M")


@pl.program
class AllreduceLayoutErrors:
    @pl.function(type=pl.FunctionType.InCore)
    def strided(self, data: pl.InOut[pld.DistributedTensor[[8, 32], pl.FP32, pl.TensorView(stride=[64, 1], layout=pl.TensorLayout.ND)]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rsig: pl.InOut[pld.DistributedTensor[[6, 4], pl.INT32]]):
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'target' has a strided view (stride [64, 1] over shape [8, 32]); an InCore mode="mesh" allreduce views its target as packed rows and cannot skip the gaps a stride leaves; allreduce a packed tensor (no stride), e.g. the window itself
        pld.tensor.allreduce(data, sig)
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'target' has a strided view (stride [64, 1] over shape [8, 32]); an InCore mode="ring" allreduce
        pld.tensor.allreduce(data, rsig, mode="ring")
        return

    @pl.function(type=pl.FunctionType.InCore)
    def dn(self, data: pl.InOut[pld.DistributedTensor[[8, 32], pl.FP32, pl.TensorView(stride=[1, 8], layout=pl.TensorLayout.DN)]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rsig: pl.InOut[pld.DistributedTensor[[6, 4], pl.INT32]]):
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'target' has layout pl.TensorLayout.DN; an InCore mode="mesh" allreduce reads its target as packed row-major (ND) memory, so a pl.TensorLayout.DN view is not lowered; allreduce an ND tensor (a pld.tensor.window is one)
        pld.tensor.allreduce(data, sig)
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'target' has layout pl.TensorLayout.DN; an InCore mode="ring" allreduce
        pld.tensor.allreduce(data, rsig, mode="ring")
        return

    @pl.function(type=pl.FunctionType.InCore)
    def boxes(self, data: pl.InOut[pld.DistributedTensor[[4, 4, 16], pl.FP32]], big: pl.InOut[pld.DistributedTensor[[64, 128], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rsig: pl.InOut[pld.DistributedTensor[[6, 4], pl.INT32]]):
        a = pl.tensor.view(data, [4, 4, 16], [2, 3, 16])
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'target' has valid_shape [2, 3, 16] in shape [4, 4, 16], which is not one rectangle once the leading dims are collapsed into rows (a collapsed inner dim is partly valid after a dim with more than one valid index); a partially valid mesh target is reduced as one 2-D [rows, cols] tile; make every leading dim after the first partly valid one fully valid, or allreduce the fully valid tensor
        pld.tensor.allreduce(a, sig)
        b = pl.tensor.view(big, [64, 128], [40, 100])
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'target' has valid_shape [40, 100] in shape [64, 128]; its valid rectangle needs a [40, 104] pl.FP32 UB tile of 16640 bytes, more than one 16384-byte chunk (a partially valid mesh target is reduced as one tile); make the valid box at most 16 KiB, or allreduce a fully valid target (chunked to any size)
        pld.tensor.allreduce(b, sig)
        c = pl.tensor.view(data, [4, 4, 16], [4, 4, 8])
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: mode="ring": argument 'target' has valid_shape [4, 4, 8] in shape [4, 4, 16], which is not a contiguous row-major prefix (dim 2 is partly valid after dim 0, which has more than one valid index); the ring reduces the logical prefix of the packed [1, prod(shape)] stream; make every dim after the first partly valid one fully valid, or use mode="mesh" for a rectangular valid box
        pld.tensor.allreduce(c, rsig, mode="ring")
        return

    @pl.function(type=pl.FunctionType.InCore)
    def unbounded(self, data: pl.InOut[pld.DistributedTensor[[M, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], v: pl.Scalar[pl.INDEX]):
        a = pl.tensor.view(data, [M, 16], [v, 16])
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'target' has valid_shape [v, 16] in shape [M, 16]: the collapsed valid row count v is symbolic and so is the physical row count M, so the UB tile of the partially valid mesh allreduce has no static bound; give the target a static shape or a static valid_shape
        pld.tensor.allreduce(a, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def no_signal(self, data: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]]):
        # CHECK: allreduce_layout_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: an InCore allreduce needs an explicit signal (only host-orchestrator calls get one synthesized); pass an INT32 [NR, 1] window as the second argument
        pld.tensor.allreduce(data)
        return
