# --check-signals checks windows used for synchronization (waited on, notified
# with AtomicAdd, a collective's signal). Each rank publishes a count into row
# me of every rank's `counts` window with notify(Set) — data, like lowered
# all_to_all_v's recv_counts — then an AtomicAdd barrier on `sig` (reset after
# the wait) orders the reads: no residue report, on 2 and 4 ranks, before and
# after the default pipeline. The same window also waited on is a signal, and
# its non-zero cells are reported.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-run %s --ranks 2 --output-dir %t.d/a2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --output-dir %t.d/a4 --check-signals --detect-races --schedule=random:2
# RUN: pypto-opt %s --verify-each --roundtrip-each --pipeline=default -o %t.d/low.pir
# RUN: pypto-run %t.d/low.pir --ranks 4 --output-dir %t.d/b4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; ok = all(np.array_equal(np.load('%t.d/%%s/y.npy' %% d), np.tile(((np.arange(p) + 1) * 10).astype(np.int32).reshape(1, p, 1), (p, 1, 1))) for d, p in (('a2', 2), ('a4', 4), ('b4', 4))); print(ok); sys.exit(0 if ok else 1)"
# RUN: sed -e 's/# WAIT: //' %s > %t.wait.pir
# RUN: not pypto-run %t.wait.pir --ranks 2 --output-dir %t.d/w2 --check-signals 2>&1 | FileCheck %s
# CHECK: error: signal residue at the end of the run: signal 'counts' (window 'counts_buf') on rank 0 cell [0, 0] = 10; a self-clearing protocol leaves every cell 0
# CHECK: error: signal residue at the end of the run: signal 'counts' (window 'counts_buf') on rank 1 cell [1, 0] = 20; a self-clearing protocol leaves every cell 0
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class PublishedCounts:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, counts: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]], out: pl.Out[pl.Tensor[[NR, 1], pl.INT32]]) -> pl.Tensor[[NR, 1], pl.INT32]:
        ctx = pld.get_comm_ctx(counts)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        v = (me + 1) * 10
        for p in pl.range(NR):
            pld.system.notify(counts, p, [me, 0], v, op=pld.NotifyOp.Set)
            pld.system.notify(sig, p, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], n, cmp=pld.WaitCmp.Ge)
        pld.system.notify(sig, me, [0, 0], pl.const(0, pl.INT32) - n, op=pld.NotifyOp.AtomicAdd)
        # WAIT: pld.system.wait(counts, [me, 0], v, cmp=pld.WaitCmp.Ge)
        for j in pl.range(NR):
            c = pl.read(counts, [j, 0])
            pl.write(out, [j, 0], c)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, y: pl.Out[pl.Tensor[[NR, NR, 1], pl.INT32]]):
        counts_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        sig_buf = pld.alloc_window_buffer(4)
        for r in pl.range(pld.world_size()):
            counts = pld.window(counts_buf, [pld.world_size(), 1], dtype=pl.INT32)
            sig = pld.window(sig_buf, [1, 1], dtype=pl.INT32)
            self.kernel(counts, sig, y[r], device=r)
