# synthesize-allreduce-signals: a host-orchestrator pld.tensor.allreduce without
# a signal gets a private INT32 [world_size, core_num] window bound right before
# it (world_size bound once, used in the byte size and the shape). Names
# __allreduce_signal{_world_size,_buf,}_<k> count program-wide and skip names
# already taken (here k = 0 is used by the program). Explicit signals (also in
# loops), kernels and other functions are untouched; a returned allreduce is
# bound to __allreduce_result_<k> first. Idempotent.
# RUN: pypto-opt %s --passes=synthesize-allreduce-signals --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=synthesize-allreduce-signals,synthesize-allreduce-signals --verify-each --roundtrip-each | FileCheck %s
# The pipeline runs it (no "not implemented" warning); the signal-less kernel
# allreduce is then lower-composite-ops' error:
# RUN: not pypto-opt %s --pipeline=default --verify-each --roundtrip-each 2>&1 >/dev/null | FileCheck %s --check-prefix=PIPE
# PIPE-NOT: synthesize-allreduce-signals
# PIPE: synthesize.pir:[[@LINE+36]]:9: error: pld.tensor.allreduce: an InCore allreduce needs an explicit signal (only host-orchestrator calls get one synthesized)
# PIPE-NOT: synthesize-allreduce-signals
# PIPE-NOT: materialize-comm-domain-scopes
# PIPE-NOT: lower-host-tensor-collectives

# CHECK-LABEL: def kernel(
# CHECK: pld.tensor.allreduce(data)
# CHECK-LABEL: def host_orch(
# CHECK: __allreduce_signal_world_size_0: pl.Scalar[pl.INT64] = pld.system.world_size()
# CHECK: __allreduce_signal_world_size_1: pl.Scalar[pl.INT64] = pld.system.world_size()
# CHECK-NEXT: __allreduce_signal_buf_1: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_1 * 4)
# CHECK-NEXT: __allreduce_signal_1: pld.DistributedTensor{{\[\[}}__allreduce_signal_world_size_1, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_1, [__allreduce_signal_world_size_1, 1], dtype=pl.INT32)
# CHECK-NEXT: data: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32] = pld.tensor.allreduce(data, __allreduce_signal_1, op=pld.ReduceOp.Max)
# CHECK-NEXT: __allreduce_signal_world_size_2: pl.Scalar[pl.INT64] = pld.system.world_size()
# CHECK-NEXT: __allreduce_signal_buf_2: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_2 * 4 * 4)
# CHECK-NEXT: __allreduce_signal_2: pld.DistributedTensor{{\[\[}}__allreduce_signal_world_size_2, 4], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_2, [__allreduce_signal_world_size_2, 4], dtype=pl.INT32)
# CHECK-NEXT: pld.tensor.allreduce(data, __allreduce_signal_2, core_num=4)
# CHECK: for i in pl.range(3):
# CHECK-NEXT: data: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32] = pld.tensor.allreduce(data, sig)
# CHECK-LABEL: def host_ret(
# CHECK: __allreduce_signal_world_size_3: pl.Scalar[pl.INT64] = pld.system.world_size()
# CHECK-NEXT: __allreduce_signal_buf_3: pl.Ptr = pld.tensor.alloc_window_buffer(__allreduce_signal_world_size_3 * 4)
# CHECK-NEXT: __allreduce_signal_3: pld.DistributedTensor{{\[\[}}__allreduce_signal_world_size_3, 1], pl.INT32] = pld.tensor.window(__allreduce_signal_buf_3, [__allreduce_signal_world_size_3, 1], dtype=pl.INT32)
# CHECK-NEXT: __allreduce_result_4: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32] = pld.tensor.allreduce(d, __allreduce_signal_3)
# CHECK-NEXT: return __allreduce_result_4
# CHECK-NOT: __allreduce_signal_5
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Synth:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        data = pld.tensor.allreduce(data)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_d(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        buf = pld.tensor.alloc_window_buffer(4096)
        data = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        sbuf = pld.tensor.alloc_window_buffer(64)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        __allreduce_signal_world_size_0 = pld.system.world_size()
        for r in pl.range(pld.system.world_size()):
            self.chip(data, sig, device=r)
        data = pld.tensor.allreduce(data, op=pld.ReduceOp.Max)
        pld.tensor.allreduce(data, core_num=4)
        for i in pl.range(3):
            data = pld.tensor.allreduce(data, sig)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_ret(self) -> pld.DistributedTensor[[16, 64], pl.FP32]:
        dbuf = pld.tensor.alloc_window_buffer(4096)
        d = pld.tensor.window(dbuf, [16, 64], dtype=pl.FP32)
        for r in pl.range(pld.system.world_size()):
            self.chip_d(d, device=r)
        return pld.tensor.allreduce(d)
