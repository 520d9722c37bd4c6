# Even with address reuse these tiles do not fit: at the definition of e = a + b,
# a, b, c and d are still live and e may not share memory with its operands, so
# five 64 KiB tiles (320 KiB) are live at once. The error points at that peak
# point and names the live tiles, on a2a3 (192 KiB) and on a5 (256 KiB).
# RUN: not pypto-opt %s --emit=pto 2>&1 | FileCheck %s
# CHECK: ub_reuse_overflow.pir:[[@LINE+15]]:55: error: tile.add: kernel tiles need 327680 bytes of UB at once here (5 tiles live: a (65536 B), b (65536 B), c (65536 B), d (65536 B), e (65536 B)) but the a2a3 target has 196608; use smaller tiles (smaller chunk_rows / chunk_cols) or keep fewer tiles live at the same time
# CHECK-NOT: error:
# RUN: not pypto-opt %s --emit=pto --target=a5 2>&1 | FileCheck %s --check-prefix=A5
# A5: ub_reuse_overflow.pir:[[@LINE+12]]:55: error: tile.add: kernel tiles need 327680 bytes of UB at once here (5 tiles live: a (65536 B), b (65536 B), c (65536 B), d (65536 B), e (65536 B)) but the a5 target has 262144; use smaller tiles (smaller chunk_rows / chunk_cols) or keep fewer tiles live at the same time
import pypto.language as pl


@pl.program
class UbOverflow:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[128, 128], pl.FP32], out: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]):
        a: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [128, 128])
        b: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [128, 128])
        c: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [128, 128])
        d: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [128, 128])
        e: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, b)
        f: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.add(c, d)
        g: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.add(e, f)
        o: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(g, [0, 0], out)
        return
