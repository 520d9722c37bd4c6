# RUN: pypto-opt %s | FileCheck %s
# Verifier: a well-formed program with loop-carried values, an if with results
# and a self-call verifies and prints.
import pypto.language as pl


@pl.program
class Valid:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], flag: pl.Scalar[pl.BOOL]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])
        for i, (acc,) in pl.range(0, 4, 1, init_values=(t,)):
            nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
            acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
        if flag:
            r: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(acc_out)
        else:
            r: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(t)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a: pl.Tensor[[16, 64], pl.FP32]):
        self.kernel(a, True)
        return
# CHECK: @pl.program
# CHECK: def kernel(
# CHECK: pl.tile.add(acc, t)
# CHECK: def chip(
