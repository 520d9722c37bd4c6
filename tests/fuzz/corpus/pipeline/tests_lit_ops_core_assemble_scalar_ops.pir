# tensor.assemble, the tensor/tile scalar ops (adds/subs/muls/divs) and their
# user spellings: pl.add/sub/mul/div(x, scalar) dispatch to the *s form (a literal
# takes the operand's dtype), pl.assemble(target, src, offset) is tensor.assemble
# (tile.store for a tile src), and `x[a:b, c:d] = v` re-binds x to
# tensor.assemble / tile.store / tensor.write (a lower-rank value is reshaped by
# tensor.view or stored with `shapes`). print -> parse -> print is byte-identical.
# RUN: pypto-opt %s | FileCheck %s
# RUN: pypto-opt %s > %t.pir
# RUN: pypto-opt %t.pir | diff %t.pir -
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class AssembleOps:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32], h: pl.Tensor[[16, 64], pl.FP16], k: pl.Tensor[[4, 8], pl.INT32], d: pld.DistributedTensor[[32, 64], pl.FP32], s: pl.Scalar[pl.FP32], out: pl.Out[pl.Tensor[[32, 64], pl.FP32]]):
        # CHECK: a: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.adds(x, 1.0)
        a = pl.tensor.adds(x, 1.0)
        # CHECK: b: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.subs(a, s)
        b = pl.tensor.subs(a, s)
        # CHECK: c: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.muls(b, 2.0)
        c = pl.tensor.muls(b, 2.0)
        # CHECK: e: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.divs(c, 4)
        e = pl.tensor.divs(c, 4)
        # CHECK: f: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.adds(x, 1.0)
        f = pl.add(x, 1.0)
        # CHECK: g: pl.Tensor{{\[\[}}16, 64], pl.FP16] = pl.tensor.subs(h, pl.const(1.0, pl.FP16))
        g = pl.sub(h, 1)
        # CHECK: g2: pl.Tensor{{\[\[}}16, 64], pl.FP16] = pl.tensor.muls(h, pl.const(0.5, pl.FP16))
        g2 = pl.mul(h, 0.5)
        # CHECK: g3: pl.Tensor{{\[\[}}4, 8], pl.INT32] = pl.tensor.divs(k, pl.const(2, pl.INT32))
        g3 = pl.div(k, 2)
        # CHECK: g4: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.adds(x, s)
        g4 = pl.add(x, s)
        # CHECK: g5: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.maximum(x, 0.0)
        g5 = pl.maximum(x, 0.0)
        # CHECK: out_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(out, x, [16, 0])
        out = pl.tensor.assemble(out, x, [16, 0])
        # CHECK: out_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(out_1, e, [0, 0])
        out = pl.assemble(out, e, [0, 0])
        # CHECK: d_1: pld.DistributedTensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(d, x, [8, 0])
        d = pl.assemble(d, x, [8, 0])
        # CHECK: out_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(out_1, f, [0, 0])
        out[0:16, 0:64] = f
        # CHECK: out_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(out_1, pl.tensor.slice(x, [16, 32], [0, 0]), [16, 32])
        out[16:32, 32:64] = x[0:16, 0:32]
        # CHECK: out_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(out_1, pl.tensor.view(pl.tensor.slice(x, [1, 64], [2, 0], [], [0]), [1, 64]), [3, 0])
        out[3, 0:64] = x[2]
        # CHECK: out_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.write(out_1, [31, 63], s)
        out[31, 63] = s
        # CHECK: d_1: pld.DistributedTensor{{\[\[}}32, 64], pl.FP32] = pl.tensor.assemble(d_1, x, [0, 0])
        d[0:16, :] = x
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.Out[pl.Tensor[[32, 64], pl.FP32]]):
        # CHECK: t: pl.Tile{{\[\[}}16, 64], pl.FP32] = pl.tile.load(x, [0, 0], [16, 64])
        t = pl.load(x, [0, 0], [16, 64])
        # CHECK: u: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)
        u = pl.tile.adds(t, 1.0)
        # CHECK: v: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.subs(u, 2.0)
        v = pl.tile.subs(u, 2.0)
        # CHECK: w: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(v, 3.0)
        w = pl.tile.muls(v, 3.0)
        # CHECK: z: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.divs(w, 4.0)
        z = pl.tile.divs(w, 4.0)
        # CHECK: z2: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.adds(z, 1.0)
        z2 = pl.add(z, 1)
        # CHECK: z3: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.muls(z2, 0.5)
        z3 = pl.mul(z2, 0.5)
        # CHECK: y_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tile.store(z3, [16, 0], y)
        y = pl.assemble(y, z3, [16, 0])
        # CHECK: y_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tile.store(z, [0, 0], y_1)
        y[0:16, 0:64] = z
        # CHECK: r: pl.Tile{{\[\[}}1, 64], pl.FP32] = pl.tile.load(x, [0, 0], [1, 64])
        r = pl.load(x, [0, 0], [1, 64])
        # CHECK: y_1: pl.Tensor{{\[\[}}32, 64], pl.FP32] = pl.tile.store(r, [5, 0], y_1)
        y[5, 0:64] = r
        # CHECK: z3: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.write(z3, [0, 1], 2.0)
        z3[0, 1] = 2.0
        return
