# Rank 1 notifies a peer outside the comm domain (a run-time error) while every
# rank waits for a notify that never comes: under --transport=mpi rank 1
# reports the error and the other ranks stop at once (not at --deadline),
# listing the wait each was blocked in; every process exits 1.
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class ErrorStopsWaiters:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(sig)
        me = pld.rank(ctx)
        if me == 1:
            # peer me + 10 is outside the domain
            pld.system.notify(sig, me + 10, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [me, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        return
