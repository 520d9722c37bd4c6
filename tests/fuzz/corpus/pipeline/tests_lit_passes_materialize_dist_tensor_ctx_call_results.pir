# A window re-bound from a kernel call result keeps its comm context: the callee
# returns its InOut DistributedTensor argument (the parameter's store
# write-back, a loop carry of it, or an element of a tuple result), so the
# caller's name has that argument's ctx. The chip orchestration re-binds
# `stage` from a single result and then from a tuple result before the
# all_to_all reads it. Run before and after the default pipeline on 2 and 4
# ranks: y[r][j] = 2 * x[j][r] and c[r][j] = r (the counts each rank wrote
# through the tuple result's second element).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: FileCheck %s < %t.d/low.pir
# RUN: %python -c "import numpy as np; [np.save('%t.d/x%%d.npy' %% p, (np.arange(p * p * 8).reshape(p, p, 8) + 1).astype(np.float32)) for p in (2, 4)]"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/a2 --check-signals
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/a4 --check-signals --schedule=random:4 --detect-races
# RUN: pypto-run %t.d/low.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/b2 --check-signals
# RUN: pypto-run %t.d/low.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/b4 --check-signals --schedule=random:8 --detect-races
# RUN: %python -c "import numpy as np, sys; ok = all(np.array_equal(np.load('%t.d/%%s/y.npy' %% d), 2 * np.load('%t.d/x%%d.npy' %% p).transpose(1, 0, 2)) and np.array_equal(np.load('%t.d/%%s/c.npy' %% d), np.tile(np.arange(p, dtype=np.int32).reshape(p, 1, 1), (1, p, 1))) for d, p in (('a2', 2), ('a4', 4), ('b2', 2), ('b4', 4))); print(ok); sys.exit(0 if ok else 1)"
# CHECK-LABEL: def chip(
# CHECK:       stage_1: pld.DistributedTensor{{.*}} = self.stage_rows(x, stage, stage_ctx)
# CHECK-NEXT:  tuple_tmp: {{.*}} = self.scale_and_count(stage_1, cnt, me, stage_ctx, cnt_ctx)
# CHECK-NEXT:  stage_2: pld.DistributedTensor{{.*}} = tuple_tmp[0]
# CHECK-NEXT:  cnt_1: pld.DistributedTensor{{.*}} = tuple_tmp[1]
# CHECK-NEXT:  self.chip_all_to_all_0(stage_2, data, signal, stage_ctx, data_ctx, signal_ctx)
# CHECK:       self.copy_counts(cnt_1, co, cnt_ctx)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class CallResults:
    @pl.function(type=pl.FunctionType.InCore)
    def stage_rows(self, x: pl.Tensor[[NR, 8], pl.FP32], stage: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]]) -> pld.DistributedTensor[[NR, 8], pl.FP32]:
        for j in pl.range(NR):
            row = pl.load(x, [j, 0], [1, 8])
            stage = pl.store(row, [j, 0], stage)
        return stage

    @pl.function(type=pl.FunctionType.InCore)
    def scale_and_count(self, stage: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], cnt: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], me: pl.Scalar[pl.INT32]) -> tuple[pld.DistributedTensor[[NR, 8], pl.FP32], pld.DistributedTensor[[NR, 1], pl.INT32]]:
        for j in pl.range(NR):
            row = pl.load(stage, [j, 0], [1, 8])
            twice = pl.add(row, row)
            stage = pl.store(twice, [j, 0], stage)
            pl.write(cnt, [j, 0], me)
        return stage, cnt

    @pl.function(type=pl.FunctionType.InCore)
    def consume(self, data: pld.DistributedTensor[[NR, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 8], pl.FP32]]) -> pl.Tensor[[NR, 8], pl.FP32]:
        for j in pl.range(NR):
            row = pl.load(data, [j, 0], [1, 8])
            y = pl.store(row, [j, 0], y)
        return y

    @pl.function(type=pl.FunctionType.InCore)
    def copy_counts(self, cnt: pld.DistributedTensor[[NR, 1], pl.INT32], co: pl.Out[pl.Tensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[NR, 1], pl.INT32]:
        for j in pl.range(NR):
            v = pl.read(cnt, [j, 0])
            pl.write(co, [j, 0], v)
        return co

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[NR, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 8], pl.FP32]], co: pl.Out[pl.Tensor[[NR, 1], pl.INT32]], stage: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], cnt: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], data: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], me: pl.Scalar[pl.INT32]) -> pl.Tensor[[NR, 8], pl.FP32]:
        stage = self.stage_rows(x, stage)
        stage, cnt = self.scale_and_count(stage, cnt, me)
        data = pld.tensor.all_to_all(stage, data, signal)
        co = self.copy_counts(cnt, co)
        return self.consume(data, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, NR, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, NR, 8], pl.FP32]], c: pl.Out[pl.Tensor[[NR, NR, 1], pl.INT32]]):
        stage_buf = pld.alloc_window_buffer(pld.world_size() * 8 * 4)
        cnt_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        data_buf = pld.alloc_window_buffer(pld.world_size() * 8 * 4)
        signal_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        for r in pl.range(pld.world_size()):
            stage = pld.window(stage_buf, [pld.world_size(), 8], dtype=pl.FP32)
            cnt = pld.window(cnt_buf, [pld.world_size(), 1], dtype=pl.INT32)
            data = pld.window(data_buf, [pld.world_size(), 8], dtype=pl.FP32)
            signal = pld.window(signal_buf, [pld.world_size(), 1], dtype=pl.INT32)
            self.chip(x[r], y[r], c[r], stage, cnt, data, signal, r, device=r)
