# Only Vars live at the loop head are carried: `t` is written before it is read
# in every iteration and not read after the loop, so each iteration's version
# stays in the body (no iter arg); `acc` is read by the next iteration and `last`
# after the loop, so both are carried. An inner loop that writes `w` before the
# outer body reads it carries `w` in both loops. An if branch re-assigning `d`
# that is dead after the if gets no return var; `e`, read after the if, does.
# A loop whose only re-assigned value is a body-local temporary may `break`.
# RUN: pypto-opt %s --passes=convert-to-ssa --verify-each --roundtrip-each | FileCheck %s
# CHECK-LABEL: def k(
# CHECK:       t: pl.Scalar[pl.INDEX] = n
# CHECK-NEXT:  acc: pl.Scalar[pl.INDEX] = 0
# CHECK-NEXT:  last: pl.Scalar[pl.INDEX] = 0
# CHECK-NEXT:  for i, (acc_1, last_1) in pl.range(4, init_values=(acc, last)):
# CHECK-NEXT:      t_1: pl.Scalar[pl.INDEX] = i * 2
# CHECK-NEXT:      acc_2: pl.Scalar[pl.INDEX] = acc_1 + t_1
# CHECK-NEXT:      last_2: pl.Scalar[pl.INDEX] = t_1
# CHECK-NEXT:      acc_3, last_3 = pl.yield_(acc_2, last_2)
# CHECK-NEXT:  w: pl.Scalar[pl.INDEX] = 0
# CHECK-NEXT:  for j, (w_1, acc_4) in pl.range(2, init_values=(w, acc_3)):
# CHECK-NEXT:      for m, (w_2,) in pl.range(n, init_values=(w_1,)):
# CHECK-NEXT:          w_3: pl.Scalar[pl.INDEX] = m
# CHECK-NEXT:          w_4: pl.Scalar[pl.INDEX] = pl.yield_(w_3)
# CHECK-NEXT:      acc_5: pl.Scalar[pl.INDEX] = acc_4 + w_4
# CHECK-NEXT:      w_5, acc_6 = pl.yield_(w_4, acc_5)
# CHECK-NEXT:  d: pl.Scalar[pl.INDEX] = 1
# CHECK-NEXT:  e: pl.Scalar[pl.INDEX] = 1
# CHECK-NEXT:  if n > 3:
# CHECK-NEXT:      d_1: pl.Scalar[pl.INDEX] = n + acc_6
# CHECK-NEXT:      e_1: pl.Scalar[pl.INDEX] = d_1 + 1
# CHECK-NEXT:      e_2: pl.Scalar[pl.INDEX] = pl.yield_(e_1)
# CHECK-NEXT:  else:
# CHECK-NEXT:      e_2: pl.Scalar[pl.INDEX] = pl.yield_(e)
# CHECK-NEXT:  for q in pl.range(8):
# CHECK-NEXT:      t_2: pl.Scalar[pl.INDEX] = q + e_2
# CHECK-NEXT:      if t_2 > n:
# CHECK-NEXT:          break
# CHECK-NEXT:  return acc_6 + last_3 + e_2
import pypto.language as pl


@pl.program
class Liveness:
    @pl.function(type=pl.FunctionType.Orchestration)
    def k(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        t = n
        acc = 0
        last = 0
        for i in pl.range(4):
            t = i * 2
            acc = acc + t
            last = t
        w = 0
        for j in pl.range(2):
            for m in pl.range(n):
                w = m
            acc = acc + w
        d = 1
        e = 1
        if n > 3:
            d = n + acc
            e = d + 1
        for q in pl.range(8):
            t = q + e
            if t > n:
                break
        return acc + last + e
