# Tile op verifier rules: each bad call is reported (all of them, in order) at
# file:line:col with the op, the argument and the rule.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class BadTile:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Tensor[[16, 64], pl.FP16], z: pl.Tensor[[4, 4], pl.INT64]):
        # CHECK: tile_errors.pir:[[@LINE+1]]:29: error: tile.load: argument 'offsets' region exceeds 'tensor' in dim 0: offset 8 + extent 16 > 16
        a = pl.tile.load(x, [8, 0], [16, 64], target_memory=pl.Mem.Vec)
        # CHECK: tile_errors.pir:[[@LINE+1]]:47: error: tile.load: argument 'valid_shape' dim 1 is 65, outside [0, 64]
        a = pl.tile.load(x, [0, 0], [16, 64], [16, 65])
        # CHECK: tile_errors.pir:[[@LINE+1]]:61: error: tile.load: keyword 'target_memory' pl.Mem.DDR is not an on-chip memory space; use pl.Mem.Vec, pl.Mem.Mat, pl.Mem.Left, pl.Mem.Right, pl.Mem.Acc or pl.Mem.Bias
        a = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.DDR)
        b = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        # CHECK: tile_errors.pir:[[@LINE+1]]:27: error: tile.store: argument 'tile' dtype pl.FP32 does not match 'output_tensor' dtype pl.FP16
        c = pl.tile.store(b, [0, 0], y)
        m = pl.tile.move(b, target_memory=pl.Mem.Mat)
        # CHECK: tile_errors.pir:[[@LINE+1]]:27: error: tile.store: argument 'tile' must be in pl.Mem.Vec or pl.Mem.Acc, got pl.Mem.Mat
        c = pl.tile.store(m, [0, 0], x)
        t = pl.tile.create([4, 4], dtype=pl.INT64, target_memory=pl.Mem.Vec)
        # CHECK: tile_errors.pir:[[@LINE+1]]:48: error: tile.store: keyword 'atomic' pld.AtomicType.Add requires a FP32, BF16, FP16, INT32, INT16 or INT8 output, got pl.INT64
        c = pl.tile.store(t, [0, 0], z, atomic=pld.AtomicType.Add)
        # CHECK: tile_errors.pir:[[@LINE+1]]:28: error: tile.add: argument 'rhs' must be a pl.Tile, got pl.Tensor{{\[}}[16, 64], pl.FP32]
        d = pl.tile.add(b, x)
        h = pl.tile.create([16, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        # CHECK: tile_errors.pir:[[@LINE+1]]:28: error: tile.mul: argument 'rhs' shape [16, 32] does not match 'lhs' shape [16, 64] (dim 1)
        d = pl.tile.mul(b, h)
        # CHECK: tile_errors.pir:[[@LINE+1]]:39: error: tile.set_validshape: argument 'valid_rows' is 17, outside [0, 16] (the tile's rows)
        e = pl.tile.set_validshape(b, 17, 8)
        # CHECK: tile_errors.pir:[[@LINE+1]]:37: error: tile.fillpad_inplace: argument 'tile' must be in pl.Mem.Vec, got pl.Mem.Mat
        f = pl.tile.fillpad_inplace(m)
        # CHECK: tile_errors.pir:[[@LINE+1]]:28: error: tile.create: argument 'shape' dim 1 must be positive, got 0
        g = pl.tile.create([16, 0], dtype=pl.FP32)
        # CHECK: tile_errors.pir:[[@LINE+1]]:13: error: tile.create: missing required keyword argument 'dtype'
        g = pl.tile.create([16, 16])
        # CHECK: tile_errors.pir:[[@LINE+1]]:29: error: tile.read: argument 'indices' must have 2 elements (one per dimension of 'tile'), got 1
        v = pl.tile.read(b, [0])
        # CHECK: tile_errors.pir:[[@LINE+1]]:13: error: tile.load: expected 3 to 4 positional arguments (tensor, offsets, shapes, valid_shape), got 2
        a = pl.tile.load(x, [0, 0])
        # CHECK-NOT: error
        return
