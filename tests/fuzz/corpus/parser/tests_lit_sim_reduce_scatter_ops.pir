# A host-orchestrator reduce_scatter with op Max, Min and Prod (upstream allows
# every pld.ReduceOp; the op is a module constant OP, substituted by sed): row r
# of rank r's window ends up as the op over every rank's row r. P = 2 and 4,
# before and after the default pipeline, bit-exact vs numpy.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; [np.save('%t.d/x%%d.npy' %% p, np.array([-2, -1, 1, 2], np.float32)[(np.arange(p * p * 8).reshape(p, p, 8) * 7 + p) %% 4]) for p in (2, 4)]"
# RUN: sed "s/^OP = pld.ReduceOp.Max/OP = pld.ReduceOp.Max/" %s > %t.d/Max.pir
# RUN: pypto-opt %t.d/Max.pir --verify-each --roundtrip-each --pipeline=default -o %t.d/Max.low.pir
# RUN: pypto-run %t.d/Max.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/Max.a2 --check-signals
# RUN: pypto-run %t.d/Max.low.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/Max.b2 --check-signals
# RUN: pypto-run %t.d/Max.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/Max.a4 --check-signals --schedule=random:4
# RUN: pypto-run %t.d/Max.low.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/Max.b4 --check-signals --schedule=random:5
# RUN: sed "s/^OP = pld.ReduceOp.Max/OP = pld.ReduceOp.Min/" %s > %t.d/Min.pir
# RUN: pypto-opt %t.d/Min.pir --verify-each --roundtrip-each --pipeline=default -o %t.d/Min.low.pir
# RUN: pypto-run %t.d/Min.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/Min.a2 --check-signals
# RUN: pypto-run %t.d/Min.low.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/Min.b2 --check-signals
# RUN: pypto-run %t.d/Min.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/Min.a4 --check-signals --schedule=random:4
# RUN: pypto-run %t.d/Min.low.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/Min.b4 --check-signals --schedule=random:5
# RUN: sed "s/^OP = pld.ReduceOp.Max/OP = pld.ReduceOp.Prod/" %s > %t.d/Prod.pir
# RUN: pypto-opt %t.d/Prod.pir --verify-each --roundtrip-each --pipeline=default -o %t.d/Prod.low.pir
# RUN: pypto-run %t.d/Prod.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/Prod.a2 --check-signals
# RUN: pypto-run %t.d/Prod.low.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/Prod.b2 --check-signals
# RUN: pypto-run %t.d/Prod.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/Prod.a4 --check-signals --schedule=random:4
# RUN: pypto-run %t.d/Prod.low.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/Prod.b4 --check-signals --schedule=random:5
# RUN: %python -c "import numpy as np, sys; f = dict(Max=np.max, Min=np.min, Prod=np.prod); ok = [(op, p, s, np.array_equal(np.load('%t.d/%%s.%%s%%d/y.npy' %% (op, s, p)), f[op](np.load('%t.d/x%%d.npy' %% p), axis=0).reshape(p, 1, 8))) for op in f for p in (2, 4) for s in 'ab']; print(ok); sys.exit(0 if all(t[3] for t in ok) else 1)"
# RUN: FileCheck %s < %t.d/Min.low.pir
# CHECK: pl.builtin.tensor.reduce_scatter({{.*}}op=pld.ReduceOp.Min
import pypto.language as pl
import pypto.language.distributed as pld

OP = pld.ReduceOp.Max
NR = pl.dynamic("NR")


@pl.program
class ReduceScatterOps:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[NR, 8], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]]) -> pld.DistributedTensor[[NR, 8], pl.FP32]:
        for i, (d,) in pl.range(pld.nranks(pld.get_comm_ctx(data)), init_values=(data,)):
            t = pl.load(x, [i, 0], [1, 8])
            d2 = pl.store(t, [i, 0], d)
            d3 = pl.yield_(d2)
        return d3

    @pl.function(type=pl.FunctionType.InCore)
    def unstage(self, data: pld.DistributedTensor[[NR, 8], pl.FP32], row: pl.Scalar[pl.INDEX], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]]) -> pl.Tensor[[1, 8], pl.FP32]:
        t = pl.load(data, [row, 0], [1, 8])
        return pl.store(t, [0, 0], y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, NR, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer(4 * 8 * 4)
        sbuf = pld.alloc_window_buffer(16)
        data = pld.window(buf, [NR, 8], dtype=pl.FP32)
        sig = pld.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.stage(x[r], data, device=r)
        data = pld.tensor.reduce_scatter(data, sig, op=OP)
        for r in pl.range(pld.world_size()):
            self.unstage(data, r, y[r], device=r)
