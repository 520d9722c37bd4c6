# tile.move takes only the on-chip data paths (Vec -> Vec | Mat, Mat -> Left |
# Right | Bias, Acc -> Mat | Vec); any other pair is reported at the call's
# file:line:col with the legal paths and what would get the data there: a path
# through an intermediate space, nothing out of Left / Right / Bias, Acc only
# from matmul, Vec / Mat from GM. The default target is pl.Mem.Vec.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# CHECK-NOT: error
import pypto.language as pl


@pl.program
class BadMoves:
    @pl.function(type=pl.FunctionType.AIC)
    def kernel(self, a: pl.Tensor[[16, 16], pl.FP16]):
        v = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
        m = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        l = pl.move(m, target_memory=pl.Mem.Left)
        r = pl.move(m, target_memory=pl.Mem.Right)
        b = pl.move(m, target_memory=pl.Mem.Bias)
        acc = pl.matmul(l, r)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Vec tile to pl.Mem.Left: the on-chip data paths are pl.Mem.Vec -> pl.Mem.Vec | pl.Mem.Mat, pl.Mem.Mat -> pl.Mem.Left | pl.Mem.Right | pl.Mem.Bias, pl.Mem.Acc -> pl.Mem.Mat | pl.Mem.Vec; move it to pl.Mem.Mat first, then to pl.Mem.Left
        e1 = pl.move(v, target_memory=pl.Mem.Left)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Acc tile to pl.Mem.Right: {{.*}}; move it to pl.Mem.Mat first, then to pl.Mem.Right
        e2 = pl.move(acc, target_memory=pl.Mem.Right)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Vec tile to pl.Mem.Bias: {{.*}}; move it to pl.Mem.Mat first, then to pl.Mem.Bias
        e3 = pl.move(v, target_memory=pl.Mem.Bias)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Left tile to pl.Mem.Vec: {{.*}}; nothing moves out of pl.Mem.Left (only the cube unit reads it); move the pl.Mem.Mat tile it came from instead
        e4 = pl.move(l)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Right tile to pl.Mem.Mat: {{.*}}; nothing moves out of pl.Mem.Right
        e5 = pl.move(r, target_memory=pl.Mem.Mat)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Bias tile to pl.Mem.Bias: {{.*}}; nothing moves out of pl.Mem.Bias
        e6 = pl.move(b, target_memory=pl.Mem.Bias)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Mat tile to pl.Mem.Acc: {{.*}}; only pl.matmul / pl.matmul_acc write pl.Mem.Acc
        e7 = pl.move(m, target_memory=pl.Mem.Acc)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Acc tile to pl.Mem.Acc: {{.*}}; only pl.matmul / pl.matmul_acc write pl.Mem.Acc
        e8 = pl.move(acc, target_memory=pl.Mem.Acc)
        # CHECK: move_errors.pir:[[@LINE+1]]:14: error: tile.move: cannot move a pl.Mem.Mat tile to pl.Mem.Vec: {{.*}}; load the data from GM with pl.load(..., target_memory=pl.Mem.Vec)
        e9 = pl.move(m)
        # CHECK: move_errors.pir:[[@LINE+1]]:15: error: tile.move: cannot move a pl.Mem.Mat tile to pl.Mem.Mat: {{.*}}; load the data from GM with pl.load(..., target_memory=pl.Mem.Mat)
        e10 = pl.move(m, target_memory=pl.Mem.Mat)
        # CHECK: move_errors.pir:[[@LINE+1]]:15: error: tile.move: cannot move a pl.Mem.Vec tile to pl.Mem.Acc: {{.*}}; only pl.matmul / pl.matmul_acc write pl.Mem.Acc
        e11 = pl.move(v, target_memory=pl.Mem.Acc)
        return
