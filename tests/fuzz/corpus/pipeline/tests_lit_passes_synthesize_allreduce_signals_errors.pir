# synthesize-allreduce-signals errors: a signal-less host allreduce inside a
# for or while loop (the synthesized window cannot be allocated per
# iteration) and one nested inside another expression. (mode="ring" without a
# signal is already rejected by the pld.tensor.allreduce deducer.)
# RUN: not pypto-opt %s --passes=synthesize-allreduce-signals 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class SynthErrors:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        buf = pld.tensor.alloc_window_buffer(4096)
        data = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        for r in pl.range(pld.system.world_size()):
            self.chip(data, device=r)
        for i in pl.range(2):
            # CHECK: errors.pir:[[@LINE+1]]:20: error: pld.tensor.allreduce: omitting the signal is not supported inside a for/while loop of a host orchestrator (the synthesized signal window cannot be allocated per iteration); allocate an INT32 [world_size, 1] signal window before the loop and pass it as the second argument
            data = pld.tensor.allreduce(data)
        n = 0
        while n < 2:
            # CHECK: errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: omitting the signal is not supported inside a for/while loop
            pld.tensor.allreduce(data, op=pld.ReduceOp.Min)
            n = n + 1
        # CHECK: errors.pir:[[@LINE+1]]:19: error: pld.tensor.allreduce: a host allreduce without a signal must be the whole value of an assignment, an expression statement or a return value; bind it first (`x = pld.tensor.allreduce(x)`) or pass a signal window
        self.chip(pld.tensor.allreduce(data), device=0)
        # CHECK-NOT: error
