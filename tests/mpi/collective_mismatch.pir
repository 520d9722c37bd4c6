# Rank 0 calls a barrier where rank 1 calls an allreduce: under --transport=mpi
# both learn it from the arrival messages and report what the in-process
# engine reports (tests/mpi/mpi_engine.py).
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class CollectiveMismatch:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, data: pl.InOut[pld.DistributedTensor[[1, 8], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(data)
        me = pld.rank(ctx)
        if me == 0:
            sig = pld.tensor.barrier(sig)
        else:
            data = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum)
        return
