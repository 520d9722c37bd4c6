# A spaceless tile.load whose first consumer is a tile.move gets the space with a
# path to the move's target (Left / Right / Bias <- Mat, Vec <- Vec). A tile its
# first consumer makes pl.Mem.Vec and that is then moved to pl.Mem.Left is the
# program's error, reported at the move (not an internal one).
# RUN: pypto-opt %s --passes=infer-tile-memory-space --verify-each --roundtrip-each | FileCheck %s
# RUN: not pypto-opt %S/Inputs/move_after_vec_use.pir --passes=infer-tile-memory-space 2>&1 | FileCheck %s --check-prefix=ERR
# CHECK:      l_src: pl.Tile{{\[\[}}16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
# CHECK-NEXT: l: pl.Tile{{\[\[}}16, 16], pl.FP16, pl.Mem.Left] = pl.tile.move(l_src, target_memory=pl.Mem.Left)
# CHECK-NEXT: r_src: pl.Tile{{\[\[}}16, 16], pl.FP16, pl.Mem.Mat] = pl.tile.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
# CHECK-NEXT: r: pl.Tile{{\[\[}}16, 16], pl.FP16, pl.Mem.Right] = pl.tile.move(r_src, target_memory=pl.Mem.Right)
# CHECK-NEXT: v_src: pl.Tile{{\[\[}}16, 16], pl.FP16, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
# CHECK-NEXT: v: pl.Tile{{\[\[}}16, 16], pl.FP16, pl.Mem.Vec] = pl.tile.move(v_src)
# ERR: move_after_vec_use.pir:11:13: error: infer-tile-memory-space: tile.move: cannot move a pl.Mem.Vec tile to pl.Mem.Left: {{.*}}; move it to pl.Mem.Mat first, then to pl.Mem.Left (after the operand's memory space was inferred from its first use; give it target_memory= to choose another)
# ERR-NOT: error
import pypto.language as pl


@pl.program
class MoveSources:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]], y: pl.Out[pl.Tensor[[16, 16], pl.FP16]]):
        l_src = pl.load(a, [0, 0], [16, 16])
        l = pl.move(l_src, target_memory=pl.Mem.Left)
        r_src = pl.load(a, [0, 0], [16, 16])
        r = pl.move(r_src, target_memory=pl.Mem.Right)
        v_src = pl.load(a, [0, 0], [16, 16])
        v = pl.move(v_src)
        pl.store(v, [0, 0], y)
        pl.store(pl.matmul(l, r), [0, 0], c)
        return
