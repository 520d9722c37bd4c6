# Every rank adds its FP32, FP16 and INT32 rows into rank 0's windows with
# atomic puts (MPI_Accumulate(MPI_SUM) for FP32 / INT32, the compare-and-swap
# loop for FP16 under --transport=mpi), then notifies rank 0, which waits for
# all of them and copies the sums out. Integer-valued inputs make the sums
# independent of the order the adds land in, so both engines must agree bit
# for bit (tests/mpi/mpi_engine.py also checks them against numpy).
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class AtomicGather:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 16], pl.FP32], h: pl.Tensor[[4, 16], pl.FP16], i: pl.Tensor[[4, 16], pl.INT32],
               acc: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP32]], hacc: pl.InOut[pld.DistributedTensor[[4, 16], pl.FP16]],
               iacc: pl.InOut[pld.DistributedTensor[[4, 16], pl.INT32]], sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
               y: pl.Out[pl.Tensor[[4, 16], pl.FP32]], hy: pl.Out[pl.Tensor[[4, 16], pl.FP16]], iy: pl.Out[pl.Tensor[[4, 16], pl.INT32]]):
        ctx = pld.get_comm_ctx(acc)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        pld.tensor.put(acc, 0, x, atomic=pld.AtomicType.Add)
        pld.tensor.put(hacc, 0, h, atomic=pld.AtomicType.Add)
        pld.tensor.put(iacc, 0, i, atomic=pld.AtomicType.Add)
        pld.system.notify(sig, 0, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        if me == 0:
            pld.system.wait(sig, [0, 0], n, cmp=pld.WaitCmp.Ge)
            pld.system.notify(sig, 0, [0, 0], 0 - n, op=pld.NotifyOp.AtomicAdd)
        t = pl.load(acc, [0, 0], [4, 16])
        y = pl.store(t, [0, 0], y)
        ht = pl.load(hacc, [0, 0], [4, 16])
        hy = pl.store(ht, [0, 0], hy)
        it = pl.load(iacc, [0, 0], [4, 16])
        iy = pl.store(it, [0, 0], iy)
        return y, hy, iy

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 16], pl.FP32], h: pl.Tensor[[NR, 4, 16], pl.FP16], i: pl.Tensor[[NR, 4, 16], pl.INT32],
                  y: pl.Out[pl.Tensor[[NR, 4, 16], pl.FP32]], hy: pl.Out[pl.Tensor[[NR, 4, 16], pl.FP16]],
                  iy: pl.Out[pl.Tensor[[NR, 4, 16], pl.INT32]]):
        abuf = pld.alloc_window_buffer(4 * 16 * 4)
        hbuf = pld.alloc_window_buffer(4 * 16 * 2)
        ibuf = pld.alloc_window_buffer(4 * 16 * 4)
        sbuf = pld.alloc_window_buffer(4)
        acc = pld.window(abuf, [4, 16], dtype=pl.FP32)
        hacc = pld.window(hbuf, [4, 16], dtype=pl.FP16)
        iacc = pld.window(ibuf, [4, 16], dtype=pl.INT32)
        sig = pld.window(sbuf, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.kernel(x[r], h[r], i[r], acc, hacc, iacc, sig, y[r], hy[r], iy[r], device=r)
