# Window ops verifier: positive sizes, shape form needs dtype, window needs a Ptr and positive dims, get_comm_ctx needs a window, rank needs a CommCtx.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadWindow:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[16], pl.FP32], n: pl.Scalar[pl.INT64]):
        # CHECK: window_errors.pir:[[@LINE+1]]:37: error: pld.tensor.alloc_window_buffer: argument 'size' is 0 bytes; a window buffer needs a positive size
        a = pld.alloc_window_buffer(0)
        # CHECK: window_errors.pir:[[@LINE+1]]:37: error: pld.tensor.alloc_window_buffer: argument 'size' is a shape, which needs an element type: pass dtype=pl.FP32 (or give the size in bytes)
        b = pld.alloc_window_buffer([16, 64])
        # CHECK: window_errors.pir:[[@LINE+1]]:24: error: pld.tensor.window: argument 'buf' must be a pl.Ptr returned by pld.tensor.alloc_window_buffer, got pl.Scalar[pl.INT64]
        c = pld.window(n, [16], dtype=pl.FP32)
        buf = pld.alloc_window_buffer(64)
        # CHECK: window_errors.pir:[[@LINE+1]]:29: error: pld.tensor.window: argument 'shape' element 1 is 0; window dimensions must be positive
        d = pld.window(buf, [16, 0], dtype=pl.FP32)
        # CHECK: window_errors.pir:[[@LINE+1]]:30: error: pld.system.get_comm_ctx: argument 'dist_tensor' must be a pld.DistributedTensor (window-bound), got pl.Tensor{{\[\[}}16], pl.FP32]
        e = pld.get_comm_ctx(x)
        # CHECK-NOT: error
        return
