# materialize-comm-domain-scopes: a pld.window view written inline as a
# dispatch argument (upstream's `self.k(pld.window(buf, [..], dtype=...),
# device=r)`) is hoisted into a view Var right before the dispatch, so it counts
# as a view of its allocation (no "dead allocation") and the dispatch covers it.
# Runs with P = 2 and P = 4 before and after the default pipeline, bit-exact vs
# numpy (an in-kernel sum allreduce through the inline windows).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --passes=materialize-comm-domain-scopes --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: %python -c "import numpy as np; [np.save('%t.d/x%%d.npy' %% p, (np.arange(p * 16).reshape(p, 1, 16) %% 11 - 3).astype(np.float32)) for p in (2, 4)]"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/a2 --check-signals
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/a4 --check-signals --schedule=random:7
# RUN: pypto-run %t.d/low.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/b2 --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/b4 --check-signals --schedule=random:9
# RUN: %python -c "import numpy as np, sys; ok = [np.array_equal(np.load('%t.d/%%s/y.npy' %% d), np.stack([np.load('%t.d/x%%d.npy' %% p).sum(axis=0)] * p)) for d, p in (('a2', 2), ('a4', 4), ('b2', 2), ('b4', 4))]; print(ok); sys.exit(0 if all(ok) else 1)"
# CHECK-LABEL: def host_orch(
# CHECK-NEXT: with pld.comm_domain(name="comm_d0", devices=[], slots=["buf", "sbuf"]):
# CHECK: for r in pl.range(pld.system.world_size()):
# CHECK-NEXT: buf_view: pld.DistributedTensor{{\[\[}}1, 16], pl.FP32, "window_buffer=buf"] = pld.tensor.window(buf, [1, 16], dtype=pl.FP32)
# CHECK-NEXT: sbuf_view: pld.DistributedTensor{{\[\[}}pld.system.world_size(), 1], pl.INT32, "window_buffer=sbuf"] = pld.tensor.window(sbuf, [pld.system.world_size(), 1], dtype=pl.INT32)
# CHECK-NEXT: self.k(pl.tensor.slice(x, {{.*}}), pl.tensor.slice(y, {{.*}}), buf_view, sbuf_view, device=r)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class InlineViews:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[1, 16], pl.FP32], y: pl.Out[pl.Tensor[[1, 16], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[1, 16], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[1, 16], pl.FP32]:
        d = pl.store(pl.load(x, [0, 0], [1, 16]), [0, 0], data)
        d = pld.tensor.allreduce(d, signal, op=pld.ReduceOp.Sum)
        return pl.store(pl.load(d, [0, 0], [1, 16]), [0, 0], y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 1, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 16], pl.FP32]]):
        buf = pld.alloc_window_buffer(64)
        sbuf = pld.alloc_window_buffer(16)
        for r in pl.range(pld.world_size()):
            self.k(x[r], y[r], pld.window(buf, [1, 16], dtype=pl.FP32), pld.window(sbuf, [pld.world_size(), 1], dtype=pl.INT32), device=r)
