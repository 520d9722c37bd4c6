# A value computed by converted tensor ops lives in a tile, so it cannot be the
# target of tensor.assemble (only a source): reported (exit 1, located).
# RUN: %python %S/../../tools/Inputs/expect_exit.py 1 pypto-opt %s --passes=convert-tensor-to-tile-ops 2>&1 | FileCheck %s
# CHECK: assemble_into_converted.pir:[[@LINE+9]]:9: error: convert-tensor-to-tile-ops: 'c' is computed by tensor ops that become tile ops, so it can only feed other element-wise tensor ops, the source of tensor.assemble, pld.tensor.remote_store or the kernel's return; this use is not supported
import pypto.language as pl


@pl.program
class U:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 64], pl.FP32]):
        c = pl.tensor.adds(a, 1.0)
        d = pl.tensor.assemble(c, a, [0, 0])
        return d
