# eliminate-early-returns: a `return` inside an `if` of a kernel becomes an
# if/else whose branches yield the returned value, followed by the only return.
# k: the statements after each `if` move into the branch that falls through (the
# yield convert-to-ssa leaves after the first branch's return is dropped, and the
# if's return var t_3 becomes the else branch's t_2); k2 (no results): an inner
# if that returns on both paths, the end of the body is the implicit return.
# Exact results on P = 2 and 4 before and after --pipeline=default; the lowered
# kernels emit PTO (nested scf.if, one return).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --passes=convert-to-ssa,eliminate-early-returns --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: FileCheck %s --check-prefix=LOW < %t.d/lowered.pir
# RUN: pypto-opt %t.d/lowered.pir --passes=eliminate-early-returns | diff %t.d/lowered.pir -
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s --check-prefix=PTO
# RUN: %python -c "import numpy as np; np.save('%t.d/x2.npy', (np.arange(2 * 256) %% 37 - 11).astype(np.float32).reshape(2, 16, 16))"
# RUN: %python -c "import numpy as np; np.save('%t.d/x4.npy', (np.arange(4 * 256) %% 37 - 11).astype(np.float32).reshape(4, 16, 16))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races --schedule=random:5
# RUN: %python %S/Inputs/check_early_return.py %t.d 2 s2 l2
# RUN: %python %S/Inputs/check_early_return.py %t.d 4 s4 l4
#
# CHECK-LABEL: def k(
# CHECK-NEXT:  t: pl.Tile{{.*}} = pl.tile.load(inp, [0, 0], [16, 16])
# CHECK-NEXT:  if me == 0:
# CHECK-NEXT:      t_1: {{.*}} = pl.tile.add(t, t)
# CHECK-NEXT:      ret_1: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(pl.tile.store(t_1, [0, 0], out))
# CHECK-NEXT:  else:
# CHECK-NEXT:      t_2: {{.*}} = pl.tile.mul(t, t)
# CHECK-NEXT:      if me == 1:
# CHECK-NEXT:          ret: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(pl.tile.store(t_2, [0, 0], out))
# CHECK-NEXT:      else:
# CHECK-NEXT:          t_3: {{.*}} = pl.tile.add(t_2, t_2)
# CHECK-NEXT:          ret: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(pl.tile.store(t_3, [0, 0], out))
# CHECK-NEXT:      ret_1: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(ret)
# CHECK-NEXT:  return ret_1
# CHECK-LABEL: def k2(
# CHECK-NEXT:  t: pl.Tile{{.*}} = pl.tile.load(inp, [0, 0], [16, 16])
# CHECK-NEXT:  if me >= 2:
# CHECK-NEXT:      if me == 2:
# CHECK-NEXT:          u: {{.*}} = pl.tile.add(t, t)
# CHECK-NEXT:          pl.tile.store(u, [0, 0], out)
# CHECK-NEXT:      else:
# CHECK-NEXT:          u_1: {{.*}} = pl.tile.mul(t, t)
# CHECK-NEXT:          pl.tile.store(u_1, [0, 0], out)
# CHECK-NEXT:  else:
# CHECK-NEXT:      pl.tile.store(t, [0, 0], out)
# CHECK-NEXT:  return
# CHECK-EMPTY:
#
# After the pipeline the returned stores are named (simplify) and the new
# return vars are named after them.
# LOW-LABEL: def k(
# LOW:         out_1: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.tile.store(t_1, [0, 0], out)
# LOW-NEXT:    out_5: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(out_1)
# LOW:         out_4: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(out_3)
# LOW-NEXT:    out_5: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(out_4)
# LOW-NEXT:    return out_5
#
# PTO-LABEL: func.func @k(
# PTO:         scf.if %{{[0-9]+}} {
# PTO:           pto.tstore ins(%t_1
# PTO:         } else {
# PTO:           scf.if %{{[0-9]+}} {
# PTO:             pto.tstore ins(%t_2
# PTO:           } else {
# PTO:             pto.tstore ins(%t_3
# PTO:           }
# PTO-NEXT:    }
# PTO-NEXT:    return
# PTO-NEXT:  }
# PTO-LABEL: func.func @k2(
# PTO:         scf.if %{{[0-9]+}} {
# PTO:           scf.if %{{[0-9]+}} {
# PTO:             pto.tstore ins(%u :
# PTO:           } else {
# PTO:             pto.tstore ins(%u_1 :
# PTO:           }
# PTO-NEXT:    } else {
# PTO:           pto.tstore ins(%t :
# PTO-NEXT:    }
# PTO-NEXT:    return
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class EarlyReturn:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, inp: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], me: pl.Scalar[pl.INT32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(inp, [0, 0], [16, 16])
        if me == 0:
            t = pl.add(t, t)
            return pl.store(t, [0, 0], out)
        else:
            t = pl.mul(t, t)
        if me == 1:
            return pl.store(t, [0, 0], out)
        t = pl.add(t, t)
        return pl.store(t, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def k2(self, inp: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], me: pl.Scalar[pl.INT32]):
        t = pl.load(inp, [0, 0], [16, 16])
        if me >= 2:
            if me == 2:
                u = pl.add(t, t)
                pl.store(u, [0, 0], out)
                return
            else:
                u = pl.mul(t, t)
                pl.store(u, [0, 0], out)
                return
        pl.store(t, [0, 0], out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 16, 16], pl.FP32]], z: pl.Out[pl.Tensor[[NR, 16, 16], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.k(x[r], y[r], r, device=r)
            self.k2(x[r], z[r], r, device=r)
