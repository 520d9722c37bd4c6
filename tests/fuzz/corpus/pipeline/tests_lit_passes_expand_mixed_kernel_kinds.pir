# Vector-only (and comm-only) kernels become AIV, cube-only kernels AIC; a kernel
# mixing both stays InCore with a warning (the AIC + AIV split is not done yet).
# RUN: pypto-opt %s --passes=expand-mixed-kernel --verify-each --roundtrip-each 2> %t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=WARN < %t.err
# CHECK:      @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def vec(
# CHECK:      @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def comm(
# CHECK:      @pl.function(type=pl.FunctionType.AIC)
# CHECK-NEXT: def cube(
# CHECK:      @pl.function(type=pl.FunctionType.InCore)
# CHECK-NEXT: def mixed(
# WARN: kinds.pir:[[@LINE+25]]:13: warning: expand-mixed-kernel: kernel 'mixed' mixes cube and vector work (tile.load and tile.load); splitting it into AIC + AIV functions is not supported yet, so it stays InCore
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Kinds:
    @pl.function(type=pl.FunctionType.InCore)
    def vec(self, a: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]):
        t = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [0, 0], a)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def comm(self, sig: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def cube(self, a: pl.Tensor[[16, 64], pl.FP32]):
        m = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def mixed(self, a: pl.Tensor[[16, 64], pl.FP32]):
        m = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Mat)
        v = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        return
