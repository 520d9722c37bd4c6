# `return self.f(...)` of a function with two results passes both on (upstream
# writes chip orchestrations this way): the call is bound to a tuple Var and
# its elements are returned. Each rank r writes r+1 into a and 10*(r+1) into b
# through a two-result kernel; the orchestration forwards both results.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default > /dev/null
# RUN: pypto-opt %s | FileCheck %s
# RUN: pypto-run %s --ranks 2 --output-dir %t.d/o
# RUN: %python -c "import numpy as np, sys; a = np.load('%t.d/o/a.npy'); b = np.load('%t.d/o/b.npy'); print(a.ravel().tolist(), b.ravel().tolist()); sys.exit(0 if a.ravel().tolist() == [1, 2] and b.ravel().tolist() == [10, 20] else 1)"
# CHECK-LABEL: def chip(
# CHECK: ret_tuple: pl.Tuple{{.*}} = self.kern(a, b, v)
# CHECK-NEXT: ret0: pl.Tensor{{.*}} = ret_tuple[0]
# CHECK-NEXT: ret1: pl.Tensor{{.*}} = ret_tuple[1]
# CHECK-NEXT: return ret0, ret1
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class TwoResults:
    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, a: pl.Out[pl.Tensor[[1, 1], pl.INT32]], b: pl.Out[pl.Tensor[[1, 1], pl.INT32]], v: pl.Scalar[pl.INT32]) -> tuple[pl.Tensor[[1, 1], pl.INT32], pl.Tensor[[1, 1], pl.INT32]]:
        pl.write(a, [0, 0], v)
        pl.write(b, [0, 0], v * 10)
        return a, b

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a: pl.Out[pl.Tensor[[1, 1], pl.INT32]], b: pl.Out[pl.Tensor[[1, 1], pl.INT32]], v: pl.Scalar[pl.INT32]) -> tuple[pl.Tensor[[1, 1], pl.INT32], pl.Tensor[[1, 1], pl.INT32]]:
        return self.kern(a, b, v)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, a: pl.Out[pl.Tensor[[NR, 1, 1], pl.INT32]], b: pl.Out[pl.Tensor[[NR, 1, 1], pl.INT32]]):
        for r in pl.range(pld.world_size()):
            self.chip(a[r], b[r], r + 1, device=r)
