# The default pipeline end to end (ring exchange: put + notify + wait + a tile
# loop): outlined/SSA/tile-converted kernel, ctx params threaded from the host
# orchestrator, fences inserted. Every pass of the pipeline runs; exit code 0.
# RUN: %python %S/Inputs/expect_exit.py 0 pypto-opt %s --pipeline=default --verify-each --roundtrip-each 2> %t.err | FileCheck %s
# RUN: FileCheck %s --check-prefix=WARN --allow-empty < %t.err
# WARN-NOT: not implemented
# CHECK:      @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def kernel(self, src: pl.Tensor{{\[\[}}16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor{{\[\[}}16, 64], pl.FP32]], signal: pl.InOut[pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32]], peer: pl.Scalar[pl.INT32], dst_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
# CHECK-NEXT:     tput_stage: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT:     pld.tile.put(dst, peer, src, tput_stage, atomic=pld.AtomicType.None_)
# CHECK-NEXT:     pl.system.fence()
# CHECK-NEXT:     pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT:     pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT:     pl.system.cacheinvalid()
# CHECK:          for i, (acc_1,) in pl.range(4, init_values=(acc,)):
# CHECK:          pl.tile.store(acc_3, [0, 0], dst)
# CHECK-NEXT:     pl.system.cacheinvalid(dst, [16, 64], [0, 0])
# CHECK-NEXT:     pl.system.fence()
# CHECK:          self.kernel(x, data, sig, peer, data_ctx, sig_ctx)
# CHECK:          data_ctx: pld.CommCtx = pld.system.get_comm_ctx(data)
# CHECK-NEXT:     sig_ctx: pld.CommCtx = pld.system.get_comm_ctx(sig)
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
