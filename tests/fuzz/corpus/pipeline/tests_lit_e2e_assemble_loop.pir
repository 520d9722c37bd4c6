# Slice assignment inside a loop onto an Out parameter (upstream's row-wise
# write-back): `y[i, 0:16] = pl.mul(x[i:i + 1, 0:16], 2.0)`. The parser copies
# the parameter before the loop and re-binds it (convert-to-ssa carries it);
# `x[i:i + 1, ...]` has the static extent 1; flatten-call-args names the nested
# view (`lhs`) and the nested tensor.muls (`source`, a tile.muls after
# conversion) so the PTO emitter sees Vars; the assemble becomes tile.store at [i, 0].
# Expected: y = 2 * x on every rank, before and after --pipeline=default.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: FileCheck %s --check-prefix=IR < %t.d/lowered.pir
# RUN: pypto-opt %t.d/lowered.pir --emit=pto | FileCheck %s --check-prefix=PTO
# RUN: %python -c "import numpy as np; np.save('%t.d/x.npy', (np.arange(2 * 128) %% 19 - 6).astype(np.float32).reshape(2, 8, 16) / 3)"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/s --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/l --detect-races --schedule=random:2
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x.npy'); ok = [np.array_equal(np.load('%t.d/%%s/y.npy' %% d), x * np.float32(2)) for d in 'sl']; print(ok); sys.exit(0 if all(ok) else 1)"
# IR:      for i, (y_2,) in pl.range(8, init_values=(y_1,)):
# IR-NEXT:     lhs: pl.Tensor{{\[\[}}1, 16], pl.FP32] = pl.tensor.slice(x, [1, 16], [i, 0])
# IR-NEXT:     lhs_tile: pl.Tile{{\[\[}}1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(lhs, [0, 0], [1, 16], target_memory=pl.Mem.Vec)
# IR-NEXT:     source: pl.Tile{{\[\[}}1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.muls(lhs_tile, 2.0)
# IR-NEXT:     y_3: pl.Tensor{{\[\[}}8, 16], pl.FP32] = pl.tile.store(source, [i, 0], y_2)
# PTO:     scf.for
# PTO:     pto.tload
# PTO:     pto.tmuls
# PTO:     pto.tstore
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class LoopSlices:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        for i in pl.range(8):
            y[i, 0:16] = pl.mul(x[i:i + 1, 0:16], 2.0)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[8, 16], pl.FP32], y: pl.Out[pl.Tensor[[8, 16], pl.FP32]]) -> pl.Tensor[[8, 16], pl.FP32]:
        y = self.k(x, y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 8, 16], pl.FP32], y: pl.Out[pl.Tensor[[2, 8, 16], pl.FP32]]):
        for r in pl.range(pld.world_size()):
            self.chip(x[r], y[r], device=r)
