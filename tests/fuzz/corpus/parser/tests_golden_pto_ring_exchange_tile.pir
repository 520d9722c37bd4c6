# Golden input: the RingExchange kernel as it is after --pipeline=default
# (tile-level, explicit CommCtx params, dynamic NR); expected output in ring_exchange_tile.pto.
# pypto.program: RingExchange
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], peer: pl.Scalar[pl.INT32], dst_ctx: pld.CommCtx, signal_ctx: pld.CommCtx):
        tput_stage: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(dst, peer, src, tput_stage, atomic=pld.AtomicType.None_)
        pl.system.fence()
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        pl.system.cacheinvalid()
        t: pl.Tile[[16, 64], pl.FP32] = pl.tile.load(src, [0, 0], [16, 64])
        for i, (acc,) in pl.range(4, init_values=(t,)):
            nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
            acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
        return
