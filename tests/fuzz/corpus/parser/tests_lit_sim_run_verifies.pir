# pypto-run verifies the program before running it: a program pypto-opt rejects
# is rejected by pypto-run with the same diagnostics and the same exit code (1),
# and nothing runs (no output is written).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py arange %t.d/x.npy float32 2 4 8
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-opt %s | FileCheck %s
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/out | FileCheck %s
# CHECK: run_verifies.pir:[[@LINE+21]]:9: error: self.kernel: argument 0 has type pl.Tensor{{\[\[}}4, 8], pl.FP32] but parameter 'src' is pl.Tensor{{\[\[}}4, 16], pl.FP32]
# CHECK-NOT: wrote
# CHECK: exit code 1
# RUN: not ls %t.d/out
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadCall:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 16], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [4, 8])
        o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        # The kernel takes [4, 16]; pypto-opt rejects this call, so must pypto-run.
        self.kernel(src, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], y[r], device=r)
