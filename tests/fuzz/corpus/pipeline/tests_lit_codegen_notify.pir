# pld.system.notify: inline CommContext peer arithmetic (slot 2 rank, windowsIn
# at slot 4, byte delta / element bytes), addptr + make_tensor_view, an all-ones
# partition, the value cast to i32, PIPE_ALL barrier, then tnotify with the op.
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK:      module attributes {pto.target_arch = "a2a3"} {
# CHECK-NEXT:   func.func @kernel(%arg0: !pto.ptr<i32>, %arg1: i32, %arg2: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
# CHECK:          %signal_view = pto.make_tensor_view %arg0, shape = [%c16_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xi32>
# CHECK-NEXT:     %0 = arith.index_cast %arg1 : i32 to index
# CHECK-NEXT:     %1 = pto.load_scalar %arg2[%c2_index] : !pto.ptr<i64> -> i64
# CHECK-NEXT:     %2 = arith.trunci %1 : i64 to i32
# CHECK-NEXT:     %3 = arith.index_cast %2 : i32 to index
# CHECK-NEXT:     %4 = arith.addi %c4_index, %3 : index
# CHECK-NEXT:     %5 = pto.load_scalar %arg2[%4] : !pto.ptr<i64> -> i64
# CHECK-NEXT:     %6 = arith.addi %c4_index, %0 : index
# CHECK-NEXT:     %7 = pto.load_scalar %arg2[%6] : !pto.ptr<i64> -> i64
# CHECK-NEXT:     %8 = arith.subi %7, %5 : i64
# CHECK-NEXT:     %9 = arith.divsi %8, %c4_i64 : i64
# CHECK-NEXT:     %10 = arith.index_cast %9 : i64 to index
# CHECK-NEXT:     %11 = pto.addptr %arg0, %10 : !pto.ptr<i32> -> !pto.ptr<i32>
# CHECK-NEXT:     %12 = pto.make_tensor_view %11, shape = [%c16_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xi32>
# CHECK-NEXT:     %signal_peer_pview = pto.partition_view %12, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT:     pto.barrier <PIPE_ALL>
# CHECK-NEXT:     pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
# CHECK-NEXT:     return
# CHECK-NEXT:   }
# CHECK-NEXT: }
# An atomic-add notify of a runtime INDEX value casts it to i32.
# CHECK:      func.func @add_kernel(%arg0: !pto.ptr<i32>, %arg1: i32, %arg2: index, %arg3: !pto.ptr<i64>)
# CHECK:          %[[V:[0-9]+]] = arith.index_cast %arg2 : index to i32
# CHECK-NEXT:     pto.barrier <PIPE_ALL>
# CHECK-NEXT:     pto.comm.tnotify(%signal_peer_pview, %[[V]] : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Notify:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, signal: pld.DistributedTensor[[16, 16], pl.INT32], peer: pl.Scalar[pl.INT32], signal_ctx: pld.CommCtx):
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.Set)
        return

    @pl.function(type=pl.FunctionType.AIV)
    def add_kernel(self, signal: pld.DistributedTensor[[16, 16], pl.INT32], peer: pl.Scalar[pl.INT32], v: pl.Scalar[pl.INDEX], signal_ctx: pld.CommCtx):
        pld.system.notify(signal, peer, [1, 2], v, op=pld.NotifyOp.AtomicAdd)
        return
