# lower-auto-vector-split, region path: every pl.split_aiv(2, mode=...) region of
# a kernel is erased; its index Var becomes `aiv_id = pl.tile.get_subblock_idx()`.
#  * UP_DOWN / LEFT_RIGHT: tile shapes halved on dim 0 / dim 1, tile.load /
#    tile.store offsets on that dim localised by aiv_id * half;
#  * NONE: body spliced unchanged (both lanes run it);
#  * NoDuplicate SHARED calls (pld.system.notify) get core_placement="aiv";
#  * the kernel is stamped split_aiv=2, split_aiv_region_validated=True.
# RUN: pypto-opt %s --passes=lower-auto-vector-split --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=lower-auto-vector-split,lower-auto-vector-split --verify-each --roundtrip-each | FileCheck %s
# In the default pipeline (after infer-tile-memory-space, before expand-mixed-kernel):
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each 2>&1 | FileCheck %s --check-prefix=PIPE
# PIPE: @pl.function(type=pl.FunctionType.AIV, split_aiv=2, split_aiv_region_validated=True)
# PIPE-NEXT: def updown(
# PIPE-NOT: pl.split_aiv(
# Runs before/after (the after run simulates the two-lane launch, see
# Inputs/run_split.py); exact outputs:
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_split.py %s %t.d/ud --kernel updown --outputs out | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_split.py %s %t.d/lr --kernel leftright --outputs out | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_split.py %s %t.d/tp --kernel task_parallel --outputs out | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_split.py %s %t.d/av --kernel auto_vector --outputs out | FileCheck %s --check-prefix=DIFF
# DIFF: out: OK
# DIFF: FAILURES 0
# PTO: each lane reads its sub-block index (pto.get_subblock_idx, an i64) and
# computes its halved offsets from it (the ptoas tier checks ptoas accepts it):
# RUN: rm -rf %t.pto && pypto-opt %s --pipeline=default --emit=pto -o %t.pto
# RUN: FileCheck %s --check-prefix=EMIT < %t.pto/auto_vector.pto
# EMIT: pto.kernel_kind = #pto.kernel_kind<vector>
# EMIT: [[RAW:%[0-9]+]] = pto.get_subblock_idx
# EMIT-NEXT: [[LANE:%[0-9]+]] = arith.index_cast [[RAW]] : i64 to index
# EMIT-NEXT: [[OFF:%[0-9]+]] = arith.muli [[LANE]], %c8_index : index
# EMIT-NEXT: pto.partition_view %x_view, offsets = {{\[}}[[OFF]], %c0_index], sizes = [%c8_index, %c64_index]

# CHECK-LABEL: @pl.function(type=pl.FunctionType.InCore, split_aiv=2, split_aiv_region_validated=True)
# CHECK-NEXT: def updown(
# CHECK-NEXT: aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK-NEXT: for j in pl.range(2):
# CHECK-NEXT: a: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [aiv_id * 8, j * 64], [8, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT: b: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [aiv_id * 8, j * 64], [8, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT: c: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, b)
# CHECK-NEXT: d: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.maximum(c, a)
# CHECK-NEXT: pl.tile.store(d, [aiv_id * 8, j * 64], out)
# CHECK-NEXT: return
# CHECK-LABEL: def leftright(
# CHECK-NEXT: aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK-NEXT: a: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, aiv_id * 64], [8, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT: b: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.mul(a, a)
# CHECK-NEXT: c: pl.Tile{{\[\[}}8, 64], pl.FP16, pl.Mem.Vec] = pl.tile.cast(b, target_type=pl.FP16)
# CHECK-NEXT: pl.tile.store(c, [0, aiv_id * 64], out)
# CHECK-LABEL: def task_parallel(
# CHECK-NEXT: aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK-NEXT: t: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [aiv_id * 8, 0], [8, 64])
# CHECK-NEXT: pl.tile.store(t, [aiv_id * 8, 0], out)
# CHECK-LABEL: def notify_lane(
# CHECK-NEXT: aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK-NEXT: pld.system.notify(sig, 0, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd, attrs={"core_placement": "aiv"})
# CHECK-NEXT: pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: return
# A kernel without regions is untouched. A pure-vector kernel with a
# function-level (AUTO) split is honoured: its whole body is halved as one
# region of that mode (each lane loads and stores its 8 rows).
# CHECK: @pl.function(type=pl.FunctionType.InCore)
# CHECK-NEXT: def plain(
# CHECK: @pl.function(type=pl.FunctionType.InCore, split=pl.SplitMode.UP_DOWN, split_aiv=2, split_aiv_region_validated=True)
# CHECK-NEXT: def auto_vector(
# CHECK-NEXT: aiv_id: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
# CHECK-NEXT: t: pl.Tile{{\[\[}}8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [aiv_id * 8, 0], [8, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT: pl.tile.store(t, [aiv_id * 8, 0], out)
# CHECK-NEXT: return
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class SplitAiv:
    @pl.function(type=pl.FunctionType.InCore)
    def updown(self, x: pl.Tensor[[16, 128], pl.FP32], y: pl.Tensor[[16, 128], pl.FP32], out: pl.Out[pl.Tensor[[16, 128], pl.FP32]]):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            for j in pl.range(2):
                a: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, j * 64], [16, 64])
                b: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, j * 64], [16, 64])
                c: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, b)
                d: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.maximum(c, a)
                pl.tile.store(d, [0, j * 64], out)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def leftright(self, x: pl.Tensor[[8, 128], pl.FP32], out: pl.Out[pl.Tensor[[8, 128], pl.FP16]]):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            a: pl.Tile[[8, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 128])
            b: pl.Tile[[8, 128], pl.FP32, pl.Mem.Vec] = pl.tile.mul(a, a)
            c: pl.Tile[[8, 128], pl.FP16, pl.Mem.Vec] = pl.tile.cast(b, target_type=pl.FP16)
            pl.tile.store(c, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def task_parallel(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        for aiv_id in pl.split_aiv(2):
            t: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [aiv_id * 8, 0], [8, 64])
            pl.tile.store(t, [aiv_id * 8, 0], out)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def notify_lane(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        for aiv_id in pl.split_aiv(2):
            pld.system.notify(sig, 0, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
            pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def plain(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.InCore, split=pl.SplitMode.UP_DOWN)
    def auto_vector(self, x: pl.Tensor[[16, 64], pl.FP32], out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        pl.tile.store(t, [0, 0], out)
        return
