# A kernel mixing cube and vector work is not split into AIC + AIV functions
# yet: expand-mixed-kernel reports it at the first cube call (a note at the
# first vector one) or at a tile.move between the cores, instead of emitting one
# vector kernel holding cube tiles. --pipeline=default stops there too.
# RUN: not pypto-opt %s --passes=expand-mixed-kernel 2>&1 | FileCheck %s
# RUN: not pypto-opt %s --pipeline=default --emit=pto 2>&1 | FileCheck %s
# CHECK: mixed_errors.pir:[[@LINE+11]]:13: error: expand-mixed-kernel: kernel 'both' mixes cube and vector work (tile.load runs on the cube core, tile.load on the vector core); splitting it into an AIC and an AIV function that pass tiles through the cross-core pipe is not supported yet: write the cube part and the vector part as separate kernels (pl.FunctionType.AIC / AIV) that exchange data through GM
# CHECK: mixed_errors.pir:[[@LINE+15]]:13: note: the first vector-core call
# CHECK: mixed_errors.pir:[[@LINE+23]]:13: error: expand-mixed-kernel: kernel 'drain' mixes cube and vector work (tile.move moves a tile between the cube and the vector core); splitting it
# CHECK-NOT: error
import pypto.language as pl


@pl.program
class Mixed:
    @pl.function(type=pl.FunctionType.InCore)
    def both(self, a: pl.Tensor[[16, 16], pl.FP16], x: pl.Tensor[[16, 16], pl.FP32], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        m = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        l = pl.move(m, target_memory=pl.Mem.Left)
        r = pl.move(m, target_memory=pl.Mem.Right)
        acc = pl.matmul(l, r)
        pl.store(acc, [0, 0], c)
        v = pl.load(x, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
        s = pl.add(v, v)
        pl.store(s, [0, 0], y)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def drain(self, a: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        m = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        acc = pl.matmul(pl.move(m, target_memory=pl.Mem.Left), pl.move(m, target_memory=pl.Mem.Right))
        v = pl.move(acc, target_memory=pl.Mem.Vec)
        pl.store(v, [0, 0], c)
        return
