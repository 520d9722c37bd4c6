# Host allreduce on FP16 (signal synthesized): the program before the host
# passes and after --pipeline=default runs on P = 2 and 4 with --check-signals
# --detect-races and matches the exact sum (small integers, exact in FP16).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: FileCheck %s --check-prefix=IR < %t.d/lowered.pir
# IR: pl.builtin.tensor.allreduce(data, __allreduce_signal_0, op=pld.ReduceOp.Sum, dtype=pl.FP16,
# RUN: %python %srcroot/tests/lit/sim/Inputs/simtool.py arange %t.d/x2.npy float16 2 16 64
# RUN: %python %srcroot/tests/lit/sim/Inputs/simtool.py arange %t.d/x4.npy float16 4 16 64
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: %python %srcroot/tests/lit/sim/Inputs/simtool.py expect-allreduce-sum %t.d/x2.npy %t.d/s2/y.npy | FileCheck %s
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: %python %srcroot/tests/lit/sim/Inputs/simtool.py expect-allreduce-sum %t.d/x2.npy %t.d/l2/y.npy | FileCheck %s
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: %python %srcroot/tests/lit/sim/Inputs/simtool.py expect-allreduce-sum %t.d/x4.npy %t.d/s4/y.npy | FileCheck %s
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races --schedule=random:9
# RUN: %python %srcroot/tests/lit/sim/Inputs/simtool.py expect-allreduce-sum %t.d/x4.npy %t.d/l4/y.npy | FileCheck %s
# CHECK: allreduce OK
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class HostAllReduce:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[16, 64], pl.FP16], data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP16]]):
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        d2 = pl.tile.store(t, [0, 0], data)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def unstage(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP16]], y: pl.Out[pl.Tensor[[16, 64], pl.FP16]]):
        t: pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [16, 64])
        y2 = pl.tile.store(t, [0, 0], y)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP16], y: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP16]]):
        buf = pld.tensor.alloc_window_buffer(4096)
        data = pld.tensor.window(buf, [16, 64], dtype=pl.FP16)
        for r in pl.range(pld.system.world_size()):
            self.stage(x[r], data, device=r)
        data = pld.tensor.allreduce(data, op=pld.ReduceOp.Sum)
        for r in pl.range(pld.system.world_size()):
            self.unstage(data, y[r], device=r)
