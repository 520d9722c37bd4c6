# pld.tile.put / pld.tile.get (ConvertTensorToTileOps output): one or two Vec stages, with and without a region; printed IR parses back.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: pld.tile.put(w16, peer, x, ping)
# CHECK: pld.tile.put(w16, peer, x, ping, pong, atomic=pld.AtomicType.Add)
# CHECK: pld.tile.put(win, peer, x, ping, [16, 0], [0, 0], [16, 64])
# CHECK: pld.tile.get(x, peer, win, ping, pong, [0, 0], [16, 0], [16, 64])
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class TilePutGet:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.InOut[pl.Tensor[[16, 64], pl.FP32]], win: pl.InOut[pld.DistributedTensor[[32, 64], pl.FP32]], w16: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], peer: pl.Scalar[pl.INT32]):
        ping = pl.tile.create([4, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pong = pl.tile.create([4, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(w16, peer, x, ping)
        pld.tile.put(w16, peer, x, ping, pong, atomic=pld.AtomicType.Add)
        pld.tile.put(win, peer, x, ping, [16, 0], [0, 0], [16, 64])
        pld.tile.get(x, peer, win, ping, pong, [0, 0], [16, 0], [16, 64])
        return
