# pld.tile.remote_load: full tile, ragged-tail valid_shape, DN source (col_major result); result type printed canonically.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: t: pl.Tile{{\[\[}}16, 128], pl.FP32] = pld.tile.remote_load(win, peer, [0, 0], [16, 128])
# CHECK: pld.tile.remote_load(win, peer, [56, 0], [16, 128], [8, 128])
# CHECK: pld.tile.remote_load(dn, peer, [0, 0], [16, 128])
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RemoteLoad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, win: pl.InOut[pld.DistributedTensor[[64, 128], pl.FP32]], dn: pld.DistributedTensor[[64, 128], pl.FP32, pl.TensorView(stride=[1, 64], layout=pl.TensorLayout.DN)], peer: pl.Scalar[pl.INT32]):
        t = pld.tile.remote_load(win, peer, [0, 0], [16, 128])
        tail = pld.tile.remote_load(win, peer, [56, 0], [16, 128], [8, 128])
        c = pld.tile.remote_load(dn, peer, [0, 0], [16, 128])
        k = pld.remote_load(win, peer, [16, 0], [16, 128])
        return
