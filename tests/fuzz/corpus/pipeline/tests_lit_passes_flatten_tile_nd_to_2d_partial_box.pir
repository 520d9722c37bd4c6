# A flattened load needs its valid box to be a run of whole rows of the 2-D
# tile. A merged inner dim that is only partly valid ([2, 2, 64] valid in a
# [2, 4, 64] window: rows 0-1 and 4-5 of the [8, 64] tile) is reported as not
# supported at the load (exit 1); so is the same box on a remote_load.
# RUN: %python %S/../../tools/Inputs/expect_exit.py 1 pypto-opt %s --passes=flatten-tile-nd-to-2d 2>&1 | FileCheck %s
# CHECK: partial_box.pir:[[@LINE+10]]:13: error: flatten-tile-nd-to-2d: not supported after flattening: tile.load: keyword 'tile_2d' cannot flatten the valid box [2, 2, 64] of the [2, 4, 64] window: it is not a run of whole rows of the 2-D tile (a merged inner dim is partly valid); load it as an N-D tile
# CHECK: partial_box.pir:[[@LINE+14]]:13: error: flatten-tile-nd-to-2d: not supported after flattening: pld.tile.remote_load: keyword 'tile_2d' cannot flatten the valid box [2, 3, 64] of the [2, 4, 64] window: it is not a run of whole rows of the 2-D tile (a merged inner dim is partly valid); read it as an N-D tile
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class PartialBox:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[8, 4, 64], pl.FP32]):
        t = pl.tile.load(a, [0, 0, 0], [2, 4, 64], [2, 2, 64], target_memory=pl.Mem.Vec)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def remote(self, w: pld.DistributedTensor[[8, 4, 64], pl.FP32], peer: pl.Scalar[pl.INT32]):
        t = pld.tile.remote_load(w, peer, [0, 0, 0], [2, 4, 64], [2, 3, 64])
        return
