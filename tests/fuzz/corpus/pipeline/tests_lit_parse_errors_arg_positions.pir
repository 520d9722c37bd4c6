# Op argument errors point at the argument as written at the call: a Var's use
# (not its definition), a list literal's '[', a keyword-given argument's value,
# the left operand of an expression argument, and the operands of `a + b`,
# `a += b` and `x[i, j]`; keyword errors point at the keyword's value.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ArgPositions:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Tensor[[16, 64], pl.FP16], sig: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        b = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        h = pl.tile.create([16, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        m = pl.tile.move(b, target_memory=pl.Mem.Mat)
        # CHECK: arg_positions.pir:[[@LINE+1]]:49: error: tile.store: argument 'tile' must be in pl.Mem.Vec or pl.Mem.Acc, got pl.Mem.Mat
        c = pl.tile.store(output_tensor=x, tile=m, offsets=[0, 0])
        # CHECK: arg_positions.pir:[[@LINE+1]]:54: error: tile.load: argument 'offsets' region exceeds 'tensor' in dim 0: offset 8 + extent 16 > 16
        a = pl.tile.load(x, shapes=[16, 64], offsets=[8, 0])
        # CHECK: arg_positions.pir:[[@LINE+1]]:28: error: tile.add: argument 'rhs' must be a pl.Tile, got pl.Tensor{{\[}}[16, 64], pl.FP32]
        d = pl.tile.add(b, x + x)
        # CHECK: arg_positions.pir:[[@LINE+1]]:17: error: tile.add: argument 'rhs' must be a pl.Tile, got pl.Tensor{{\[}}[16, 64], pl.FP32]
        e = b + x
        # CHECK: arg_positions.pir:[[@LINE+1]]:14: error: tile.add: argument 'rhs' shape [16, 32] does not match 'lhs' shape [16, 64] (dim 1)
        b += h
        # CHECK: arg_positions.pir:[[@LINE+1]]:23: error: tensor.add: argument 'rhs' dtype pl.FP16 does not match 'lhs' dtype pl.FP32
        f = pl.add(x, y[0:16, 0:64])
        # CHECK: arg_positions.pir:[[@LINE+1]]:52: error: pld.system.notify: keyword 'op' value 7 is out of range for pld.NotifyOp
        pld.system.notify(sig, peer, [0, 0], 1, op=7)
        # CHECK-NOT: error
        return
