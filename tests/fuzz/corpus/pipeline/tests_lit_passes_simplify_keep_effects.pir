# DCE keeps a function call whose result is unused (calls are side effects),
# keeps a scalar used by a tile shape ([n2, 64] in the type and the load), and drops
# dead assignments inside loop bodies.
# RUN: pypto-opt %s --passes=simplify --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def main(
# CHECK-NEXT:     r: pl.Scalar[pl.INDEX] = self.helper(n)
# CHECK-NEXT:     for i in pl.range(4):
# CHECK-NEXT:         pass
# CHECK:      def kernel(
# CHECK-NEXT:     n2: pl.Scalar[pl.INDEX] = n * 2
# CHECK-NEXT:     t: pl.Tile{{\[\[}}n2, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [n2, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     pl.tile.store(t, [0, 0], a)
import pypto.language as pl


@pl.program
class Keep:
    @pl.function(type=pl.FunctionType.Orchestration)
    def helper(self, n: pl.Scalar[pl.INDEX]):
        return n

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, n: pl.Scalar[pl.INDEX]):
        r = self.helper(n)
        for i in pl.range(4):
            dead = i * 3
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.InOut[pl.Tensor[[64, 64], pl.FP32]], n: pl.Scalar[pl.INDEX]):
        n2 = n * 2
        t = pl.tile.load(a, [0, 0], [n2, 64], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [0, 0], a)
        return
