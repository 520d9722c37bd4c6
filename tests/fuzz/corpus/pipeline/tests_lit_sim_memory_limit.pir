# The run's memory limit (--memory-limit, default 16G): an estimate above it is
# refused before anything is allocated, with the estimate; a window allocated
# in a loop is checked again when it is allocated. Exit 1.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py arange %t.d/x.npy float32 2 4 8
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d --memory-limit=100M | FileCheck %s --check-prefix=EST
# EST: error: this run needs an estimated 128.0 MiB (134218368 bytes) (windows 128.0 MiB (134217856 bytes) on 2 ranks, host tensors 512 bytes) before it starts; the memory limit is 100.0 MiB (104857600 bytes); raise it with --memory-limit=BYTES (e.g. 64G; pypto.sim.run: memory_limit=, RunOptions::memory_limit; 'none' or 0 disables it)
# EST-NEXT: exit code 1
# Under the limit the same run goes through (the 64 MiB windows are mapped
# lazily: only the pages of the [4, 8] view are touched).
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d --memory-limit=200M
# RUN: %python %S/Inputs/simtool.py expect-roll %t.d/x.npy %t.d/y.npy 1 | FileCheck %s --check-prefix=ROLL
# ROLL: roll OK
# The default limit refuses 2 x 8 GiB of windows up front.
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/x.npy --entry big | FileCheck %s --check-prefix=DEFAULT
# DEFAULT: error: this run needs an estimated 16.0 GiB (17179869440 bytes) (windows 16.0 GiB (17179869184 bytes) on 2 ranks, host tensors 256 bytes) before it starts; the memory limit is 16.0 GiB (17179869184 bytes)
# A window buffer allocated in a loop: the estimate counts the call once, the
# second allocation is refused when it happens.
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --entry rounds --memory-limit=200M | FileCheck %s --check-prefix=LOOP
# LOOP: memory_limit.pir:[[@LINE+41]]:19: error: window 'buf' of 64.0 MiB (67108864 bytes) on each of 2 ranks would bring this run's windows to 256.0 MiB (268435456 bytes); the memory limit is 200.0 MiB (209715200 bytes); raise it with --memory-limit=BYTES
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Windows:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(dst)
        me = pld.rank(ctx)
        peer = (me + 1) % pld.nranks(ctx)
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(dst, [0, 0], [4, 8])
        o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.kernel(src, dst, signal, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(67108864)
        sbuf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [4, 8], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], data, sig, y[r], device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def big(self, x: pl.Tensor[[NR, 4, 8], pl.FP32]):
        buf = pld.tensor.alloc_window_buffer(8589934592)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def rounds(self):
        for i in pl.range(4):
            buf = pld.tensor.alloc_window_buffer(67108864)
