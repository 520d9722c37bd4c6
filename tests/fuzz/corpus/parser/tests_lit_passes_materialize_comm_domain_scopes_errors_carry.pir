# materialize-comm-domain-scopes: a loop whose carried window view enters as a
# view of one allocation but yields a view of another cannot be bound.
# RUN: not pypto-opt %s --passes=materialize-comm-domain-scopes 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class CarryError:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        a_buf = pld.tensor.alloc_window_buffer(4096)
        a = pld.tensor.window(a_buf, [16, 64], dtype=pl.FP32)
        b_buf = pld.tensor.alloc_window_buffer(4096)
        b = pld.tensor.window(b_buf, [16, 64], dtype=pl.FP32)
        self.chip(a, device=0)
        self.chip(b, device=0)
        for i, (carry,) in pl.range(2, init_values=(a,)):
            # CHECK: errors_carry.pir:[[@LINE+1]]:13: error: loop-carried 'carry' enters the loop as a view of window 'a_buf' but the loop yields a view of window 'b_buf'; a carried window view must stay on one allocation
            carry_out = pl.yield_(b)
        # CHECK-NOT: error
