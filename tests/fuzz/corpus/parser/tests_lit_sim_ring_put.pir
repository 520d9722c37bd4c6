# Ring put on 3 ranks: rank r receives rank r-1's tile; the counter is reset, so
# --check-signals and --detect-races stay quiet; --stats counts bytes and signals.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py arange %t.d/x.npy float32 3 4 8
# RUN: pypto-run %s --ranks 3 --input x=%t.d/x.npy --output-dir %t.d --stats --check-signals --detect-races 2>&1 | FileCheck %s
# RUN: %python %S/Inputs/simtool.py expect-roll %t.d/x.npy %t.d/y.npy 1 | FileCheck %s --check-prefix=ROLL
# CHECK: stats: rank 0: bytes_sent=128 bytes_received=0 notifies=2 waits=1 collectives=0
# CHECK: stats: rank 2: bytes_sent=128 bytes_received=0 notifies=2 waits=1 collectives=0
# ROLL: roll OK
# The same program after the default pass pipeline (tile ops, staging tiles,
# fences, materialised comm contexts) must give the same result.
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: pypto-run %t.d/lowered.pir --ranks 3 --input x=%t.d/x.npy --output-dir %t.d/lowered --check-signals --detect-races
# RUN: %python %S/Inputs/simtool.py expect-roll %t.d/x.npy %t.d/lowered/y.npy 1 | FileCheck %s --check-prefix=ROLL
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingPut:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(dst)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        peer = (me + 1) % n
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.notify(signal, me, [0, 0], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(dst, [0, 0], [4, 8])
        o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.kernel(src, dst, signal, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(128)
        sbuf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [4, 8], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], data, sig, y[r], device=r)
