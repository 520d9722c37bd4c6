# lower-composite-ops: partially valid allreduce targets (the seed's rules;
# executed in allreduce_matrix.pir). Mesh: the leading dims of a packed
# [2, 4, 17] target with valid box [1, 3, 10] collapse to an [8, 17] view whose
# valid rectangle is [3, 10]; it is reduced as one [3, 16] UB tile (10 FP32
# rounded up to 32 bytes) with two barriers and epilogue -2. A symbolic valid row
# count falls back to the physical row count (tile [8, 48] for an FP16 [8, 40]
# target). Ring: a valid box [3, 33] of [4, 33] is the row-major prefix of 99
# elements: the physical [1, 132] view carries valid_shape [1, 99] and the ring
# splits 99 elements.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each 2> %t.err | FileCheck %s
# RUN: count 0 < %t.err

# CHECK-LABEL: def mesh_rect(
# CHECK: target_2d: pld.DistributedTensor{{\[\[}}8, 17], pl.FP32] = pl.tensor.view(part, [8, 17])
# CHECK: own: pl.Tile{{\[\[}}3, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[3, 10])] = pl.tile.load(target_2d, [0, 0], [3, 16], [3, 10], target_memory=pl.Mem.Vec)
# CHECK: pld.tile.remote_load(target_2d, peer_1, [0, 0], [3, 16], [3, 10])
# CHECK: pld.system.wait(sig, [src_1, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK: acc_valid: {{.*}} = pl.tile.set_validshape(acc_all, 3, 10)
# CHECK-NEXT: stored: {{.*}} = pl.tile.store(acc_valid, [0, 0], target_2d)
# CHECK: pl.const(-2, pl.INT32)
# CHECK-LABEL: def mesh_symbolic(
# CHECK: own: pl.Tile{{\[\[}}8, 48], pl.FP16, pl.Mem.Vec, pl.TileView(valid_shape=[vr, 40])] = pl.tile.load(part, [0, 0], [8, 48], [vr, 40], target_memory=pl.Mem.Vec)
# CHECK-LABEL: def ring_prefix(
# CHECK: pl.system.check(nranks_idx == 3, [nranks_idx], msg=
# CHECK: target_2d: pld.DistributedTensor{{\[\[}}1, 132], pl.FP32, pl.TensorView(valid_shape=[1, 99])] = pl.tensor.view(part, [1, 132], [1, 99])
# CHECK: send_lo: pl.Scalar[pl.INDEX] = send_seg * 99 // 3
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class AllreducePartial:
    @pl.function(type=pl.FunctionType.InCore)
    def mesh_rect(self, data: pl.InOut[pld.DistributedTensor[[2, 4, 17], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        part = pl.tensor.view(data, [2, 4, 17], [1, 3, 10])
        part = pld.tensor.allreduce(part, sig)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def mesh_symbolic(self, data: pl.InOut[pld.DistributedTensor[[8, 40], pl.FP16]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], vr: pl.Scalar[pl.INDEX]):
        part = pl.tensor.view(data, [8, 40], [vr, 40])
        part = pld.tensor.allreduce(part, sig, op=pld.ReduceOp.Max)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def ring_prefix(self, data: pl.InOut[pld.DistributedTensor[[4, 33], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[4, 3], pl.INT32]]):
        part = pl.tensor.view(data, [4, 33], [3, 33])
        part = pld.tensor.allreduce(part, sig, mode="ring")
        return
