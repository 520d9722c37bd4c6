# End-to-end kernel 5: get. Every rank stages its block in its own window
# (pl.load/pl.store), tells its left neighbour it is ready (AtomicAdd notify),
# waits for its right neighbour's readiness, consumes the credit and pulls the
# right neighbour's window into its local output (pld.tensor.get).
# Expected: y[r] = x[r+1].
# Checked: the window store + cacheinvalid + fence before the notify, the
# notify/wait/consume lines, the local dst / peer src partition views and
# tget with buf(...) and no attribute between two barriers; verify/round
# trip; exact results on P = 2 and 4, before and after --pipeline=default.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each > /dev/null
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: %python -c "import numpy as np; np.save('%t.d/x2.npy', (np.arange(2 * 16 * 64) - 1000).astype(np.float32).reshape(2, 16, 64))"
# RUN: %python -c "import numpy as np; np.save('%t.d/x4.npy', (np.arange(4 * 16 * 64) - 2000).astype(np.float32).reshape(4, 16, 64))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.roll(x, -1, 0); sys.exit(0 if np.array_equal(np.load('%t.d/s2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.roll(x, -1, 0); sys.exit(0 if np.array_equal(np.load('%t.d/s4/y.npy'), e) else 1)"
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.roll(x, -1, 0); sys.exit(0 if np.array_equal(np.load('%t.d/l2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.roll(x, -1, 0); sys.exit(0 if np.array_equal(np.load('%t.d/l4/y.npy'), e) else 1)"
#
# CHECK:      func.func @get_kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i32>, %arg3: !pto.ptr<f32>, %arg4: !pto.ptr<i64>, %arg5: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
# CHECK:      %tget_stage = pto.alloc_tile addr = %c{{[0-9]+}}_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK:      pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%win_pview : !pto.partition_tensor_view<16x64xf32>){{$}}
# CHECK-NEXT: %[[WV:win_pview_[0-9]+]] = pto.partition_view %win_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.cmo.cacheinvalid %[[WV]] single_cache_line : !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK:      %signal_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK-NEXT: %signal_local_pview = pto.partition_view %signal_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT: pto.comm.twait(%signal_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# CHECK-NEXT: pto.cmo.cacheinvalid all #pto.address_space<gm>
# CHECK:      pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_pview_1, %cn1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK:      %[[PP:[0-9]+]] = pto.addptr %arg1, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %[[PV:[0-9]+]] = pto.make_tensor_view %[[PP]], shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %out_local_pview = pto.partition_view %out_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: %win_peer_pview = pto.partition_view %[[PV]], offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tget(%out_local_pview, %win_peer_pview, buf(%tget_stage) : !pto.partition_tensor_view<16x64xf32>, !pto.partition_tensor_view<16x64xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>){{$}}
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: return
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingGet:
    @pl.function(type=pl.FunctionType.InCore)
    def get_kernel(self, src: pl.Tensor[[16, 64], pl.FP32],
                   win: pld.DistributedTensor[[16, 64], pl.FP32],
                   signal: pld.DistributedTensor[[1, 1], pl.INT32],
                   out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        ctx = pld.get_comm_ctx(win)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        left = (me + n - 1) % n
        t = pl.load(src, [0, 0], [16, 64])
        pl.store(t, [0, 0], win)
        pld.system.notify(signal, left, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.notify(signal, me, [0, 0], -1, op=pld.NotifyOp.AtomicAdd)
        pld.tensor.get(out, right, win)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[16, 64], pl.FP32],
             win: pld.DistributedTensor[[16, 64], pl.FP32],
             signal: pld.DistributedTensor[[1, 1], pl.INT32],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        out = self.get_kernel(src, win, signal, out)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32],
                  y: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP32]]):
        win_buf = pld.alloc_window_buffer(16 * 64 * 4)
        signal_buf = pld.alloc_window_buffer(4)
        win = pld.window(win_buf, [16, 64], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(x[r], win, signal, y[r], device=r)
