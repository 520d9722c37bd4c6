# Nested tensor-level calls in kernels: flatten-call-args runs before
# convert-tensor-to-tile-ops, so a nested tensor op (`pl.add(pl.mul(a, b), a)`)
# is converted like any bound one, and an inline slice passed to a collective
# (`x[0:1, :]`) becomes a named tensor.slice the PTO backend binds as a view
# (both were rejected before: the kernel kept pl.tensor.mul nested, and
# "pld.tile.put: argument 'src' must be a tensor parameter of the kernel").
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s --check-prefix=PTO
# CHECK-LABEL: def k(
# CHECK:         lhs: pl.Tile{{\[\[}}16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.mul(a_tile, b_tile)
# CHECK-NEXT:    add: pl.Tile{{\[\[}}16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(lhs, a_tile)
# CHECK-NEXT:    add_1: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.tile.store(add, [0, 0], add_out)
# CHECK-LABEL: def gather(
# CHECK:         local_data: pl.Tensor{{\[\[}}1, 64], pl.FP32] = pl.tensor.slice(x, [1, 64], [0, 0])
# CHECK:         pld.tile.put(rows, dest, local_data, stage_v, [{{.*}}, put_col], [0, put_col], [1, put_valid]
# PTO-LABEL: func.func @k(
# PTO:         pto.tmul ins(%a_tile, %b_tile :
# PTO:         pto.tadd ins(%lhs, %a_tile :
# PTO-LABEL: func.func @gather(
# PTO:         %local_data_view = pto.make_tensor_view %arg0, shape = [%c1_index, %c64_index]
# PTO:         pto.comm.tput(%rows_peer_pview, %local_data_local_pview, buf(%ag_stage) :
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class TensorLevel:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        return pl.add(pl.mul(a, b), a)

    @pl.function(type=pl.FunctionType.InCore)
    def gather(self, x: pl.Tensor[[16, 64], pl.FP32], rows: pl.InOut[pld.DistributedTensor[[4, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        rows4 = pld.tensor.allgather(x[0:1, :], rows, sig)
        return
