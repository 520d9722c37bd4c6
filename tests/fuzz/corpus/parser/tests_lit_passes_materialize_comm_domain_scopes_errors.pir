# materialize-comm-domain-scopes errors, each at the offending call: a dead
# allocation, an allocation whose domain cannot be inferred, device= that is
# neither a constant nor a pl.range loop variable, a non-unit step, a
# world_size loop not starting at 0, a collective on a window never
# dispatched, a barrier signal never dispatched, a collective operand that is
# not a window view of this function, all_to_all_v inside a loop, one Var
# holding views of two allocations (a loop carrying views of two allocations:
# errors_carry.pir).
# RUN: not pypto-opt %s --passes=materialize-comm-domain-scopes 2>&1 | FileCheck %s
# Exactly these errors (no follow-on reports for windows a collective already named):
# RUN: not pypto-opt %s --passes=materialize-comm-domain-scopes 2>&1 | grep -c "error:" | FileCheck %s --check-prefix=COUNT
# COUNT: 11
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class DomainErrors:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_sig(self, sig: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_v(self, a: pl.InOut[pld.DistributedTensor[[8, 64], pl.FP32]], b: pl.InOut[pld.DistributedTensor[[8, 64], pl.FP32]], s: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]], c: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]], d: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, n: pl.Scalar[pl.INDEX], ext: pld.DistributedTensor[[16, 64], pl.FP32]):
        # CHECK-DAG: errors.pir:[[@LINE+1]]:16: error: pld.tensor.alloc_window_buffer: window 'dead' is never viewed with pld.tensor.window (dead allocation); remove it or create a view
        dead = pld.tensor.alloc_window_buffer(64)
        # CHECK-DAG: errors.pir:[[@LINE+1]]:18: error: pld.tensor.alloc_window_buffer: no view of window 'lonely' is passed to a device dispatch (self.f(..., device=r)) or used with a dispatched window in a host collective, so its comm domain cannot be inferred
        lonely = pld.tensor.alloc_window_buffer(64)
        lv = pld.tensor.window(lonely, [4, 1], dtype=pl.INT32)
        buf = pld.tensor.alloc_window_buffer(4096)
        data = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        nd_buf = pld.tensor.alloc_window_buffer(4096)
        nd = pld.tensor.window(nd_buf, [16, 64], dtype=pl.FP32)
        sbuf = pld.tensor.alloc_window_buffer(64)
        sig = pld.tensor.window(sbuf, [4, 1], dtype=pl.INT32)
        bbuf = pld.tensor.alloc_window_buffer(64)
        bsig = pld.tensor.window(bbuf, [4, 1], dtype=pl.INT32)
        for r in pl.range(4):
            self.chip(data, device=r)
            # CHECK-DAG: errors.pir:[[@LINE+1]]:38: error: self.chip: device= must be an integer constant or the loop variable of an enclosing pl.range(N) / pl.range(pld.system.world_size()) loop, got 'r + 1'; the comm domain of the dispatched windows cannot be inferred otherwise
            self.chip(data, device=r + 1)
        for r in pl.range(0, 4, 2):
            # CHECK-DAG: errors.pir:[[@LINE+1]]:13: error: self.chip: device=r iterates a loop with step 2; comm-domain inference needs a unit-step pl.range loop
            self.chip(data, device=r)
        for r in pl.range(1, pld.system.world_size()):
            # CHECK-DAG: errors.pir:[[@LINE+1]]:13: error: self.chip: device=r iterates pl.range(1, pld.system.world_size()); a world_size loop must start at 0 (use pl.range(a, b) with constants for a device subset)
            self.chip(data, device=r)
        for r in pl.range(n):
            # CHECK-DAG: errors.pir:[[@LINE+1]]:13: error: self.chip: device=r iterates pl.range(0, n); comm-domain inference needs constant non-negative bounds or pl.range(pld.system.world_size())
            self.chip(data, device=r)
        # CHECK-DAG: errors.pir:[[@LINE+1]]:14: error: pld.tensor.allreduce: window 'nd_buf' is never passed to a device dispatch (self.f(..., device=r)), so the comm domain of the collective cannot be inferred; dispatch it to the participating devices
        nd = pld.tensor.allreduce(nd, sig)
        # CHECK-DAG: errors.pir:[[@LINE+1]]:9: error: pld.tensor.barrier: signal window 'bbuf' is never passed to a device dispatch (self.f(..., device=r)), so the devices taking part cannot be inferred; pass it to the dispatches of the participating ranks
        pld.tensor.barrier(bsig)
        # CHECK-DAG: errors.pir:[[@LINE+1]]:16: error: pld.tensor.allreduce: argument 'target' must be a pld.tensor.window view of a window buffer allocated in this host orchestrator, got 'ext'
        ext2 = pld.tensor.allreduce(ext, sig)
        vin_buf = pld.tensor.alloc_window_buffer(4096)
        vin = pld.tensor.window(vin_buf, [8, 64], dtype=pl.FP32)
        vout_buf = pld.tensor.alloc_window_buffer(4096)
        vout = pld.tensor.window(vout_buf, [8, 64], dtype=pl.FP32)
        vs_buf = pld.tensor.alloc_window_buffer(64)
        vs = pld.tensor.window(vs_buf, [4, 1], dtype=pl.INT32)
        vc_buf = pld.tensor.alloc_window_buffer(64)
        vc = pld.tensor.window(vc_buf, [4, 1], dtype=pl.INT32)
        vr_buf = pld.tensor.alloc_window_buffer(64)
        vr = pld.tensor.window(vr_buf, [4, 1], dtype=pl.INT32)
        self.chip_v(vin, vout, vs, vc, vr, device=0)
        for i in pl.range(2):
            # CHECK-DAG: errors.pir:[[@LINE+1]]:13: error: pld.tensor.all_to_all_v: not supported inside a for/while loop of a host orchestrator (its single-use signal protocol cannot be reused across iterations); call it outside the loop
            pld.tensor.all_to_all_v(vin, vout, vs, vc, vr)
        two_buf = pld.tensor.alloc_window_buffer(4096)
        twice = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        # CHECK-DAG: errors.pir:[[@LINE+1]]:9: error: 'twice' holds views of two window allocations ('buf' and 'two_buf'); a host Var must view one allocation (use separate names)
        twice = pld.tensor.window(two_buf, [16, 64], dtype=pl.FP32)
        self.chip(twice, device=0)
        tv = pld.tensor.window(two_buf, [16, 64], dtype=pl.FP32)
        self.chip(tv, device=0)
        # CHECK-NOT: error
