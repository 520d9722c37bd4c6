# Every on-chip space of the cube core has a capacity, and a kernel whose live
# tiles exceed it is refused at the call that first overflows it (never PTO that
# ptoas or the hardware would reject later): Mat (L1, 512 KiB), Right (L0B,
# 64 KiB), Acc (L0C, 128 KiB on a2a3), Bias (1 KiB). Left is in matmul_errors.pir.
# RUN: not pypto-opt %s --emit=pto 2>&1 | FileCheck %s
# RUN: not pypto-opt %s --emit=pto --target=a5 2>&1 | FileCheck %s --check-prefix=A5
# CHECK: cube_capacity.pir:[[@LINE+18]]:14: error: tile.load: kernel tiles need 2097152 bytes of L1 (pl.Mem.Mat) but the a2a3 target has 524288
# CHECK: cube_capacity.pir:[[@LINE+23]]:14: error: tile.move: kernel tiles need 131072 bytes of L0B (pl.Mem.Right) but the a2a3 target has 65536
# CHECK: cube_capacity.pir:[[@LINE+31]]:15: error: tile.matmul: kernel tiles need 262144 bytes of L0C (pl.Mem.Acc) but the a2a3 target has 131072
# CHECK: cube_capacity.pir:[[@LINE+37]]:14: error: tile.move: kernel tiles need 2048 bytes of the bias table (pl.Mem.Bias) but the a2a3 target has 1024
# CHECK-NOT: error
# a5's L0C is 256 KiB: the Acc tile fits there, the other three still do not.
# A5: error: tile.load: kernel tiles need 2097152 bytes of L1 (pl.Mem.Mat) but the a5 target has 524288
# A5: error: tile.move: kernel tiles need 131072 bytes of L0B (pl.Mem.Right) but the a5 target has 65536
# A5-NOT: pl.Mem.Acc
# A5: error: tile.move: kernel tiles need 2048 bytes of the bias table (pl.Mem.Bias) but the a5 target has 1024
# A5-NOT: error
import pypto.language as pl


@pl.program
class CubeCapacity:
    @pl.function(type=pl.FunctionType.AIC)
    def big_mat(self, a: pl.Tensor[[1024, 1024], pl.FP16]):
        ma = pl.load(a, [0, 0], [1024, 1024], target_memory=pl.Mem.Mat)
        return

    @pl.function(type=pl.FunctionType.AIC)
    def big_right(self, b: pl.Tensor[[256, 256], pl.FP16]):
        mb = pl.load(b, [0, 0], [256, 256], target_memory=pl.Mem.Mat)
        rb = pl.move(mb, target_memory=pl.Mem.Right)
        return

    @pl.function(type=pl.FunctionType.AIC)
    def big_acc(self, a: pl.Tensor[[256, 128], pl.FP16], b: pl.Tensor[[128, 256], pl.FP16], c: pl.Out[pl.Tensor[[256, 256], pl.FP32]]):
        ma = pl.load(a, [0, 0], [256, 128], target_memory=pl.Mem.Mat)
        mb = pl.load(b, [0, 0], [128, 256], target_memory=pl.Mem.Mat)
        la = pl.move(ma, target_memory=pl.Mem.Left)
        rb = pl.move(mb, target_memory=pl.Mem.Right)
        acc = pl.matmul(la, rb)
        pl.store(acc, [0, 0], c)
        return

    @pl.function(type=pl.FunctionType.AIC)
    def big_bias(self, b: pl.Tensor[[1, 512], pl.FP32]):
        mb = pl.load(b, [0, 0], [1, 512], target_memory=pl.Mem.Mat)
        bb = pl.move(mb, target_memory=pl.Mem.Bias)
        return
