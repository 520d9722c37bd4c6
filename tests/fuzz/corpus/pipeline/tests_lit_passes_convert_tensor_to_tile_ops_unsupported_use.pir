# A value computed by converted tensor ops can only feed tensor ops, remote_store
# or the return: reading it with pl.tensor.read is reported (exit 1, located).
# RUN: %python %S/../../tools/Inputs/expect_exit.py 1 pypto-opt %s --passes=convert-tensor-to-tile-ops 2>&1 | FileCheck %s
# CHECK: unsupported_use.pir:[[@LINE+9]]:9: error: convert-tensor-to-tile-ops: 'c' is computed by tensor ops that become tile ops, so it can only feed other element-wise tensor ops, the source of tensor.assemble, pld.tensor.remote_store or the kernel's return; this use is not supported
import pypto.language as pl


@pl.program
class U:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 64], pl.FP32]):
        c = pl.tensor.add(a, a)
        v = pl.tensor.read(c, [0, 0])
        return v
