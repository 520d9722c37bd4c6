# Resources the OS refuses are clear errors (exit 1), never a crash: a window
# whose memory cannot be mapped (the ranks already mapped are released) and an
# OS thread that cannot be started (the threads already started are stopped and
# joined). prlimit caps the address space so both happen on any machine.
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- prlimit --as=6000000000 pypto-run %s --ranks 2 --entry big | FileCheck %s --check-prefix=WINDOW
# WINDOW: resource_failures.pir:[[@LINE+32]]:15: error: cannot allocate window 'buf' of 4.0 GiB (4294967296 bytes) on rank 1 of 2: Cannot allocate memory
# WINDOW-NEXT: buf = pld.tensor.alloc_window_buffer(4294967296)
# WINDOW: exit code 1
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- prlimit --as=300000000 pypto-run %s --ranks 256 --inputs-random=1 --output-dir %t.d | FileCheck %s --check-prefix=THREAD
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- prlimit --as=300000000 pypto-run %s --ranks 256 --inputs-random=1 --output-dir %t.d --schedule=random:1 | FileCheck %s --check-prefix=THREAD
# THREAD: error: cannot start thread '{{rank[0-9]+}}' (after {{[0-9]+}} of the 256 threads of its group): Resource temporarily unavailable; every rank, pl.spmd block and split_aiv lane is an OS thread (lower --ranks or the block count, or raise the process or memory limits)
# THREAD-NEXT: exit code 1
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Resources:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [4, 8])
        o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.kernel(src, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], y[r], device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def big(self):
        buf = pld.tensor.alloc_window_buffer(4294967296)
