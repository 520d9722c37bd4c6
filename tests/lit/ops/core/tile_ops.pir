# Every core tile op and the system ops in canonical form: the deduced result
# types (memory spaces, valid shapes, views) print as checked below, and
# print -> parse -> print is byte-identical.
# RUN: pypto-opt %s | FileCheck %s
# RUN: pypto-opt %s > %t.pir
# RUN: pypto-opt %t.pir | diff %t.pir -
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class CoreTile:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], y: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], w: pld.DistributedTensor[[1, 1024], pl.FP32], n: pl.Scalar[pl.INDEX], m: pl.Scalar[pl.INDEX]):
        # CHECK: a: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        a = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        # CHECK: b: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, n])] = pl.tile.load(x, [0, 0], [16, 64], [16, n], target_memory=pl.Mem.Vec)
        b = pl.tile.load(x, [0, 0], [16, 64], [16, n], target_memory=pl.Mem.Vec)
        # CHECK: u: pl.Tile{{\[}}[16, 64], pl.FP32] = pl.tile.load(x, [0, 0], [16, 64])
        u = pl.tile.load(x, [0, 0], [16, 64])
        # CHECK: k: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 64])] = pl.tile.load(x, [8, 0], [16, 64], target_memory=pl.Mem.Vec, clamp=True)
        k = pl.tile.load(x, [8, 0], [16, 64], target_memory=pl.Mem.Vec, clamp=True)
        # CHECK: c: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[16, n])] = pl.tile.add(a, b)
        c = pl.tile.add(a, b)
        # CHECK: c2: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, n])] = pl.tile.sub(b, k)
        c2 = pl.tile.sub(b, k)
        # CHECK: bm: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[4, m])] = pl.tile.load(x, [0, 0], [16, 64], [4, m], target_memory=pl.Mem.Vec)
        bm = pl.tile.load(x, [0, 0], [16, 64], [4, m], target_memory=pl.Mem.Vec)
        # CHECK: cm: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[4, pl.min(n, m)])] = pl.tile.add(b, bm)
        cm = pl.tile.add(b, bm)
        # CHECK: c3: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.mul(a, u)
        c3 = pl.tile.mul(a, u)
        # CHECK: c4: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.div(c3, a)
        c4 = pl.tile.div(c3, a)
        # CHECK: c5: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.maximum(c4, a)
        c5 = pl.tile.maximum(c4, a)
        # CHECK: c6: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.minimum(c5, a)
        c6 = pl.tile.minimum(c5, a)
        # CHECK: d: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(pad=pl.PadValue.zero)] = pl.tile.fillpad_inplace(c, pad_value=pl.PadValue.zero)
        d = pl.tile.fillpad_inplace(c, pad_value=pl.PadValue.zero)
        # CHECK: e: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, n], pad=pl.PadValue.zero)] = pl.tile.set_validshape(d, 8, n)
        e = pl.tile.set_validshape(d, 8, n)
        # CHECK: f: pl.Tile{{\[}}[16, 64], pl.FP16, pl.Mem.Vec, pl.TileView(valid_shape=[8, n])] = pl.tile.cast(e, target_type=pl.FP16)
        f = pl.tile.cast(e, target_type=pl.FP16)
        # CHECK: g: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Mat, pl.TileView(blayout=pl.TileLayout.col_major)] = pl.tile.move(a, target_memory=pl.Mem.Mat, blayout=pl.TileLayout.col_major)
        g = pl.tile.move(a, target_memory=pl.Mem.Mat, blayout=pl.TileLayout.col_major)
        # CHECK: g2: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Left, pl.TileView(blayout=pl.TileLayout.col_major)] = pl.tile.move(g, target_memory=pl.Mem.Left)
        g2 = pl.tile.move(g, target_memory=pl.Mem.Left)
        # CHECK: g3: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.move(a)
        g3 = pl.tile.move(a)
        # CHECK: h: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        h = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        # CHECK: i: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()
        i = pl.tile.get_subblock_idx()
        # CHECK: v: pl.Scalar[pl.FP32] = pl.tile.read(a, [0, i])
        v = pl.tile.read(a, [0, i])
        # CHECK: a2: pl.Tile{{\[}}[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.write(h, [1, 1], v)
        a2 = pl.tile.write(h, [1, 1], v)
        # CHECK: y2: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tile.store(e, [0, 0], y)
        y2 = pl.tile.store(e, [0, 0], y)
        # CHECK: y3: pl.Tensor{{\[}}[16, 64], pl.FP32] = pl.tile.store(a2, [0, 0], y2, atomic=pld.AtomicType.Add)
        y3 = pl.tile.store(a2, [0, 0], y2, atomic=pld.AtomicType.Add)
        # CHECK: w2: pld.DistributedTensor{{\[}}[1, 1024], pl.FP32] = pl.tile.store(h, [0, 0], w, [1, 1024])
        w2 = pl.tile.store(h, [0, 0], w, [1, 1024])
        # CHECK: pl.system.fence()
        pl.system.fence()
        # CHECK: pl.system.cacheinvalid()
        pl.system.cacheinvalid()
        # CHECK: pl.system.cacheinvalid(w, [1, 1024], [0, 0])
        pl.system.cacheinvalid(w, [1, 1024], [0, 0])
        return
