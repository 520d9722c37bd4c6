# pld.system.defer_wait: no twait; a checked flattened element offset (-1 when
# out of bounds), i64 casts, a call of the counter-completion adapter with the
# hidden raw-args parameter, and the adapter's private declaration.
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK:      func.func @waiter(%arg0: !pto.ptr<i32>, %arg1: index, %arg2: !pto.ptr<i64>, %__pypto_deferred_raw_args: !pto.ptr<i64>)
# CHECK-NOT:  pto.comm.twait
# CHECK:      func.call @pypto_register_counter_completion(%__pypto_deferred_raw_args, %arg0, %c10_i64, %c3_i64) : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()
# CHECK:      %[[GE:[0-9]+]] = arith.cmpi sge, %arg1, %c0_index : index
# CHECK-NEXT: %[[LT:[0-9]+]] = arith.cmpi slt, %arg1, %c4_index : index
# CHECK-NEXT: %[[OK:[0-9]+]] = arith.andi %[[GE]], %[[LT]] : i1
# CHECK-NEXT: %[[M:[0-9]+]] = arith.muli %arg1, %c8_index : index
# CHECK-NEXT: %[[S:[0-9]+]] = arith.select %[[OK]], %[[M]], %cn1_index : index
# CHECK-NEXT: %[[O:[0-9]+]] = arith.index_cast %[[S]] : index to i64
# CHECK-NEXT: func.call @pypto_register_counter_completion(%__pypto_deferred_raw_args, %arg0, %[[O]], %c1_i64)
# CHECK:      func.func private @pypto_register_counter_completion(!pto.ptr<i64>, !pto.ptr<i32>, i64, i64)
# CHECK-NEXT: }
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Deferred:
    @pl.function(type=pl.FunctionType.AIV)
    def waiter(self, counter: pld.DistributedTensor[[4, 8], pl.INT32], slot: pl.Scalar[pl.INDEX], counter_ctx: pld.CommCtx):
        pld.system.defer_wait(counter, [1, 2], pl.const(3, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.defer_wait(counter, [slot, 0], 1, cmp=pld.WaitCmp.Ge)
        return
