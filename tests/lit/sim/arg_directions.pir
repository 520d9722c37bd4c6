# Argument directions at run time: a device dispatch that writes a pl.In
# argument, or reads a pl.Out argument where it has not written it yet, is an
# error naming the op and its line, the argument, the kernel, its direction
# and the call site. Reading back an Out region the kernel wrote and updating a
# pl.InOut are fine (checked against numpy: y = acc = x + acc).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; np.save('%t.d/x.npy', (np.arange(2048).reshape(2, 16, 64) %% 7).astype(np.float32)); np.save('%t.d/acc.npy', (np.arange(2048).reshape(2, 16, 64) %% 5).astype(np.float32))"
# RUN: not pypto-run %s --ranks 2 --entry host_writes_in --input x=%t.d/x.npy --output-dir %t.d/a 2>&1 | FileCheck %s --check-prefix=IN
# IN: arg_directions.pir:26:14: error: tile.store: writes 'output_tensor' region offsets [8, 0] extents [8, 64], which is argument 'x' of 'writes_in' (called at {{.*}}arg_directions.pir:52) declared pl.In: an input the call must not modify (its caller's later readers are not ordered after this write); declare the parameter pl.InOut if the call updates it (on rank {{[01]}})
# RUN: not pypto-run %s --ranks 2 --entry host_reads_out --input x=%t.d/x.npy --output-dir %t.d/b 2>&1 | FileCheck %s --check-prefix=OUT
# OUT: arg_directions.pir:34:52: error: tile.load: reads 'tensor' region offsets [0, 0] extents [9, 64], which is argument 'y' of 'reads_out' (called at {{.*}}arg_directions.pir:57) declared pl.Out, where the call has not written it yet: an Out argument's contents on entry are undefined (no read-after-write edge orders its earlier writer before this call); write the region first, or declare the parameter pl.InOut (on rank {{[01]}})
# RUN: pypto-run %s --ranks 2 --entry host_ok --input x=%t.d/x.npy --input acc=%t.d/acc.npy --output-dir %t.d/c --detect-races --schedule=random:3
# RUN: %python -c "import numpy as np, sys; d = '%t.d/'; s = np.load(d + 'x.npy') + np.load(d + 'acc.npy'); ok = np.array_equal(np.load(d + 'c/y.npy'), s) and np.array_equal(np.load(d + 'c/acc.npy'), s); print('directions OK' if ok else 'MISMATCH'); sys.exit(0 if ok else 1)" | FileCheck %s --check-prefix=OK
# OK: directions OK
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ArgDirections:
    @pl.function(type=pl.FunctionType.InCore)
    def writes_in(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y2 = pl.tile.store(t, [0, 0], y)
        t2: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 64])
        x2 = pl.tile.store(t2, [8, 0], x)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def reads_out(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [8, 64])
        y2 = pl.tile.store(t, [0, 0], y)
        u: pl.Tile[[8, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [8, 64])
        v: pl.Tile[[9, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [9, 64])
        y3 = pl.tile.store(v, [7, 0], y)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def scale(self, x: pl.Tensor[[16, 64], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], y: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64])
        y2 = pl.tile.store(t, [0, 0], y)
        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [16, 64])
        a: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(acc, [0, 0], [16, 64])
        s: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(u, a)
        acc2 = pl.tile.store(s, [0, 0], acc)
        y3 = pl.tile.store(s, [0, 0], y)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_writes_in(self, x: pl.Tensor[[2, 16, 64], pl.FP32], y: pl.Out[pl.Tensor[[2, 16, 64], pl.FP32]]):
        for r in pl.range(2):
            self.writes_in(x[r], y[r], device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_reads_out(self, x: pl.Tensor[[2, 16, 64], pl.FP32], y: pl.Out[pl.Tensor[[2, 16, 64], pl.FP32]]):
        for r in pl.range(2):
            self.reads_out(x[r], y[r], device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_ok(self, x: pl.Tensor[[2, 16, 64], pl.FP32], acc: pl.InOut[pl.Tensor[[2, 16, 64], pl.FP32]], y: pl.Out[pl.Tensor[[2, 16, 64], pl.FP32]]):
        for r in pl.range(2):
            self.scale(x[r], acc[r], y[r], device=r)
