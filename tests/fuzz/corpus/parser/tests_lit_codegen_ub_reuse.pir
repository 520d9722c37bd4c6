# UB address reuse: five 64 KiB tiles (320 KiB) do not fit the a2a3 UB (192 KiB)
# one buffer each, but at most three are live at once, so the emitter switches to
# the live-range layout: d and e take a's and b's memory (a, b die at the add that
# defines c; intervals are inclusive, so c never shares with its operands).
# A kernel whose bump layout fits keeps it byte for byte (see put_get.pir,
# tile_ops.pir and the goldens).
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# RUN: pypto-opt %s --emit=pto --target=a5 | FileCheck %s --check-prefix=A5
# Meaning is unchanged by the pipeline (pypto-run does not model tile addresses;
# this checks the program that now emits, before and after --pipeline=default):
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-run %s --ranks 1 --entry kernel --inputs-random=7 --output-dir %t.d/k0
# RUN: pypto-run %s --ranks 1 --entry loop --inputs-random=7 --output-dir %t.d/l0
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: pypto-run %t.d/lowered.pir --ranks 1 --entry kernel --inputs-random=7 --output-dir %t.d/k1
# RUN: pypto-run %t.d/lowered.pir --ranks 1 --entry loop --inputs-random=7 --output-dir %t.d/l1
# RUN: cmp %t.d/k0/out.npy %t.d/k1/out.npy
# RUN: cmp %t.d/l0/out.npy %t.d/l1/out.npy
# RUN: pypto-opt %t.d/lowered.pir --emit=pto | FileCheck %s
# CHECK-LABEL: func.func @kernel(
# A5-LABEL: func.func @kernel(
# A5:      %d = pto.alloc_tile addr = %c0_i64 :
# CHECK:      %a = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=128, cols=128,
# CHECK-NEXT: %b = pto.alloc_tile addr = %c65536_i64 :
# CHECK-NEXT: %c = pto.alloc_tile addr = %c131072_i64 :
# CHECK-NEXT: %d = pto.alloc_tile addr = %c0_i64 :
# CHECK-NEXT: %e = pto.alloc_tile addr = %c65536_i64 :
# CHECK-NOT:  pto.alloc_tile
# CHECK:      pto.tadd ins(%a, %b : {{.*}}) outs(%c : {{.*}})
# CHECK:      pto.tmul ins(%d, %d : {{.*}}) outs(%e : {{.*}})
# A loop: `s` is defined before the loop and read in it, so it stays live to the
# loop's end (the next iteration reads it again): w reuses u's memory, not s's.
# After the loop, v takes s's memory. On a5 (256 KiB) this kernel's bump layout
# fits and is kept unchanged.
# CHECK-LABEL: func.func @loop(
# CHECK:      %s = pto.alloc_tile addr = %c0_i64 :
# CHECK-NEXT: %u = pto.alloc_tile addr = %c65536_i64 :
# CHECK-NEXT: %w = pto.alloc_tile addr = %c65536_i64 :
# CHECK-NEXT: %v = pto.alloc_tile addr = %c0_i64 :
# A5-LABEL: func.func @loop(
# A5:      %s = pto.alloc_tile addr = %c0_i64 :
# A5-NEXT: %u = pto.alloc_tile addr = %c65536_i64 :
# A5-NEXT: %w = pto.alloc_tile addr = %c131072_i64 :
# A5-NEXT: %v = pto.alloc_tile addr = %c196608_i64 :
import pypto.language as pl


@pl.program
class UbReuse:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[128, 128], pl.FP32], out: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]):
        a: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [128, 128])
        b: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [128, 128])
        c: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, b)
        o1: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(c, [0, 0], out)
        d: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(o1, [0, 0], [128, 128])
        e: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.mul(d, d)
        o2: pl.Tensor[[128, 128], pl.FP32] = pl.tile.store(e, [0, 0], o1)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def loop(self, x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[128, 128], pl.FP32], out: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]):
        s: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(y, [0, 0], [128, 128])
        for i in pl.range(0, 4, 1):
            u: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.add(s, s)
            pl.tile.store(u, [0, 0], out)
            w: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [128, 128])
            pl.tile.store(w, [0, 0], out)
        v: pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [128, 128])
        pl.tile.store(v, [0, 0], out)
        return
