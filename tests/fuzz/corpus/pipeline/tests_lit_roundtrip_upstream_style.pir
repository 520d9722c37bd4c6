# RUN: pypto-opt %s > %t.1 && pypto-opt %t.1 > %t.2 && diff %t.1 %t.2
# RUN: FileCheck %s < %t.1
# Upstream-style user DSL: top-level @pl.jit.* functions calling each other by
# bare name, module constants, short forms (pl.load/pl.add/pld.window/...),
# keyword arguments by op argument name, get_byte(), x[r] subscripts, tuple
# unpacking. Everything prints in canonical form; the program is named after the file.
from pypto import language as pl
import pypto.language.distributed as pld

ROWS = 16
COLS = ROWS * 4


# CHECK: class upstream_style:
# CHECK-NEXT: @pl.function(type=pl.FunctionType.InCore)
# CHECK-NEXT: def kernel(self, x: pl.Tensor{{\[\[}}16, 64], pl.FP32], y: pl.Tensor{{\[\[}}16, 64], pl.FP32], out: pl.InOut[pl.Tensor{{\[\[}}16, 64], pl.FP32]]) -> pl.Tensor{{\[\[}}16, 64], pl.FP32]:
@pl.jit.incore
def kernel(x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
    # CHECK-NEXT: a: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
    a = pl.load(x, offsets=[0, 0], shapes=[ROWS, COLS], target_memory=pl.Mem.Vec)
    b = pl.load(y, [0, 0], [ROWS, COLS], target_memory=pl.Mem.Vec)
    # CHECK: c: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(a, b)
    c = pl.add(a, b)
    # CHECK-NEXT: d: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.mul(c, c)
    d = c * c
    # CHECK-NEXT: out_1: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tile.store(d, [0, 0], out)
    out_1 = pl.store(d, [0, 0], out)
    return out_1


# CHECK: @pl.function(type=pl.FunctionType.Orchestration)
@pl.jit
def chip(x: pl.Tensor[[ROWS, COLS], pl.FP32], out: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    # CHECK: r: pl.Tensor{{\[\[}}16, 64], pl.FP32] = self.kernel(x, x, out)
    r = kernel(x, x, out)
    # CHECK-NEXT: s: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tensor.add(r, x)
    s = pl.add(r, x)
    return


# CHECK: @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
@pl.jit.host
def host(xs: pl.Tensor[[4, ROWS, COLS], pl.FP32], outs: pl.Tensor[[4, ROWS, COLS], pl.FP32]):
    # CHECK: buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
    buf = pld.alloc_window_buffer(ROWS * COLS * pl.FP32.get_byte())
    # CHECK-NEXT: win: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32] = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
    win = pld.window(buf, [ROWS, COLS], dtype=pl.FP32)
    # CHECK-NEXT: for r in pl.range(4):
    for r in range(4):
        # CHECK-NEXT: self.chip(pl.tensor.slice(xs, [1, 16, 64], [r, 0, 0], [], [0]), pl.tensor.slice(outs, [1, 16, 64], [r, 0, 0], [], [0]), device=r)
        chip(xs[r], outs[r], device=r)
    return
