# Publishing writes to a DistributedTensor (tile.store, pld.tile.get inside a
# single-statement loop body, tensor.write) get cacheinvalid(dst, shape, zeros)
# + fence; a store to a plain tensor gets nothing; remote writes
# (remote_store, put) get only a fence; wait gets cacheinvalid(); notify
# nothing. The second RUN feeds the output back: nothing more is inserted.
# RUN: pypto-opt %s --passes=insert-comm-fence --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=insert-comm-fence,insert-comm-fence --verify-each --roundtrip-each | FileCheck %s
# CHECK:      pl.tile.store(t, [0, 0], dst)
# CHECK-NEXT: pl.system.cacheinvalid(dst, [16, 64], [0, 0])
# CHECK-NEXT: pl.system.fence()
# CHECK-NEXT: pl.tile.store(t, [0, 0], loc)
# CHECK-NEXT: pld.tile.remote_store(t, dst, peer, [0, 0])
# CHECK-NEXT: pl.system.fence()
# CHECK-NEXT: stage: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT: pld.tile.put(dst, peer, src, stage, atomic=pld.AtomicType.None_)
# CHECK-NEXT: pl.system.fence()
# CHECK-NEXT: pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: pl.system.cacheinvalid()
# CHECK-NEXT: for i in pl.range(2):
# CHECK-NEXT:     pld.tile.get(dst, peer, dst, stage)
# CHECK-NEXT:     pl.system.cacheinvalid(dst, [16, 64], [0, 0])
# CHECK-NEXT:     pl.system.fence()
# CHECK-NEXT: pl.tensor.write(dst, [0, 0], 1.0)
# CHECK-NEXT: pl.system.cacheinvalid(dst, [16, 64], [0, 0])
# CHECK-NEXT: pl.system.fence()
# CHECK-NEXT: return
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Fence:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], loc: pl.Out[pl.Tensor[[16, 64], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]], peer: pl.Scalar[pl.INT32]):
        t = pl.tile.load(src, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [0, 0], dst)
        pl.tile.store(t, [0, 0], loc)
        pld.tile.remote_store(t, dst, peer, [0, 0])
        stage = pl.tile.create([16, 64], dtype=pl.FP32, target_memory=pl.Mem.Vec)
        pld.tile.put(dst, peer, src, stage, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        for i in pl.range(2):
            pld.tile.get(dst, peer, dst, stage)
        pl.tensor.write(dst, [0, 0], pl.const(1.0, pl.FP32))
        return
