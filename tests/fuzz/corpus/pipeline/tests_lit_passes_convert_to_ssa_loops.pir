# Existing iter_args are kept and extended; a non-SSA while loop gets iter_args
# with the condition over them; tiles are carried like scalars.
# RUN: pypto-opt %s --passes=convert-to-ssa --verify-each --roundtrip-each | FileCheck %s
# CHECK:      acc: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = t
# CHECK-NEXT: for i, (s, acc_1) in pl.range(4, init_values=(t, acc)):
# CHECK-NEXT:     acc_2: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc_1, s)
# CHECK-NEXT:     s2: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(s, t)
# CHECK-NEXT:     s_out, acc_3 = pl.yield_(s2, acc_2)
# CHECK-NEXT: k: pl.Scalar[pl.INDEX] = 0
# CHECK-NEXT: for (k_1,) in pl.while_(init_values=(k,)):
# CHECK-NEXT:     pl.cond(k_1 < n)
# CHECK-NEXT:     k_2: pl.Scalar[pl.INDEX] = k_1 + 1
# CHECK-NEXT:     k_3: pl.Scalar[pl.INDEX] = pl.yield_(k_2)
# CHECK-NEXT: pl.tile.store(acc_3, [0, 0], a)
# CHECK-NEXT: return k_3
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Loops:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX]):
        t = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        acc = t
        for i, (s,) in pl.range(0, 4, 1, init_values=(t,)):
            acc = pl.tile.add(acc, s)
            s2 = pl.tile.add(s, t)
            s_out = pl.yield_(s2)
        k = 0
        while k < n:
            k = k + 1
        pl.tile.store(acc, [0, 0], a)
        return k
