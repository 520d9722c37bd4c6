# A host-orchestrator allreduce runs as a whole operation on every rank of the
# window's domain (here P = 4); an input with the wrong shape is a user error
# naming the expected shape, the annotated type and the bound dynamic dim.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py arange %t.d/x.npy float32 4 16 64
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x.npy --output-dir %t.d --check-signals
# RUN: %python %S/Inputs/simtool.py expect-allreduce-sum %t.d/x.npy %t.d/y.npy | FileCheck %s --check-prefix=SUM
# SUM: allreduce OK
# RUN: %python %S/Inputs/simtool.py arange %t.d/bad.npy float32 4 16
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 4 --input x=%t.d/bad.npy --output-dir %t.d | FileCheck %s --check-prefix=BAD
# BAD: error: input 'x': expected shape [4, 16, 64] dtype FP32 (pl.Tensor{{\[\[}}NR, 16, 64], pl.FP32] with NR=4), got [4, 16] FP32
# BAD: exit code 1
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 4 --output-dir %t.d | FileCheck %s --check-prefix=MISSING
# MISSING: error: input 'x' is missing: expected shape [4, 16, 64] dtype FP32 (pl.Tensor{{\[\[}}NR, 16, 64], pl.FP32] with NR=4); pass --input x=FILE.npy
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --ranks 4 --entry nope | FileCheck %s --check-prefix=USAGE
# USAGE: error: --entry 'nope': no such function in program 'HostAllReduce'
# USAGE: exit code 2
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --ranks 4 --schedule=bogus | FileCheck %s --check-prefix=SCHED
# SCHED: pypto-run: error: bad --schedule 'bogus'; expected parallel, random:SEED or pct:SEED[:DEPTH[:STEPS]] (DEPTH 1..64, default 3; STEPS >= 1, default 64)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class HostAllReduce:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[16, 64], pl.FP32], data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        d2 = pl.tile.store(t, [0, 0], data)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def unstage(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [16, 64])
        y2 = pl.tile.store(t, [0, 0], y)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32], y: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(4096)
        sbuf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.stage(x[r], data, device=r)
        data = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum)
        for r in pl.range(pld.system.world_size()):
            self.unstage(data, y[r], device=r)
