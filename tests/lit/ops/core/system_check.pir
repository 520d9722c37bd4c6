# pl.system.check(cond[, values], msg=...): a run-time precondition. The
# deducer wants a BOOL condition, an index tuple of values and a non-empty msg
# (errors at file:line:col); the executor stops with msg (its {}s replaced by
# the values, in order) at the check's line, the emitter traps on the device
# (scf.if + pto.trap).
# RUN: not pypto-opt %S/Inputs/system_check_errors.txt 2>&1 | FileCheck %s --check-prefix=ERR
# RUN: not pypto-run %s --ranks 2 2>&1 | FileCheck %s --check-prefix=EXEC
# RUN: pypto-run %s --ranks 1
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# ERR: system_check_errors.txt:10:25: error: system.check: argument 'cond' must be a BOOL scalar (the condition that must hold), got pl.Scalar[pl.INDEX]
# ERR: system_check_errors.txt:11:29: error: system.check: argument 'values' must be a tuple of index expressions ([a, b, ...]), got pl.Scalar[pl.INDEX]
# ERR: system_check_errors.txt:12:33: error: system.check: keyword 'msg' must be a non-empty message
# EXEC: system_check.pir:[[@LINE+14]]:9: error: want 1 rank, got 2 (2 of 2) (on rank {{[01]}})
# PTO: scf.if %{{[0-9]+}} {
# PTO-NEXT: } else {
# PTO-NEXT: pto.trap
# PTO-NEXT: }
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Check:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pld.DistributedTensor[[4, 1], pl.INT32]):
        n = pl.cast(pld.nranks(pld.get_comm_ctx(sig)), pl.INDEX)
        pl.system.check(n == 1, [n, n, 2], msg="want 1 rank, got {} ({} of {})")
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        sbuf = pld.tensor.alloc_window_buffer(16)
        sig = pld.tensor.window(sbuf, [4, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.kernel(sig, device=r)
