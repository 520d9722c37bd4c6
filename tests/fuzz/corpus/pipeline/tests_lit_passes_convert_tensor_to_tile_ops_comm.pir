# put/get get VEC staging tiles: rows = product of the leading transfer dims,
# cols = innermost, capped by chunk_rows/chunk_cols; pipeline=True gives
# ping/pong stages; chunk/pipeline kwargs are stripped (get forwards none).
# remote_store becomes pld.tile.remote_store; a GM src is bridged by a tile.load
# right before it, a converted value passes through. Directions follow the
# registry effects: put dst Out (InOut with atomic Add), get dst written +
# put src read -> InOut, atomic remote_store target InOut.
# RUN: pypto-opt %s --passes=convert-tensor-to-tile-ops --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def kernel(self, src: pl.Tensor{{\[\[}}4, 16, 64], pl.FP32], dst: pl.Out[pld.DistributedTensor{{\[\[}}4, 16, 64], pl.FP32]], big: pl.InOut[pld.DistributedTensor{{\[\[}}256, 512], pl.FP32]], loc: pl.InOut[pl.Tensor{{\[\[}}256, 512], pl.FP32]], x: pl.Tensor{{\[\[}}16, 64], pl.FP32], win: pl.InOut[pld.DistributedTensor{{\[\[}}16, 64], pl.FP32]], peer: pl.Scalar[pl.INT32]):
# CHECK-NEXT:     x_tile: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     tput_stage: pl.Tile{{\[\[}}64, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([64, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT:     pld.tile.put(dst, peer, src, tput_stage, atomic=pld.AtomicType.None_)
# CHECK-NEXT:     tput_stage_ping: pl.Tile{{\[\[}}64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.create([64, 128], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT:     tput_stage_pong: pl.Tile{{\[\[}}64, 128], pl.FP32, pl.Mem.Vec] = pl.tile.create([64, 128], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT:     pld.tile.put(big, peer, loc, tput_stage_ping, tput_stage_pong, atomic=pld.AtomicType.Add)
# CHECK-NEXT:     tget_stage: pl.Tile{{\[\[}}8, 256], pl.FP32, pl.Mem.Vec] = pl.tile.create([8, 256], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT:     pld.tile.get(loc, peer, big, tget_stage, [0, 0], [0, 0], [32, 256])
# CHECK-NEXT:     x_tile_1: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     pld.tile.remote_store(x_tile_1, win, peer, [0, 0])
# CHECK-NEXT:     y: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(x_tile, x_tile)
# CHECK-NEXT:     pld.tile.remote_store(y, win, peer, [0, 0], atomic=pld.AtomicType.Add)
# CHECK-NEXT:     return
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Comm:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 16, 64], pl.FP32], dst: pld.DistributedTensor[[4, 16, 64], pl.FP32], big: pld.DistributedTensor[[256, 512], pl.FP32], loc: pl.Tensor[[256, 512], pl.FP32], x: pl.Tensor[[16, 64], pl.FP32], win: pld.DistributedTensor[[16, 64], pl.FP32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.tensor.put(big, peer, loc, atomic=pld.AtomicType.Add, chunk_rows=64, chunk_cols=128, pipeline=True)
        pld.tensor.get(loc, peer, big, [0, 0], [0, 0], [32, 256], chunk_rows=8)
        pld.tensor.remote_store(x, win, peer, [0, 0])
        y = pl.tensor.add(x, x)
        pld.tensor.remote_store(y, win, peer, [0, 0], atomic=pld.AtomicType.Add)
        return
