# lower-l2-tensor-collectives: pld.tensor.* collectives in a CHIP orchestration
# become a call of a synthesized kernel <parent>_<collective>_<n> (one param per
# operand, InOut where the op writes) that is already lowered by the kernel passes
# before this one (lower-composite-ops recipe, typed AIV); `x = coll(...)` re-binds
# x to the result operand after the call.
# RUN: pypto-opt %s --passes=lower-l2-tensor-collectives --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=lower-l2-tensor-collectives,lower-l2-tensor-collectives --verify-each --roundtrip-each | FileCheck %s
# Differential runs before/after the pass (the executor runs the collective in
# the orchestration as a whole operation before; the AIV kernel's primitives
# after), exact outputs, --check-signals, --detect-races:
# RUN: rm -rf %t.d
# RUN: %python %S/../lower_composite_ops/Inputs/run_collective.py allgather %S/Inputs/gather_prog.txt %t.d/ag --n 17 --ranks 1,2,3,4,8 --seeds 1 --passes lower-l2-tensor-collectives | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../lower_composite_ops/Inputs/run_collective.py all_to_all %S/Inputs/gather_prog.txt %t.d/aa --n 40 --dtype FP16 --ranks 1,2,3,4,8 --passes lower-l2-tensor-collectives | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../lower_composite_ops/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/ar --n 33 --ranks 1,2,3,4,8 --seeds 1 --passes lower-l2-tensor-collectives | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../lower_composite_ops/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/armax --n 5000 --op Max --ranks 1,2,3,4,8 --passes lower-l2-tensor-collectives | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../lower_composite_ops/Inputs/run_all_to_all_v.py %S/Inputs/aav_prog.txt %t.d/aav --n 16 --mr 3 --seeds 1 --passes lower-l2-tensor-collectives | FileCheck %s --check-prefix=DIFF
# The whole default pipeline (ctx threading, fences) keeps the results:
# RUN: %python %S/../lower_composite_ops/Inputs/run_collective.py allreduce %S/Inputs/allreduce_prog.txt %t.d/arp --n 33 --ranks 1,2,3,4,8 --pipeline default | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/../lower_composite_ops/Inputs/run_collective.py all_to_all %S/Inputs/gather_prog.txt %t.d/aap --n 17 --ranks 1,2,3,4,8 --pipeline default | FileCheck %s --check-prefix=DIFF
# DIFF-DAG: before P=1 parallel: OK
# DIFF-DAG: after P=1 parallel: OK
# DIFF-DAG: after P=2 parallel: OK
# DIFF-DAG: after P=3 parallel: OK
# DIFF-DAG: after P=4 parallel: OK
# DIFF-DAG: before P=8 parallel: OK
# DIFF-DAG: after P=8 parallel: OK
# DIFF: FAILURES 0

# The synthesized kernels emit as PTO (default pipeline):
# RUN: rm -rf %t.pto && pypto-opt %s --pipeline=default --emit=pto -o %t.pto 2>/dev/null && cat %t.pto/chip_barrier_0.pto %t.pto/chip_all_to_all_v_0.pto | FileCheck %s --check-prefix=EMIT
# EMIT-LABEL: func.func @chip_barrier_0(
# EMIT: pto.comm.tnotify(%sig_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# EMIT: pto.comm.twait(%sig_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# EMIT-LABEL: func.func @chip_all_to_all_v_0(
# EMIT: pto.comm.tnotify(%rc_peer_pview, %{{.*}} : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
# EMIT: pto.comm.tput(%data_peer_pview, %x_local_pview, buf(%aav_stage) : !pto.partition_tensor_view<?x?xf32>

# CHECK-LABEL: @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def chip_barrier_0(self, sig: pl.InOut[pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32]]):
# CHECK-NEXT: comm_ctx: pld.CommCtx = pld.system.get_comm_ctx(sig)
# CHECK: pld.system.wait(sig, [src, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK: pld.system.notify(sig, my_rank_idx, [reset_src, 0], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: return
# CHECK: @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def chip_all_to_all_v_0(self, x: pl.Tensor{{\[\[}}24, 16], pl.FP32], data: pl.InOut[pld.DistributedTensor{{\[\[}}24, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32]], counts: pl.Tensor{{\[\[}}NR], pl.INT32], rc: pl.InOut[pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32]]):
# CHECK: max_recv: pl.Scalar[pl.INDEX] = 24 // nranks_idx
# CHECK: pld.system.notify(rc, dest, [my_rank_idx, 0], pl.cast(send_rows, pl.INT32), op=pld.NotifyOp.Set)
# CHECK: pld.tile.put(data, dest, x, aav_stage_v, [my_rank_idx * max_recv, aav_col], [dest * max_recv, aav_col], [send_rows, aav_valid], atomic=pld.AtomicType.None_)
# CHECK: @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT: def chip_barrier_1(self, sig: pl.InOut[pld.DistributedTensor{{\[\[}}NR, 1], pl.INT32]]):
# CHECK: @pl.function(type=pl.FunctionType.Orchestration)
# CHECK-NEXT: def chip(
# CHECK-NEXT: self.chip_barrier_0(sig)
# CHECK-NEXT: self.chip_all_to_all_v_0(x, data, sig, counts, rc)
# CHECK-NEXT: out: pld.DistributedTensor{{\[\[}}24, 16], pl.FP32] = data
# CHECK-NEXT: self.use(out)
# CHECK-NEXT: self.chip_barrier_1(sig)
# CHECK-NOT: pld.tensor.
# CHECK-LABEL: def host_orch(
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class L2Collectives:
    @pl.function(type=pl.FunctionType.InCore)
    def use(self, data: pld.DistributedTensor[[24, 16], pl.FP32]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[24, 16], pl.FP32], counts: pl.Tensor[[NR], pl.INT32], data: pl.InOut[pld.DistributedTensor[[24, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.barrier(sig)
        out = pld.tensor.all_to_all_v(x, data, sig, counts, rc)
        self.use(out)
        pld.tensor.barrier(sig)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        return
