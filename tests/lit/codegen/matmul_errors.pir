# Cube kernels the PTO backend refuses, each at the call's line:col: every
# on-chip space has a capacity (a 128 KiB Left tile does not fit L0A), and a
# transposed operand is not emitted yet (a clear error, not wrong PTO).
# RUN: not pypto-opt %s --emit=pto 2>&1 | FileCheck %s
# CHECK: matmul_errors.pir:[[@LINE+11]]:14: error: tile.move: kernel tiles need 131072 bytes of L0A (pl.Mem.Left) but the a2a3 target has 65536
# CHECK: matmul_errors.pir:[[@LINE+19]]:15: error: tile.matmul: a_trans=True is not supported by the PTO backend yet; pass the operand untransposed
# CHECK-NOT: error
import pypto.language as pl


@pl.program
class CubeErrors:
    @pl.function(type=pl.FunctionType.AIC)
    def big(self, a: pl.Tensor[[256, 256], pl.FP16]):
        ma = pl.load(a, [0, 0], [256, 256], target_memory=pl.Mem.Mat)
        la = pl.move(ma, target_memory=pl.Mem.Left)
        return

    @pl.function(type=pl.FunctionType.AIC)
    def trans(self, a: pl.Tensor[[32, 16], pl.FP16], b: pl.Tensor[[32, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        ma = pl.load(a, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        mb = pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat)
        la = pl.move(ma, target_memory=pl.Mem.Left)
        rb = pl.move(mb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, rb, a_trans=True, b_trans=False)
        pl.store(acc, [0, 0], c)
        return
