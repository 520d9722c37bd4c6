# Vector-only (and comm-only) kernels become AIV, cube-only kernels AIC. The
# classification is the seed's table: a remote_load is SHARED (a cube kernel
# with one is still AIC), a call stamped core_placement="aiv" is VECTOR and the
# stamp is consumed (stripped). Mixed kernels are errors: mixed_errors.pir.
# RUN: pypto-opt %s --passes=expand-mixed-kernel --verify-each --roundtrip-each | FileCheck %s
# CHECK:      @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def vec(
# CHECK:      @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def comm(
# CHECK:      @pl.function(type=pl.FunctionType.AIC)
# CHECK-NEXT: def cube(
# CHECK:      @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def placed(
# CHECK:      pld.system.notify(sig, 0, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd){{$}}
# CHECK:      @pl.function(type=pl.FunctionType.AIC)
# CHECK-NEXT: def cube_and_remote_load(
# CHECK-NOT:  core_placement
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
    def placed(self, sig: pld.DistributedTensor[[4, 1], pl.INT32], a: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]):
        t = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [0, 0], a)
        pld.system.notify(sig, 0, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd, attrs={"core_placement": "aiv"})
        return

    @pl.function(type=pl.FunctionType.InCore)
    def cube_and_remote_load(self, w: pld.DistributedTensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        m = pl.tile.load(w, [0, 0], [16, 16], target_memory=pl.Mem.Mat)
        r = pld.tile.remote_load(w, 1, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
        acc = pl.tile.matmul(pl.tile.move(m, target_memory=pl.Mem.Left), pl.tile.move(m, target_memory=pl.Mem.Right))
        pl.tile.store(acc, [0, 0], c)
        return
