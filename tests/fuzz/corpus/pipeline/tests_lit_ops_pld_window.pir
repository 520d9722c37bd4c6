# Host window ops (alloc_window_buffer bytes and shape forms, window, world_size) and kernel communicator queries (get_comm_ctx, rank, nranks); short forms print canonically.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: ctx: pld.CommCtx = pld.system.get_comm_ctx(win)
# CHECK: me: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
# CHECK: n: pl.Scalar[pl.INT32] = pld.system.nranks(ctx)
# CHECK: ws: pl.Scalar[pl.INT64] = pld.system.world_size()
# CHECK: buf: pl.Ptr = pld.tensor.alloc_window_buffer(
# CHECK: sbuf: pl.Ptr = pld.tensor.alloc_window_buffer([ws, 1], dtype=pl.INT32)
# CHECK: data: pld.DistributedTensor{{\[\[}}16, 64], pl.FP32] = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Window:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, win: pld.DistributedTensor[[16, 64], pl.FP32]):
        ctx = pld.get_comm_ctx(win)
        me = pld.rank(ctx)
        n = pld.system.nranks(ctx)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, ):
        ws = pld.world_size()
        buf = pld.alloc_window_buffer(16 * 64 * 4)
        sbuf = pld.tensor.alloc_window_buffer([ws, 1], dtype=pl.INT32)
        data = pld.window(buf, [16, 64], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [ws, 1], dtype=pl.INT32)
        return
