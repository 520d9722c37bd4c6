# pld.tile.remote_store and pld.tensor.remote_store: plain and atomic-add pushes, N-D targets; pld.remote_store dispatches on the source level.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: pld.tile.remote_store(t, win, peer, [3, 16, 0])
# CHECK: pld.tile.remote_store(t, w2, peer, [0, 0], atomic=pld.AtomicType.Add)
# CHECK: pld.tensor.remote_store(x, w2, peer, [16, 0])
# CHECK: pld.tensor.remote_store(x, w2, peer, [0, 0])
# CHECK: pld.tile.remote_store(t, w2, peer, [0, 0])
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RemoteStore:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32], win: pl.InOut[pld.DistributedTensor[[4, 32, 64], pl.FP32]], w2: pl.InOut[pld.DistributedTensor[[32, 64], pl.FP32]], peer: pl.Scalar[pl.INT32]):
        t = pl.tile.load(x, [0, 0], [16, 64])
        pld.tile.remote_store(t, win, peer, [3, 16, 0])
        pld.tile.remote_store(t, w2, peer, [0, 0], atomic=pld.AtomicType.Add)
        pld.tensor.remote_store(x, w2, peer, [16, 0])
        pld.remote_store(x, w2, peer, [0, 0])
        pld.remote_store(t, w2, peer, [0, 0])
        return
