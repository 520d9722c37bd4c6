# Upstream's HOST form `pld.tensor.allgather(data, signal)`: every rank has
# staged its chunk in row my_rank of the [NR, SIZE] window, and the call gathers
# the rows in place (printed as the three-operand op with data as input and
# target). The consumer reads the gathered rows from its OWN window and stores
# each [1, 8] row into a [1, NR, 8] output at [0, j, 0] (pl.store of a lower-rank
# tile: the missing leading dims are 1, printed as `shapes`). Run before and
# after the default pipeline on 2 and 4 ranks; every rank must see every row.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s | FileCheck %s
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: FileCheck %s --check-prefix=LOW < %t.d/low.pir
# RUN: %python -c "import numpy as np; [np.save('%t.d/x%%d.npy' %% p, (np.arange(p * 8).reshape(p, 1, 8) * 3).astype(np.float32)) for p in (2, 4)]"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/a2 --check-signals
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/a4 --check-signals --schedule=random:5
# RUN: pypto-run %t.d/low.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/b4 --check-signals
# RUN: %python -c "import numpy as np, sys; ok = all(np.array_equal(np.load('%t.d/%%s/y.npy' %% d), np.stack([np.load('%t.d/x%%d.npy' %% p)[:, 0, :][None]] * p)) for d, p in (('a2', 2), ('a4', 4), ('b4', 4))); print(ok); sys.exit(0 if ok else 1)"
# CHECK: pl.tile.store(row, [0, j, 0], y_1, [1, 1, 8])
# CHECK: pld.tensor.allgather(data, data, signal)
# LOW: pl.builtin.tensor.allgather(data{{.*}}, data{{.*}}, signal
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class InPlaceGather:
    @pl.function(type=pl.FunctionType.InCore)
    def publish(self, x: pl.Tensor[[1, 8], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], me: pl.Scalar[pl.INT32]) -> pld.DistributedTensor[[NR, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [1, 8])
        return pl.store(t, [me, 0], data)

    @pl.function(type=pl.FunctionType.Orchestration)
    def publish_orch(self, x: pl.Tensor[[1, 8], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], me: pl.Scalar[pl.INT32]) -> pld.DistributedTensor[[NR, 8], pl.FP32]:
        return self.publish(x, data, me)

    @pl.function(type=pl.FunctionType.InCore)
    def consume(self, data: pld.DistributedTensor[[NR, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, NR, 8], pl.FP32]]) -> pl.Tensor[[1, NR, 8], pl.FP32]:
        for j in pl.range(NR):
            row = pl.load(data, [j, 0], [1, 8])
            y = pl.store(row, [0, j, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def consume_orch(self, data: pld.DistributedTensor[[NR, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, NR, 8], pl.FP32]]) -> pl.Tensor[[1, NR, 8], pl.FP32]:
        return self.consume(data, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, NR, 8], pl.FP32]]):
        data_buf = pld.alloc_window_buffer(pld.world_size() * 8 * 4)
        signal_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        for r in pl.range(pld.world_size()):
            data = pld.window(data_buf, [pld.world_size(), 8], dtype=pl.FP32)
            self.publish_orch(x[r], data, r, device=r)
        data = pld.window(data_buf, [pld.world_size(), 8], dtype=pl.FP32)
        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)
        data = pld.tensor.allgather(data, signal)
        for r in pl.range(pld.world_size()):
            self.consume_orch(data, y[r], device=r)
