# A tensor.assemble that reaches insert-comm-fence (run alone, before
# convert-tensor-to-tile-ops) is a publishing write like tile.store: into a
# DistributedTensor it gets cacheinvalid(dst, shape, zeros) + fence, into a plain
# tensor nothing. Idempotent (second RUN).
# RUN: pypto-opt %s --passes=insert-comm-fence --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=insert-comm-fence,insert-comm-fence --verify-each --roundtrip-each | FileCheck %s
# CHECK:      w_1: pld.DistributedTensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(w, x, [16, 0])
# CHECK-NEXT: pl.system.cacheinvalid(w, [32, 64], [0, 0])
# CHECK-NEXT: pl.system.fence()
# CHECK-NEXT: y_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(y, x, [0, 0])
# CHECK-NEXT: return y_1
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class FenceAssemble:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], w: pld.DistributedTensor[[32, 64], pl.FP32], y: pl.Out[pl.Tensor[[32, 64], pl.FP32]]) -> pl.Tensor[[32, 64], pl.FP32]:
        w[16:32, :] = x
        y[0:16, :] = x
        return y
