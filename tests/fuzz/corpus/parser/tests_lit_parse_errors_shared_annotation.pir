# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# A statement whose annotation text repeats the one before it shares that
# statement's syntax tree; every diagnostic about it must still point at its
# own line and column (names of different lengths shift the column), including
# errors inside the annotation and annotations of yields.
import pypto.language as pl


@pl.program
class Shared:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Tensor[[16, 64], pl.FP16], n: pl.Scalar[pl.INDEX]):
        a: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        # CHECK: shared_annotation.pir:[[@LINE+1]]:17: error: type annotation of 'longer' does not match its value: annotated pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec], but the value has type pl.Tile{{\[\[}}16, 64], pl.FP16]
        longer: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [16, 64])
        # CHECK: shared_annotation.pir:[[@LINE+1]]:30: error: pl.Tile: expected a dtype such as pl.FP32
        c: pl.Tile[[16, 64], pl.FP99, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        # CHECK: shared_annotation.pir:[[@LINE+1]]:31: error: pl.Tile: expected a dtype such as pl.FP32
        dd: pl.Tile[[16, 64], pl.FP99, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        e: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        # The same text followed by more expression is a different annotation.
        # CHECK: shared_annotation.pir:[[@LINE+1]]:12: error: unknown type '<expression>[...]'; expected pl.Scalar, pl.Tensor, pld.DistributedTensor, pl.Tile or pl.Tuple
        f: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec][0] = pl.tile.load(x, [0, 0], [16, 64])
        if n == 0:
            # CHECK: shared_annotation.pir:[[@LINE+1]]:16: error: type annotation of 's' does not match the yielded value: annotated pl.Scalar[pl.FP32], but the value has type pl.Scalar[pl.INDEX]
            s: pl.Scalar[pl.FP32] = pl.yield_(n)
        else:
            # CHECK: shared_annotation.pir:[[@LINE+1]]:16: error: type annotation of 's' does not match the yielded value: annotated pl.Scalar[pl.FP32], but the value has type pl.Scalar[pl.INDEX]
            s: pl.Scalar[pl.FP32] = pl.yield_(n)
        return
