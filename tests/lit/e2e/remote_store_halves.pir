# End-to-end kernel 6: remote_store of two half tiles with a Set notify. Every
# rank loads the top and bottom 8x64 halves of its block and stores them
# swapped into its right neighbour's 16x64 window (two pld.remote_store calls
# at [0, 0] and [8, 0]), signals with notify op=Set 1, waits Eq 1 and resets
# its cell with a self Set 0. Expected: y[r] = roll(x[r-1], 8 rows).
# Checked: two 8x64 tiles, each remote tstore into an offset 8x64 peer
# partition view followed by cacheinvalid + fence, tnotify set, twait eq,
# the Set-0 reset; verify/round trip; exact results on P = 2 and 4, before and
# after --pipeline=default.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each > /dev/null
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: %python -c "import numpy as np; np.save('%t.d/x2.npy', (np.arange(2 * 16 * 64) - 1000).astype(np.float32).reshape(2, 16, 64))"
# RUN: %python -c "import numpy as np; np.save('%t.d/x4.npy', (np.arange(4 * 16 * 64) - 2000).astype(np.float32).reshape(4, 16, 64))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.roll(np.roll(x, 1, 0), 8, 1); sys.exit(0 if np.array_equal(np.load('%t.d/s2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.roll(np.roll(x, 1, 0), 8, 1); sys.exit(0 if np.array_equal(np.load('%t.d/s4/y.npy'), e) else 1)"
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.roll(np.roll(x, 1, 0), 8, 1); sys.exit(0 if np.array_equal(np.load('%t.d/l2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.roll(np.roll(x, 1, 0), 8, 1); sys.exit(0 if np.array_equal(np.load('%t.d/l4/y.npy'), e) else 1)"
#
# CHECK:      func.func @halves_kernel(
# CHECK:      %top = pto.alloc_tile addr = %c{{[0-9]+}}_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=8, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK-NEXT: %bottom = pto.alloc_tile addr = %c{{[0-9]+}}_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=8, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK:      %top_pview = pto.partition_view %src_view, offsets = [%c0_index, %c0_index], sizes = [%c8_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x64xf32>
# CHECK-NEXT: pto.tload ins(%top_pview : !pto.partition_tensor_view<8x64xf32>) outs(%top : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=8, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
# CHECK-NEXT: %bottom_pview = pto.partition_view %src_view, offsets = [%c8_index, %c0_index], sizes = [%c8_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x64xf32>
# CHECK-NEXT: pto.tload ins(%bottom_pview : !pto.partition_tensor_view<8x64xf32>) outs(%bottom : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=8, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
# CHECK:      = pto.addptr %arg1, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK:      %inbox_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index], sizes = [%c8_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x64xf32>
# CHECK-NEXT: pto.tstore ins(%bottom : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=8, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%inbox_peer_pview : !pto.partition_tensor_view<8x64xf32>){{$}}
# CHECK-NEXT: pto.cmo.cacheinvalid %inbox_peer_pview single_cache_line : !pto.partition_tensor_view<8x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK:      = pto.addptr %arg1, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK:      %inbox_peer_pview_1 = pto.partition_view %{{[0-9]+}}, offsets = [%c8_index, %c0_index], sizes = [%c8_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x64xf32>
# CHECK-NEXT: pto.tstore ins(%top : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=64, v_row=8, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%inbox_peer_pview_1 : !pto.partition_tensor_view<8x64xf32>){{$}}
# CHECK-NEXT: pto.cmo.cacheinvalid %inbox_peer_pview_1 single_cache_line : !pto.partition_tensor_view<8x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK:      %signal_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
# CHECK-NEXT: %signal_local_pview = pto.partition_view %signal_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT: pto.comm.twait(%signal_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp eq>}
# CHECK-NEXT: pto.cmo.cacheinvalid all #pto.address_space<gm>
# CHECK:      pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_pview_1, %c0_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
# CHECK-NEXT: %t_pview = pto.partition_view %inbox_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.tload ins(%t_pview : !pto.partition_tensor_view<16x64xf32>) outs(%t : !pto.tile_buf<{{.*}}>)
# CHECK:      pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%out_pview : !pto.partition_tensor_view<16x64xf32>){{$}}
# CHECK-NEXT: return
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RemoteStoreHalves:
    @pl.function(type=pl.FunctionType.InCore)
    def halves_kernel(self, src: pl.Tensor[[16, 64], pl.FP32],
                      inbox: pld.DistributedTensor[[16, 64], pl.FP32],
                      signal: pld.DistributedTensor[[1, 1], pl.INT32],
                      out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        ctx = pld.get_comm_ctx(inbox)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        top = pl.load(src, [0, 0], [8, 64])
        bottom = pl.load(src, [8, 0], [8, 64])
        pld.remote_store(bottom, inbox, right, [0, 0])
        pld.remote_store(top, inbox, right, [8, 0])
        pld.system.notify(signal, right, [0, 0], 1, op=pld.NotifyOp.Set)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)
        pld.system.notify(signal, me, [0, 0], 0, op=pld.NotifyOp.Set)
        t = pl.load(inbox, [0, 0], [16, 64])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[16, 64], pl.FP32],
             inbox: pld.DistributedTensor[[16, 64], pl.FP32],
             signal: pld.DistributedTensor[[1, 1], pl.INT32],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        out = self.halves_kernel(src, inbox, signal, out)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32],
                  y: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP32]]):
        inbox_buf = pld.alloc_window_buffer(16 * 64 * 4)
        signal_buf = pld.alloc_window_buffer(4)
        inbox = pld.window(inbox_buf, [16, 64], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(x[r], inbox, signal, y[r], device=r)
