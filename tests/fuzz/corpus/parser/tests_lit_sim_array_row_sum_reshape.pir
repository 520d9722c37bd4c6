# Upstream's EP dispatch idioms: a kernel-local pl.Array written and read by
# subscript (`a[i] = v`, `v = a[i]`, carried through loops and an if), and
# pl.tile.row_sum of a [16, 8] tile (tmp scratch tile) reshaped [16, 1] ->
# [1, 16]; a partly valid tile's row sums cover its valid rows and columns.
# Printed forms, the default pipeline (the array becomes loop iter args), exact
# results against numpy before and after the pipeline on 2 ranks, and the PTO
# spelling (local arrays, trowsum, treshape).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s | FileCheck %s
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: FileCheck %s --check-prefix=LOW < %t.d/low.pir
# RUN: %python -c "import numpy as np; np.save('%t.d/w.npy', (np.arange(2 * 16 * 8) * 0.25 - 100).astype(np.float32).reshape(2, 16, 8))"
# RUN: pypto-run %s --ranks 2 --input w=%t.d/w.npy --output-dir %t.d/a --check-signals --detect-races
# RUN: pypto-run %t.d/low.pir --ranks 2 --input w=%t.d/w.npy --output-dir %t.d/b --check-signals --detect-races
# RUN: %python %S/Inputs/array_row_sum_check.py %t.d/w.npy %t.d/a %t.d/b
# RUN: pypto-opt %t.d/low.pir --emit=pto | FileCheck %s --check-prefix=PTO
# CHECK: a: pl.Array[4, pl.INT32] = pl.array.create(4, dtype=pl.INT32)
# CHECK: a: pl.Array[4, pl.INT32] = pl.array.update_element(a, i, pl.const(0, pl.INT32))
# CHECK: v: pl.Scalar[pl.INT32] = pl.array.get_element(a, i_1)
# CHECK: a: pl.Array[4, pl.INT32] = pl.array.update_element(a, i_1, pl.array.get_element(a, i_1) + 1)
# CHECK: s: pl.Tile{{\[\[}}16, 1], pl.FP32, pl.Mem.Vec, pl.TileView(blayout=pl.TileLayout.col_major)] = pl.tile.row_sum(wide, tmp)
# CHECK: row: pl.Tile{{\[\[}}1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.reshape(s, [1, 16])
# CHECK: ps: pl.Tile{{\[\[}}16, 1], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[10, 1], blayout=pl.TileLayout.col_major)] = pl.tile.row_sum(part, tmp)
# LOW: for i, (a_1,) in pl.range(4, init_values=(a,)):
# LOW: for i_1, (a_4,) in pl.range(4, init_values=(a_3,)):
# LOW: a_7: pl.Array[4, pl.INT32] = pl.yield_(a_5)
# PTO: %a = pto.declare_local_array -> !pto.local_array<4xi32>
# PTO: pto.local_array_set %a[%i], %c0_i32 : !pto.local_array<4xi32>, i32
# PTO: = pto.local_array_get %a[%i_1] : !pto.local_array<4xi32> -> i32
# PTO: pto.trowsum ins(%wide, %tmp : {{.*}}rows=16, cols=8{{.*}}) outs(%s : {{.*}}rows=16, cols=1, v_row=16, v_col=1, blayout=col_major
# PTO: pto.treshape ins(%s : {{.*}}) outs(%row : {{.*}}rows=1, cols=16, v_row=1, v_col=16, blayout=row_major
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ArrayRowSum:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, w: pl.Tensor[[16, 8], pl.FP32], out: pl.Out[pl.Tensor[[1, 16], pl.FP32]], cnt: pl.Out[pl.Tensor[[4, 1], pl.INT32]], z: pl.Out[pl.Tensor[[16, 1], pl.FP32]]) -> pl.Tensor[[1, 16], pl.FP32]:
        a = pl.array.create(4, pl.INT32)
        for i in pl.range(4):
            a[i] = 0
        for i in pl.range(4):
            v = a[i]
            a[i] = v + i * 10
            if i > 1:
                a[i] = a[i] + 1
        for i in pl.range(4):
            pl.write(cnt, [i, 0], a[i])
        wide: pl.Tile[[16, 8], pl.FP32] = pl.load(w, [0, 0], [16, 8])
        tmp: pl.Tile[[16, 8], pl.FP32] = pl.tile.create([16, 8], dtype=pl.FP32, target_memory=pl.MemorySpace.Vec)
        s: pl.Tile[[16, 1], pl.FP32] = pl.tile.row_sum(wide, tmp)
        row: pl.Tile[[1, 16], pl.FP32] = pl.tile.reshape(s, [1, 16])
        part = pl.load(w, [0, 0], [16, 8], [10, 6])
        ps = pl.tile.row_sum(part, tmp)
        z = pl.store(ps, [0, 0], z)
        return pl.store(row, [0, 0], out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, w: pl.Tensor[[2, 16, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, 1, 16], pl.FP32]], c: pl.Out[pl.Tensor[[2, 4, 1], pl.INT32]], z: pl.Out[pl.Tensor[[2, 16, 1], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.k(w[r], y[r], c[r], z[r], device=r)
