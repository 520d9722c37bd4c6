# RUN: pypto-opt %s > %t.1 && pypto-opt %t.1 > %t.2 && diff %t.1 %t.2
# RUN: FileCheck %s < %t.1
# The brief's canonical example: pld ops print bare with enums by name, core ops
# with the pl. prefix, self-calls with device=, alloc_window_buffer without name=.
# CHECK: # pypto.program: RingExchange
# CHECK-NEXT: import pypto.language as pl
# CHECK-NEXT: import pypto.language.distributed as pld
# CHECK-EMPTY:
# CHECK-NEXT: NR = pl.dynamic("NR")
# CHECK-EMPTY:
# CHECK-EMPTY:
# CHECK-NEXT: @pl.program
# CHECK-NEXT: class RingExchange:
# CHECK-NEXT:     @pl.function(type=pl.FunctionType.InCore)
# CHECK-NEXT:     def kernel(self, src: pl.Tensor{{\[\[}}16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor{{\[\[}}16, 64], pl.FP32]], signal: pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
# CHECK-NEXT:         pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
# CHECK-NEXT:         pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT:         pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK:              for i, (acc,) in pl.range(4, init_values=(t,)):
# CHECK-NEXT:             nxt: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
# CHECK-NEXT:             acc_out: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
# CHECK:              self.kernel(a, data, signal, peer, device=r)
# CHECK:              buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
# CHECK-NEXT:         data: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32] = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
# CHECK-NEXT:         for r in pl.range(pld.system.world_size()):
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], signal: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        for i, (acc,) in pl.range(0, 4, 1, init_values=(t,)):
            nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
            acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, a: pl.Tensor[[16, 64], pl.FP32], data: pld.DistributedTensor[[16, 64], pl.FP32], signal: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32], r: pl.Scalar[pl.INDEX]):
        self.kernel(a, data, signal, peer, device=r)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32], signal: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):
        buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
        data: pld.DistributedTensor[[16, 64], pl.FP32] = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], data, signal, peer, r, device=r)
