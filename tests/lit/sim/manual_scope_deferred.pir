# Deferred completion in a pl.manual_scope(): 4 waiter tasks each register a
# defer_wait on the signal (they finish their body at once but complete only
# when the peer's epoch arrives); each consumer depends on its waiter and copies
# the payload into its row; the publisher comes last in program order and has no
# dependency, so it runs while the waiters' completions are still deferred.
# Rank r's rows hold rank r-1's input. Before and after the default pipeline
# (the deps survive outlining as call attrs), on the parallel and a random
# schedule, with the race detector. The waiters' threshold is a scalar
# parameter (a V1 waiter only registers and does scalar bookkeeping: no
# tensor.read); `out` is re-assigned in the consumer: the kernel copies its
# parameter into a local first.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; x = np.full((2, 1, 8), 7, np.int32); x[1] = 9; x[:, :, 0] = 3; np.save('%t.d/x.npy', x)"
# RUN: %python -c "import numpy as np; e = np.full((2, 4, 8), 9, np.int32); e[1] = 7; e[:, :, 0] = 3; np.save('%t.d/want.npy', e)"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/a --detect-races
# RUN: %python -c "import numpy as np, sys; sys.exit(not np.array_equal(np.load('%t.d/a/y.npy'), np.load('%t.d/want.npy')))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/b --schedule=random:3 --detect-races
# RUN: %python -c "import numpy as np, sys; sys.exit(not np.array_equal(np.load('%t.d/b/y.npy'), np.load('%t.d/want.npy')))"
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/c --detect-races
# RUN: %python -c "import numpy as np, sys; sys.exit(not np.array_equal(np.load('%t.d/c/y.npy'), np.load('%t.d/want.npy')))"
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/d --schedule=random:8
# RUN: %python -c "import numpy as np, sys; sys.exit(not np.array_equal(np.load('%t.d/d/y.npy'), np.load('%t.d/want.npy')))"
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ManualScopeDeferred:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, inp: pl.Tensor[[1, 8], pl.INT32], out: pl.Out[pl.Tensor[[4, 8], pl.INT32]],
             payload: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]], sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
             peer: pl.Scalar[pl.INT32], epoch: pl.Scalar[pl.INT32]) -> pl.Tensor[[4, 8], pl.INT32]:
        with pl.manual_scope():
            for row in pl.range(4):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as waited:
                    pld.system.defer_wait(sig, [0, 0], epoch, cmp=pld.WaitCmp.Ge)
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="consumer", deps=[waited]):
                    got = pl.load(payload, [0, 0], [1, 8])
                    out = pl.store(got, [row, 0], out)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="publisher"):
                mine = pl.load(inp, [0, 0], [1, 8])
                pld.tile.remote_store(mine, target=payload, peer=peer, offsets=[0, 0])
                sent: pl.Scalar[pl.INT32] = pl.read(inp, [0, 0])
                pld.system.notify(sig, peer, [0, 0], sent, op=pld.NotifyOp.Set)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.INT32], y: pl.Out[pl.Tensor[[2, 4, 8], pl.INT32]]):
        pbuf = pld.alloc_window_buffer(32)
        sbuf = pld.alloc_window_buffer(4)
        for r in pl.range(pld.world_size()):
            payload = pld.window(pbuf, [1, 8], dtype=pl.INT32)
            sig = pld.window(sbuf, [1, 1], dtype=pl.INT32)
            self.chip(x[r], y[r], payload, sig, (r + 1) % pld.world_size(), 3, device=r)
