# pld.tensor.reduce_scatter with every pld.ReduceOp (Max here; Min and Prod by
# substitution): row my_rank of each rank's window becomes the reduction of that
# row over all ranks, other rows keep the rank's own data. Run before and after
# the default pipeline (composite lowering: the combine step is tile.maximum /
# tile.minimum / tile.mul) on 2 and 4 ranks; inputs are small integers so every
# product is exact; compared with a numpy oracle.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; [np.save('%t.d/x%%d.npy' %% p, np.random.RandomState(p).randint(-3, 4, (p, p, 8)).astype(np.float32)) for p in (2, 4)]"
# RUN: %python %S/Inputs/rs_ops.py %s %t.d Max
# RUN: sed 's/pld.ReduceOp.Max/pld.ReduceOp.Min/' %s > %t.d/min.pir && %python %S/Inputs/rs_ops.py %t.d/min.pir %t.d Min
# RUN: sed 's/pld.ReduceOp.Max/pld.ReduceOp.Prod/' %s > %t.d/prod.pir && %python %S/Inputs/rs_ops.py %t.d/prod.pir %t.d Prod
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class ReduceScatterOps:
    @pl.function(type=pl.FunctionType.InCore)
    def rs(self, x: pl.Tensor[[NR, 8], pl.FP32], out: pl.Out[pl.Tensor[[NR, 8], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[NR, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [NR, 8])
        d = pl.store(t, [0, 0], data)
        d = pld.tensor.reduce_scatter(d, sig, op=pld.ReduceOp.Max)
        a = pl.load(d, [0, 0], [NR, 8])
        return pl.store(a, [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[NR, 8], pl.FP32], out: pl.Out[pl.Tensor[[NR, 8], pl.FP32]], data: pl.InOut[pld.DistributedTensor[[NR, 8], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[NR, 8], pl.FP32]:
        return self.rs(x, out, data, sig)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, NR, 8], pl.FP32], out: pl.Out[pl.Tensor[[NR, NR, 8], pl.FP32]]):
        db = pld.alloc_window_buffer(pld.world_size() * 8 * 4)
        sb = pld.alloc_window_buffer(pld.world_size() * 4)
        for r in pl.range(pld.world_size()):
            data = pld.window(db, [pld.world_size(), 8], dtype=pl.FP32)
            sig = pld.window(sb, [pld.world_size(), 1], dtype=pl.INT32)
            self.chip(x[r], out[r], data, sig, device=r)
