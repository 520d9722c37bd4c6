# An unknown bare name used as a dimension in a type annotation declares a dynamic
# dim (upstream's text parser behaves the same); the printed program declares it
# explicitly and round-trips. An unknown name in a statement is still an error.
# RUN: pypto-opt %s > %t.1 && pypto-opt %t.1 > %t.2 && diff %t.1 %t.2
# RUN: FileCheck %s < %t.1
# RUN: sed -e 's/\[1, N\])$/[1, M])/' %s > %t.bad.pir
# RUN: not pypto-opt %t.bad.pir 2>&1 | FileCheck %s --check-prefix=BAD
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Implicit:
    @pl.function(type=pl.FunctionType.InCore)
    def f(self, inp: pl.Tensor[[1, N], pl.FP32], win: pld.DistributedTensor[[1, N], pl.FP32]):
        local = pl.load(inp, [0, 0], [1, N])
        pl.store(local, [0, 0], win)

# CHECK: N = pl.dynamic("N")
# CHECK: def f(self, inp: pl.Tensor{{\[\[}}1, N], pl.FP32], win: pld.DistributedTensor{{\[\[}}1, N], pl.FP32]):
# CHECK-NEXT: local: pl.Tile{{\[\[}}1, N], pl.FP32] = pl.tile.load(inp, [0, 0], [1, N])
# BAD: implicit_dynamic_dim.pir.tmp.bad.pir:16:42: error: undefined name 'M'
