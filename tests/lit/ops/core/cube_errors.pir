# Cube op and tile.full rules: each bad call is reported at file:line:col with
# the op, the argument and the rule.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl


@pl.program
class BadCube:
    @pl.function(type=pl.FunctionType.AIC)
    def kernel(self, a: pl.Tensor[[16, 32], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], f: pl.Tensor[[32, 16], pl.FP32], g: pl.Tensor[[32, 32], pl.FP16]):
        ma = pl.load(a, [0, 0], [16, 32], target_memory=pl.Mem.Mat)
        mb = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        mf = pl.load(f, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        la = pl.move(ma, target_memory=pl.Mem.Left)
        rb = pl.move(mb, target_memory=pl.Mem.Right)
        rf = pl.move(mf, target_memory=pl.Mem.Right)
        la2 = pl.move(mb, target_memory=pl.Mem.Left)
        rg = pl.move(pl.load(g, [0, 0], [32, 32], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        # CHECK: cube_errors.pir:[[@LINE+1]]:28: error: tile.matmul: argument 'lhs' must be in pl.Mem.Left (the cube unit reads it there), got pl.Mem.Mat; move it there with pl.move(t, target_memory=pl.Mem.Left)
        x = pl.tile.matmul(ma, rb)
        # CHECK: cube_errors.pir:[[@LINE+1]]:32: error: tile.matmul: argument 'rhs' has dtype pl.FP32 but the lhs has pl.FP16; matmul operands share one dtype
        x = pl.tile.matmul(la, rf)
        # CHECK: cube_errors.pir:[[@LINE+1]]:33: error: tile.matmul: argument 'rhs' has K = 32 but the lhs has K = 16 (lhs [32, 16], rhs [32, 16])
        x = pl.tile.matmul(la2, rb)
        # CHECK: cube_errors.pir:[[@LINE+1]]:46: error: tile.matmul: keyword 'out_dtype' is pl.FP16, but pl.FP16 operands accumulate in pl.FP32
        x = pl.tile.matmul(la, rb, out_dtype=pl.FP16)
        acc = pl.tile.matmul(la, rb)
        # CHECK: cube_errors.pir:[[@LINE+1]]:32: error: tile.matmul_acc: argument 'acc' must be in pl.Mem.Acc (the cube unit reads it there), got pl.Mem.Left; move it there with pl.move(t, target_memory=pl.Mem.Acc)
        y = pl.tile.matmul_acc(la, la, rb)
        # a_trans: la2 [32, 16] is taken as [16, 32], so this one is fine.
        y = pl.tile.matmul_acc(acc, la2, rb, a_trans=True)
        # CHECK: cube_errors.pir:[[@LINE+1]]:32: error: tile.matmul_acc: argument 'acc' shape [16, 16] does not match the product's [16, 32] (dim 1)
        y = pl.tile.matmul_acc(acc, la, rg)
        # CHECK: cube_errors.pir:[[@LINE+1]]:65: error: tile.full: keyword 'target_memory' is pl.Mem.Acc; tile.full fills a pl.Mem.Vec tile (the vector unit writes it); fill in Vec and move it
        z = pl.tile.full([16, 16], dtype=pl.FP32, target_memory=pl.Mem.Acc)
        # CHECK-NOT: error
        return
