# Shapes eliminate-early-returns leaves unchanged (restructuring them would need
# a copy of the code after the `if`, or a return flag): a return inside a loop,
# and an inner `if` returning on one path while the enclosing branch continues.
# The PTO backend then reports the returns at their line:col.
# RUN: pypto-opt %s --passes=convert-to-ssa,eliminate-early-returns --verify-each --roundtrip-each | FileCheck %s
# RUN: not pypto-opt %s --pipeline=default --emit=pto 2>&1 | FileCheck %s --check-prefix=ERR
# CHECK-LABEL: def in_loop(
# CHECK:         for i in pl.range(2):
# CHECK-NEXT:        if me == i:
# CHECK-NEXT:            return pl.tile.store(t, [0, 0], out)
# CHECK-NEXT:    return out
# CHECK-LABEL: def partial(
# CHECK:         if me >= 1:
# CHECK-NEXT:        if me == 1:
# CHECK-NEXT:            return pl.tile.store(t, [0, 0], out)
# CHECK:         return pl.tile.store(t_2, [0, 0], out)
# ERR: unsupported.pir:29:17: error: return inside control flow is not supported by the PTO backend
# ERR: unsupported.pir:37:17: error: return inside control flow is not supported by the PTO backend
import pypto.language as pl


@pl.program
class NotRestructured:
    @pl.function(type=pl.FunctionType.InCore)
    def in_loop(self, inp: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], me: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(inp, [0, 0], [16, 16])
        for i in pl.range(2):
            if me == i:
                return pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.InCore)
    def partial(self, inp: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], me: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(inp, [0, 0], [16, 16])
        if me >= 1:
            if me == 1:
                return pl.store(t, [0, 0], out)
            t = pl.add(t, t)
        return pl.store(t, [0, 0], out)
