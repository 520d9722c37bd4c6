# Module-level names bound to a dtype or an enum member (DT = pl.FP16,
# OP = pld.ReduceOp.Max), as upstream kernel factories write them, stand for
# that value wherever it can be written: tensor/tile/scalar/distributed
# annotations, dtype= kwargs, enum kwargs, pl.cast targets, pl.const dtypes
# and DT.get_byte(). The printer writes the resolved value, so the printed
# program re-prints byte-identically. P = 2 and P = 4 max-allreduce of FP16
# rows, before and after the default pipeline, bit-exact vs numpy.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s > %t.d/p1.pir
# RUN: FileCheck %s < %t.d/p1.pir
# RUN: pypto-opt %t.d/p1.pir > %t.d/p2.pir
# RUN: diff %t.d/p1.pir %t.d/p2.pir
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: %python -c "import numpy as np; [np.save('%t.d/x%%d.npy' %% p, ((np.arange(p * 16).reshape(p, 1, 16) * 7) %% 23 - 11).astype(np.float16) / 4) for p in (2, 4)]"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/a2 --check-signals
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/a4 --check-signals --schedule=random:3
# RUN: pypto-run %t.d/low.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/b2 --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/b4 --check-signals
# RUN: %python -c "import numpy as np, sys; ok = [np.array_equal(np.load('%t.d/%%s/y.npy' %% d), np.stack([np.load('%t.d/x%%d.npy' %% p).max(axis=0).astype(np.float32)] * p)) for d, p in (('a2', 2), ('a4', 4), ('b2', 2), ('b4', 4))]; print(ok); sys.exit(0 if all(ok) else 1)"
# CHECK: def stage(self, x: pl.Tensor{{\[\[}}1, 16], pl.FP16], data: pl.InOut[pld.DistributedTensor{{\[\[}}1, 16], pl.FP16]]) -> pld.DistributedTensor{{\[\[}}1, 16], pl.FP16]:
# CHECK: pl.Tile{{\[\[}}1, 16], pl.FP16, pl.Mem.Vec] = pl.tile.load(x
# CHECK: def unstage(
# CHECK: pl.tile.cast(t, target_type=pl.FP32
# CHECK: pl.const(1, pl.INT32)
# CHECK: pl.Scalar[pl.FP32]
# CHECK: def host_orch(self, x: pl.Tensor{{\[\[}}NR, 1, 16], pl.FP16]
# CHECK: pld.tensor.alloc_window_buffer(32)
# CHECK: pld.tensor.window(buf, [1, 16], dtype=pl.FP16)
# CHECK: pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Max)
import pypto.language as pl
import pypto.language.distributed as pld

DT = pl.FP16
F32 = pl.FP32
IDT = pl.INT32
OP = pld.ReduceOp.Max
NR = pl.dynamic("NR")


@pl.program
class NamedDTypes:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[1, 16], DT], data: pl.InOut[pld.DistributedTensor[[1, 16], DT]]) -> pld.DistributedTensor[[1, 16], DT]:
        t: pl.Tile[[1, 16], DT, pl.Mem.Vec] = pl.load(x, [0, 0], [1, 16])
        return pl.store(t, [0, 0], data)

    @pl.function(type=pl.FunctionType.InCore)
    def unstage(self, data: pld.DistributedTensor[[1, 16], DT], y: pl.Out[pl.Tensor[[1, 16], F32]]) -> pl.Tensor[[1, 16], F32]:
        t = pl.load(data, [0, 0], [1, 16])
        u = pl.cast(t, F32)
        k: pl.Scalar[IDT] = pl.const(1, IDT)
        one: pl.Scalar[F32] = pl.cast(k, F32)
        return pl.store(u, [0, 0], y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 1, 16], DT], y: pl.Out[pl.Tensor[[NR, 1, 16], F32]]):
        buf = pld.alloc_window_buffer(16 * DT.get_byte())
        sbuf = pld.alloc_window_buffer(64)
        data = pld.window(buf, [1, 16], dtype=DT)
        sig = pld.window(sbuf, [NR, 1], dtype=IDT)
        for r in pl.range(pld.world_size()):
            self.stage(x[r], data, device=r)
        data = pld.tensor.allreduce(data, sig, op=OP)
        for r in pl.range(pld.world_size()):
            self.unstage(data, y[r], device=r)
