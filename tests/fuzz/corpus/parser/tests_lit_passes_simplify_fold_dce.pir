# Constant folding (Python // and % semantics), propagation of constant scalars
# into expressions and types ([rows, 64] -> [16, 64]), x + 0 / x * 1 identities,
# and DCE of dead side-effect-free assignments (unused scalar, unused tile.load,
# the now-unused constants). The notify bound to an unused Var (Unknown result)
# and the tile.stores are side effects and stay.
# RUN: pypto-opt %s --passes=simplify --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def kernel(
# CHECK-NEXT:     live: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     t: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     r: pl.UnknownType = pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT:     q: pl.Scalar[pl.INDEX] = n
# CHECK-NEXT:     k: pl.Scalar[pl.INDEX] = q + 3 - 2
# CHECK-NEXT:     pl.tile.store(t, [0, 0], a)
# CHECK-NEXT:     pl.tile.store(live, [0, 0], a)
# CHECK-NEXT:     return k
# CHECK-NOT: unused
# CHECK-NOT: dead_tile
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Simp:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[16, 64], pl.FP32], sig: pld.DistributedTensor[[4, 1], pl.INT32], peer: pl.Scalar[pl.INT32], n: pl.Scalar[pl.INDEX]):
        four = 2 + 2
        rows = four * 4
        unused = n * 3
        dead_tile = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        live = pl.tile.load(a, [0, 0], [rows, 64], target_memory=pl.Mem.Vec)
        t = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        r = pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        q = n + 0
        k = q * 1 + (7 // 2) - (-7 % 3)
        pl.tile.store(t, [0, 0], a)
        pl.tile.store(live, [0, 0], a)
        return k
