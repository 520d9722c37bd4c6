# pld.system.rank / nranks read CommContext slot 2 (nranks: the high 32 bits);
# get_comm_ctx emits nothing (it aliases the paired ctx param); system.fence and
# both forms of system.cacheinvalid.
# RUN: pypto-opt %s --emit=pto | FileCheck %s
# CHECK-LABEL: func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i64>)
# CHECK:          %0 = pto.load_scalar %arg1[%c2_index] : !pto.ptr<i64> -> i64
# CHECK-NEXT:     %1 = arith.trunci %0 : i64 to i32
# CHECK-NEXT:     %2 = pto.load_scalar %arg1[%c2_index] : !pto.ptr<i64> -> i64
# CHECK-NEXT:     %3 = arith.shrui %2, %c32_i64 : i64
# CHECK-NEXT:     %4 = arith.trunci %3 : i64 to i32
# CHECK-NEXT:     pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK-NEXT:     pto.cmo.cacheinvalid all #pto.address_space<gm>
# CHECK-NEXT:     %data_pview = pto.partition_view %data_view, offsets = [%c0_index, %c0_index], sizes = [%c4_index, %c8_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<4x8xf32>
# CHECK-NEXT:     pto.cmo.cacheinvalid %data_pview single_cache_line : !pto.partition_tensor_view<4x8xf32>
# CHECK-NEXT:     return
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class RankFence:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(self, data: pld.DistributedTensor[[8, 8], pl.FP32], data_ctx: pld.CommCtx):
        c = pld.system.get_comm_ctx(data)
        me = pld.system.rank(c)
        n = pld.system.nranks(c)
        pl.system.fence()
        pl.system.cacheinvalid()
        pl.system.cacheinvalid(data, [4, 8], [0, 0])
        return
