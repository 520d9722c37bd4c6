# End-to-end kernel 3: subregion put. Every rank copies the 8x32 block at
# [8, 32] of its source into its right neighbour's window at [4, 16]
# (pld.tensor.put with dst_offsets/src_offsets/shape), then notify/wait/consume.
# Expected: y[r] = 0 except y[r][4:12, 16:48] = x[r-1][8:16, 32:64].
# Checked: an 8x32 staging tile, offset partition views on both sides and the
# tput/barrier/cacheinvalid/fence sequence; verify/round trip; exact results on
# P = 2 and 4 for the source program.
# Also exact results for the --pipeline=default output (7-argument pld.tile.put).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each > /dev/null
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: %python -c "import numpy as np; np.save('%t.d/x2.npy', (np.arange(2 * 16 * 64) - 1000).astype(np.float32).reshape(2, 16, 64))"
# RUN: %python -c "import numpy as np; np.save('%t.d/x4.npy', (np.arange(4 * 16 * 64) - 2000).astype(np.float32).reshape(4, 16, 64))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.pad(np.roll(x, 1, 0)[:, 8:16, 32:64], ((0, 0), (4, 4), (16, 16))); sys.exit(0 if np.array_equal(np.load('%t.d/s2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.pad(np.roll(x, 1, 0)[:, 8:16, 32:64], ((0, 0), (4, 4), (16, 16))); sys.exit(0 if np.array_equal(np.load('%t.d/s4/y.npy'), e) else 1)"
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.pad(np.roll(x, 1, 0)[:, 8:16, 32:64], ((0, 0), (4, 4), (16, 16))); sys.exit(0 if np.array_equal(np.load('%t.d/l2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.pad(np.roll(x, 1, 0)[:, 8:16, 32:64], ((0, 0), (4, 4), (16, 16))); sys.exit(0 if np.array_equal(np.load('%t.d/l4/y.npy'), e) else 1)"
#
# CHECK:      func.func @subregion_kernel(
# CHECK:      %tput_stage = pto.alloc_tile addr = %c{{[0-9]+}}_i64 : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=32, v_row=8, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
# CHECK:      %[[PP:[0-9]+]] = pto.addptr %arg1, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK-NEXT: %[[PV:[0-9]+]] = pto.make_tensor_view %[[PP]], shape = [%c16_index, %c64_index], strides = [%c64_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf32>
# CHECK-NEXT: %inbox_peer_pview = pto.partition_view %[[PV]], offsets = [%c4_index, %c16_index], sizes = [%c8_index, %c32_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x32xf32>
# CHECK-NEXT: %src_local_pview = pto.partition_view %src_view, offsets = [%c8_index, %c32_index], sizes = [%c8_index, %c32_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x32xf32>
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tput(%inbox_peer_pview, %src_local_pview, buf(%tput_stage) : !pto.partition_tensor_view<8x32xf32>, !pto.partition_tensor_view<8x32xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=32, v_row=8, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {atomicType = #pto<atomic_type atomic_none>}
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.cmo.cacheinvalid %inbox_peer_pview single_cache_line : !pto.partition_tensor_view<8x32xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK:      %signal_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK-NEXT: %signal_local_pview = pto.partition_view %signal_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT: pto.comm.twait(%signal_local_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# CHECK-NEXT: pto.cmo.cacheinvalid all #pto.address_space<gm>
# CHECK:      pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_pview_1, %cn1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK-NEXT: %t_pview = pto.partition_view %inbox_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.tload ins(%t_pview : !pto.partition_tensor_view<16x64xf32>) outs(%t : !pto.tile_buf<{{.*}}>)
# CHECK:      pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%out_pview : !pto.partition_tensor_view<16x64xf32>){{$}}
# CHECK-NEXT: return
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class SubregionPut:
    @pl.function(type=pl.FunctionType.InCore)
    def subregion_kernel(self, src: pl.Tensor[[16, 64], pl.FP32],
                         inbox: pld.DistributedTensor[[16, 64], pl.FP32],
                         signal: pld.DistributedTensor[[1, 1], pl.INT32],
                         out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        ctx = pld.get_comm_ctx(inbox)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        pld.tensor.put(inbox, right, src, [4, 16], [8, 32], [8, 32], atomic=pld.AtomicType.None_)
        pld.system.notify(signal, right, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.notify(signal, me, [0, 0], -1, op=pld.NotifyOp.AtomicAdd)
        t = pl.load(inbox, [0, 0], [16, 64])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[16, 64], pl.FP32],
             inbox: pld.DistributedTensor[[16, 64], pl.FP32],
             signal: pld.DistributedTensor[[1, 1], pl.INT32],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        out = self.subregion_kernel(src, inbox, signal, out)
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
