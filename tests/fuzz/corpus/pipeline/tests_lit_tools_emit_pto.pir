# --emit=pto: one module per kernel; with -o DIR the directory is created and
# each module lands in DIR/<kernel>.pto; --target selects pto.target_arch.
# RUN: rm -rf %t.dir
# RUN: %python %S/Inputs/expect_exit.py 0 pypto-opt %s --pipeline=default --emit=pto --target=a5 -o %t.dir/sub 2> %t.err
# RUN: FileCheck %s --check-prefix=FILE < %t.dir/sub/kernel.pto
# FILE: module attributes {pto.target_arch = "a5"}
# FILE: func.func @kernel(
# RUN: %python %S/Inputs/expect_exit.py 0 pypto-opt %s --pipeline=default --emit=pto 2> %t.err | FileCheck %s --check-prefix=STDOUT
# STDOUT: module attributes {pto.target_arch = "a2a3"}
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], signal: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        t = pl.tile.load(src, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        acc = t
        for i in pl.range(4):
            acc = pl.tile.add(acc, t)
        pl.tile.store(acc, [0, 0], dst)
        return

    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32], data: pld.DistributedTensor[[16, 64], pl.FP32], sig: pld.DistributedTensor[[NR, 1], pl.INT32], r: pl.Scalar[pl.INDEX]):
        peer = pl.cast((r + 1) % 4, pl.INT32)
        self.kernel(x, data, sig, peer)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32]):
        buf = pld.tensor.alloc_window_buffer(4096)
        data = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        sbuf = pld.tensor.alloc_window_buffer(64)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], data, sig, r, device=r)
        return
