# A dynamic dim that no input shape and no tensor parameter binds has no value
# at run time: the error names the statement that uses it (line:col) and where
# the dim is declared. A dim two tensor parameters give different extents is an
# error at the call.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; np.save('%t.d/x.npy', np.zeros((4, 8), np.float32)); np.save('%t.d/z.npy', np.zeros((2, 8), np.float32))"
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 1 --entry host_orch --input x=%t.d/x.npy --output-dir %t.d | FileCheck %s
# CHECK: unbound_dim.pir:[[@LINE+16]]:9: error: use of variable 'M' (declared at {{.*}}unbound_dim.pir:[[@LINE+6]]) that has no value at run time; bind it (a dynamic dim binds from an input shape or from the shape of a tensor parameter that mentions it)
# CHECK-NEXT: n: pl.Scalar[pl.INDEX] = M + 1
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 1 --entry host_two --input x=%t.d/x.npy --input z=%t.d/z.npy --output-dir %t.d | FileCheck %s --check-prefix=TWO
# TWO: unbound_dim.pir:[[@LINE+27]]:9: error: call of 'two': parameter 'b' has K = 2 in dim 0, but an earlier parameter gave K = 4; one dynamic dim has one extent per call
import pypto.language as pl

M = pl.dynamic("M")
K = pl.dynamic("K")
R = pl.dynamic("R")


@pl.program
class Unbound:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        n: pl.Scalar[pl.INDEX] = M + 1
        return pl.store(t, [0, 0], y)

    @pl.function(type=pl.FunctionType.InCore)
    def two(self, a: pl.Tensor[[K, 8], pl.FP32], b: pl.Tensor[[K, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(a, [0, 0], [2, 8])
        return pl.store(t, [0, 0], y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[4, 8], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.k(x, y, device=0)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_two(self, x: pl.Tensor[[4, 8], pl.FP32], z: pl.Tensor[[2, R], pl.FP32], y: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.two(x, z, y, device=0)
