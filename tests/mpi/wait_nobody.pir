# Every rank waits on its own signal cell and no rank notifies it: under
# --transport=mpi each process must report its blocked wait once --deadline
# passes and every process must exit 3 (tests/mpi/mpi_engine.py).
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class WaitNobody:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(sig)
        me = pld.rank(ctx)
        # A comment so the wait is on line 18.
        # (tests/mpi/mpi_engine.py checks the line)
        pld.system.wait(sig, [me, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        return
