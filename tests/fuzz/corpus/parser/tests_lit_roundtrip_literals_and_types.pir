# RUN: pypto-parse-check %s > %t.1 && pypto-parse-check %t.1 > %t.2 && diff %t.1 %t.2
# RUN: FileCheck %s < %t.1
# Type and literal spellings that only the parser/printer pair sees (parse-only
# driver, no verifier): views, window binding marker, empty tuple, non-finite and
# tiny floats, a unary minus on a literal.
# CHECK: a: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32, pl.TensorView(), "window_buffer=buf"]
# CHECK-SAME: t: pl.Tile{{\[\[}}4, 4], pl.FP16, pl.TileView(fractal=1024)]
# CHECK-SAME: u: pl.Tuple[()]
# CHECK: x: pl.Scalar[pl.FP16] = pl.const(float("inf"), pl.FP16)
# CHECK-NEXT: y: pl.Scalar[pl.FP32] = -float("inf")
# CHECK-NEXT: z: pl.Scalar[pl.FP32] = v * -1.5e-07
# CHECK-NEXT: w: pl.Scalar[pl.FP32] = pl.abs(v)
# CHECK-NEXT: q: pl.Scalar[pl.INDEX] = -(5)
import pypto.language as pl
import pypto.language.distributed as pld
@pl.program
class W:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pld.DistributedTensor[[16, 64], pl.FP32, pl.TensorView(), "window_buffer=buf"], t: pl.Tile[[4, 4], pl.FP16, pl.TileView(fractal=1024)], u: pl.Tuple[()], v: pl.Scalar[pl.FP32]):
        x = pl.const(float("inf"), pl.FP16)
        y = -float("inf")
        z = v * -1.5e-7
        w = pl.abs(v)
        q = -(5)
