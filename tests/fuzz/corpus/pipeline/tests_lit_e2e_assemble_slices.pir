# tensor.assemble, slice assignment and the scalar-operand ops end to end:
#  * rows_plus: a pl.parallel row loop `y = pl.assemble(y, pl.add(x_row, 1.5), [row, 0])`
#    on an Out param (tensor.adds -> tile.adds, assemble -> tile.store in the loop);
#  * stage: slice assignment into a window (`win[...] = x[...]`, a DistributedTensor
#    target: publishing write, fenced), from a window column slice into an Out
#    (`z[...] = win[0:ROWS, 8:16]`), of a converted FP16 `pl.mul(h, 0.1)` (the
#    literal is rounded to FP16 first, then the product once), of tiles (full
#    region, a [1, W] tile into row 7, pl.assemble with a tile source) and of one
#    element (`u[0, 0] = e` -> tensor.write).
# Expected (numpy oracle): y = x + 1.5; z = x[:, 8:16]; q = fp16(h * fp16(0.1));
# u[0:4] = x[4:8], u[4:8] = x[0:4] / 4, u[7] = x[0], u[0, 0] = x[0, 1] * 3 - 2.
# Checked: verify/round trip through the pipeline, the emitted PTO, exact results
# on P = 2 and 3 before and after --pipeline=default (races detected, random schedule).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: %python -c "import numpy as np; [(np.save('%t.d/x%%d.npy' %% p, (np.random.RandomState(p).randint(-50, 50, (p, 8, 32)) / 8).astype(np.float32)), np.save('%t.d/h%%d.npy' %% p, (np.random.RandomState(p + 10).randint(-500, 500, (p, 8, 32)) / 7).astype(np.float16))) for p in (2, 3)]"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --input h=%t.d/h2.npy --output-dir %t.d/s2 --detect-races
# RUN: pypto-run %s --ranks 3 --input x=%t.d/x3.npy --input h=%t.d/h3.npy --output-dir %t.d/s3 --detect-races --schedule=random:7
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --input h=%t.d/h2.npy --output-dir %t.d/l2 --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 3 --input x=%t.d/x3.npy --input h=%t.d/h3.npy --output-dir %t.d/l3 --detect-races --schedule=random:7
# RUN: %python %S/Inputs/assemble_oracle.py %t.d
#
# CHECK:      func.func @rows_plus(
# CHECK:      scf.for
# CHECK:      pto.tload
# CHECK:      pto.tadds ins(%{{.*}}, %cf1p5_f32 :
# CHECK:      pto.tstore
# CHECK:      func.func @stage(
# CHECK:      pto.tstore
# CHECK-NEXT: pto.partition_view
# CHECK-NEXT: pto.cmo.cacheinvalid
# CHECK-NEXT: pto.fence.barrier_all
# CHECK:      pto.tmuls ins(%h_tile, %cf0p1_f16 :
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
ROWS = 8
W = 32


@pl.program
class AssembleSlices:
    @pl.function(type=pl.FunctionType.InCore)
    def rows_plus(self, x: pl.Tensor[[ROWS, W], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, W], pl.FP32]]) -> pl.Tensor[[ROWS, W], pl.FP32]:
        for row in pl.parallel(ROWS):
            x_row = pl.slice(x, [1, W], [row, 0])
            y_row = pl.add(x_row, 1.5)
            y = pl.assemble(y, y_row, [row, 0])
        return y

    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[ROWS, W], pl.FP32], h: pl.Tensor[[ROWS, W], pl.FP16], win: pld.DistributedTensor[[ROWS, W], pl.FP32],
              z: pl.Out[pl.Tensor[[ROWS, 8], pl.FP32]], q: pl.Out[pl.Tensor[[ROWS, W], pl.FP16]], u: pl.Out[pl.Tensor[[ROWS, W], pl.FP32]]):
        win[0:ROWS, 0:W] = x[0:ROWS, 0:W]
        z[0:ROWS, 0:8] = win[0:ROWS, 8:16]
        q[0:ROWS, :] = pl.mul(h, 0.1)
        t = pl.load(x, [0, 0], [ROWS, W])
        t1 = pl.mul(t, 3.0)
        t2 = pl.sub(t1, 2.0)
        lo = pl.load(x, [4, 0], [4, W])
        u[0:4, 0:W] = lo
        hi = pl.load(x, [0, 0], [4, W])
        hq = pl.div(hi, 4.0)
        u = pl.assemble(u, hq, [4, 0])
        r0 = pl.load(x, [0, 0], [1, W])
        u[7, 0:W] = r0
        e = pl.tile.read(t2, [0, 1])
        u[0, 0] = e

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[ROWS, W], pl.FP32], h: pl.Tensor[[ROWS, W], pl.FP16], win: pld.DistributedTensor[[ROWS, W], pl.FP32],
             y: pl.Out[pl.Tensor[[ROWS, W], pl.FP32]], z: pl.Out[pl.Tensor[[ROWS, 8], pl.FP32]], q: pl.Out[pl.Tensor[[ROWS, W], pl.FP16]], u: pl.Out[pl.Tensor[[ROWS, W], pl.FP32]]):
        y = self.rows_plus(x, y)
        self.stage(x, h, win, z, q, u)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, ROWS, W], pl.FP32], h: pl.Tensor[[NR, ROWS, W], pl.FP16], y: pl.Out[pl.Tensor[[NR, ROWS, W], pl.FP32]],
                  z: pl.Out[pl.Tensor[[NR, ROWS, 8], pl.FP32]], q: pl.Out[pl.Tensor[[NR, ROWS, W], pl.FP16]], u: pl.Out[pl.Tensor[[NR, ROWS, W], pl.FP32]]):
        buf = pld.alloc_window_buffer(ROWS * W * 4)
        for r in pl.range(pld.world_size()):
            win = pld.window(buf, [ROWS, W], dtype=pl.FP32)
            self.chip(x[r], h[r], win, y[r], z[r], q[r], u[r], device=r)
