# A diagnostic spells a host window's non-constant dims as written
# (`pld.system.world_size()`), never as a node kind placeholder.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# CHECK: host_shape_spelling.pir:[[@LINE+14]]:43: error: pld.tensor.allgather: argument 'target' must be 2-D [NR, SIZE], got shape [pld.system.world_size()]
# CHECK-NOT: <Call>
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        data_buf = pld.alloc_window_buffer(pld.world_size() * 256)
        sig_buf = pld.alloc_window_buffer(pld.world_size() * 4)
        data = pld.window(data_buf, [pld.world_size(), 64], dtype=pl.FP32)
        signal = pld.window(sig_buf, [pld.world_size()], dtype=pl.INT32)
        data = pld.tensor.allgather(data, signal, signal)
