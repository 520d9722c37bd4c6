# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Malformed type annotations.
# CHECK: bad_annotations.pir:14:40: error: pl.Tensor: expected a dtype such as pl.FP32
# CHECK: bad_annotations.pir:14:74: error: pl.Tile: unexpected type argument; expected a memory space (pl.Mem.Vec) then optionally pl.TileView(...)
# CHECK: bad_annotations.pir:14:93: error: unknown type 'pl.Vector[...]'; expected pl.Scalar, pl.Tensor, pld.DistributedTensor, pl.Tile or pl.Tuple
# CHECK: bad_annotations.pir:14:113: error: parameter 'd' of 'f' needs a type annotation, e.g. 'd: pl.Tensor{{\[\[}}16, 64], pl.FP32]'
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function
    def f(self, a: pl.Tensor[[16, 64], pl.FOO], b: pl.Tile[[4], pl.FP32, pl.Level.HOST], c: pl.Vector[pl.FP32], d):
        pass
