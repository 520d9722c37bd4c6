# lower-host-tensor-collectives alone on (hand-written) materialized IR: a view
# left unbound is reported, and so is all_to_all_v inside a loop (the check
# materialize-comm-domain-scopes makes is repeated here).
# RUN: not pypto-opt %s --passes=lower-host-tensor-collectives 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Materialized:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        with pld.comm_domain(name="comm_d0", devices=[], slots=["buf", "sbuf", "ibuf", "cbuf", "rbuf"]):
            buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
            data: pld.DistributedTensor[[8, 64], pl.FP32] = pld.tensor.window(buf, [8, 64], dtype=pl.FP32)
            sbuf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
            sig: pld.DistributedTensor[[4, 1], pl.INT32, "window_buffer=sbuf"] = pld.tensor.window(sbuf, [4, 1], dtype=pl.INT32)
            ibuf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)
            inp: pld.DistributedTensor[[8, 64], pl.FP32, "window_buffer=ibuf"] = pld.tensor.window(ibuf, [8, 64], dtype=pl.FP32)
            cbuf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
            cnt: pld.DistributedTensor[[4, 1], pl.INT32, "window_buffer=cbuf"] = pld.tensor.window(cbuf, [4, 1], dtype=pl.INT32)
            rbuf: pl.Ptr = pld.tensor.alloc_window_buffer(64)
            rc: pld.DistributedTensor[[4, 1], pl.INT32, "window_buffer=rbuf"] = pld.tensor.window(rbuf, [4, 1], dtype=pl.INT32)
            # CHECK: errors_materialized.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: argument 'target' is not bound to a window allocation; run materialize-comm-domain-scopes first
            pld.tensor.allreduce(data, sig)
            for i in pl.range(2):
                # CHECK: errors_materialized.pir:[[@LINE+1]]:17: error: pld.tensor.all_to_all_v: not supported inside a for/while loop of a host orchestrator (its single-use signal protocol cannot be reused across iterations); call it outside the loop
                pld.tensor.all_to_all_v(inp, data, sig, cnt, rc)
        # CHECK-NOT: error
