# Two allgather rounds on separate stage/data allocations sharing one signal:
# each publish loop re-binds `stage` to a view of its round's stage window
# before using it and nothing reads it after the loop, so convert-to-ssa keeps
# every loop's `stage` local to the body (no iter arg carrying a view of window
# 'stage_a' into a loop that yields a view of 'stage_b'), and the comm-domain
# pass binds each view to its own allocation. Run before and after the default
# pipeline on 2 and 4 ranks; round k of rank r must hold every rank's row k.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --verify-each --roundtrip-each --passes=outline-incore-scopes,convert-to-ssa | FileCheck %s --check-prefix=SSA
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: FileCheck %s --check-prefix=LOW < %t.d/low.pir
# RUN: %python -c "import numpy as np; [np.save('%t.d/x%%d.npy' %% p, (np.arange(2 * p * 8).reshape(2, p, 1, 8) * 3 + 1).astype(np.float32)) for p in (2, 4)]"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/a2 --check-signals
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/a4 --check-signals --schedule=random:3 --detect-races
# RUN: pypto-run %t.d/low.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/b2 --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/b4 --check-signals --schedule=random:9 --detect-races
# RUN: %python -c "import numpy as np, sys; exp = lambda x: np.stack([np.stack([x[k, :, 0, :][None]] * x.shape[1]) for k in range(2)]); ok = all(np.array_equal(np.load('%t.d/%%s/y.npy' %% d), exp(np.load('%t.d/x%%d.npy' %% p))) for d, p in (('a2', 2), ('a4', 4), ('b2', 2), ('b4', 4))); print(ok); sys.exit(0 if ok else 1)"
# SSA-LABEL: def host_orch(
# SSA:       for r in pl.range(pld.system.world_size()):
# SSA-NEXT:      stage: pld.DistributedTensor{{.*}} = pld.tensor.window(stage_a,
# SSA:       for r_2 in pl.range(pld.system.world_size()):
# SSA-NEXT:      stage_2: pld.DistributedTensor{{.*}} = pld.tensor.window(stage_b,
# SSA-NOT:   init_values
# LOW: pl.builtin.tensor.allgather(stage{{.*}}, data{{.*}}, signal
# LOW: pl.builtin.tensor.allgather(stage{{.*}}, data{{.*}}, signal
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RebindRounds:
    @pl.function(type=pl.FunctionType.InCore)
    def publish(self, x: pl.Tensor[[1, 8], pl.FP32], stage: pl.Out[pld.DistributedTensor[[1, 8], pl.FP32]]):
        t = pl.load(x, [0, 0], [1, 8])
        stage = pl.store(t, [0, 0], stage)

    @pl.function(type=pl.FunctionType.InCore)
    def consume(self, data: pld.DistributedTensor[[NR, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, NR, 8], pl.FP32]]) -> pl.Tensor[[1, NR, 8], pl.FP32]:
        for j in pl.range(NR):
            row = pl.load(data, [j, 0], [1, 8])
            y = pl.store(row, [0, j, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, NR, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, NR, 1, NR, 8], pl.FP32]]):
        stage_a = pld.alloc_window_buffer(8 * 4)
        stage_b = pld.alloc_window_buffer(8 * 4)
        data_a = pld.alloc_window_buffer(pld.world_size() * 8 * 4)
        data_b = pld.alloc_window_buffer(pld.world_size() * 8 * 4)
        signal_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            stage = pld.window(stage_a, [1, 8], dtype=pl.FP32)
            self.publish(x[0, r], stage, device=r)
        stage = pld.window(stage_a, [1, 8], dtype=pl.FP32)
        data = pld.window(data_a, [pld.world_size(), 8], dtype=pl.FP32)
        data = pld.tensor.allgather(stage, data, signal)
        for r in pl.range(pld.world_size()):
            self.consume(data, y[0, r], device=r)
        for r in pl.range(pld.world_size()):
            stage = pld.window(stage_b, [1, 8], dtype=pl.FP32)
            self.publish(x[1, r], stage, device=r)
        stage = pld.window(stage_b, [1, 8], dtype=pl.FP32)
        data = pld.window(data_b, [pld.world_size(), 8], dtype=pl.FP32)
        data = pld.tensor.allgather(stage, data, signal)
        for r in pl.range(pld.world_size()):
            self.consume(data, y[1, r], device=r)
