# pld.system.wait reads its OWN slot: a local partition view (no peer
# arithmetic) and twait with the cmp attr; the expected value is cast to i32.
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK-LABEL: func.func @kernel(%arg0: !pto.ptr<i32>, %arg1: !pto.ptr<i64>)
# CHECK-NOT:      pto.load_scalar
# CHECK:          %signal_local_pview = pto.partition_view %signal_view, offsets = [%c3_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT:     pto.comm.twait(%signal_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# CHECK-NEXT:     %signal_local_pview_1 = pto.partition_view %signal_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index]
# CHECK-NEXT:     pto.comm.twait(%signal_local_pview_1, %c2_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp eq>}
# CHECK-NEXT:     return
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Wait:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, signal: pld.DistributedTensor[[4, 4], pl.INT32], signal_ctx: pld.CommCtx):
        pld.system.wait(signal, [3, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.wait(signal, [0, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Eq)
        return
