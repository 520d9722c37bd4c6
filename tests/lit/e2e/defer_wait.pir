# End-to-end kernel 8: a defer_wait waiter. Three host phases per rank: a sender
# kernel puts its block to the right neighbour and notifies it; a dedicated
# waiter task (a `with pl.at(level=pl.Level.CORE_GROUP):` scope, outlined to a
# marked waiter kernel) does only pld.system.defer_wait(signal, [0, 0], 1, Ge), so its
# task completes only once the credit has arrived; a drain kernel consumes the
# credit (self-notify of -1) and copies the received block out.
# Expected: y[r] = x[r-1].
# Checked: the sender's tput/fence/tnotify, the waiter's counter-completion call
# (no twait) and adapter declaration, the drain's consume + copy;
# verify/round trip; exact results on P = 2 and 4, before and after
# --pipeline=default.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each > /dev/null
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: %python -c "import numpy as np; np.save('%t.d/x2.npy', (np.arange(2 * 16 * 64) - 1000).astype(np.float32).reshape(2, 16, 64))"
# RUN: %python -c "import numpy as np; np.save('%t.d/x4.npy', (np.arange(4 * 16 * 64) - 2000).astype(np.float32).reshape(4, 16, 64))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.roll(x, 1, 0); sys.exit(0 if np.array_equal(np.load('%t.d/s2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.roll(x, 1, 0); sys.exit(0 if np.array_equal(np.load('%t.d/s4/y.npy'), e) else 1)"
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.roll(x, 1, 0); sys.exit(0 if np.array_equal(np.load('%t.d/l2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.roll(x, 1, 0); sys.exit(0 if np.array_equal(np.load('%t.d/l4/y.npy'), e) else 1)"
#
# CHECK:      func.func @send_kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i32>, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
# CHECK:      pto.comm.tput(%inbox_peer_pview, %src_local_pview, buf(%tput_stage) : !pto.partition_tensor_view<16x64xf32>, !pto.partition_tensor_view<16x64xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {atomicType = #pto<atomic_type atomic_none>}
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.cmo.cacheinvalid %inbox_peer_pview single_cache_line : !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK:      pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK-NEXT: return
# CHECK:      func.func @drain_kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<f32>, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
# CHECK-NOT:  pto.comm.twait
# CHECK:      pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_pview, %cn1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK-NEXT: %t_pview = pto.partition_view %inbox_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.tload ins(%t_pview : !pto.partition_tensor_view<16x64xf32>) outs(%t : !pto.tile_buf<{{.*}}>)
# CHECK:      pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%out_pview : !pto.partition_tensor_view<16x64xf32>){{$}}
# CHECK-NEXT: return
# CHECK:      func.func @waiter_incore_0(%arg0: !pto.ptr<i32>, %arg1: !pto.ptr<i64>, %__pypto_deferred_raw_args: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
# CHECK-NOT:  pto.comm.twait
# CHECK:      func.call @pypto_register_counter_completion(%__pypto_deferred_raw_args, %arg0, %c0_i64, %c1_i64) : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()
# CHECK-NEXT: return
# CHECK:      func.func private @pypto_register_counter_completion(!pto.ptr<i64>, !pto.ptr<i32>, i64, i64)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class DeferredWait:
    @pl.function(type=pl.FunctionType.InCore)
    def send_kernel(self, src: pl.Tensor[[16, 64], pl.FP32],
                    inbox: pld.DistributedTensor[[16, 64], pl.FP32],
                    signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        ctx = pld.get_comm_ctx(inbox)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        pld.tensor.put(inbox, right, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, right, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def drain_kernel(self, inbox: pld.DistributedTensor[[16, 64], pl.FP32],
                     signal: pld.DistributedTensor[[1, 1], pl.INT32],
                     out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        ctx = pld.get_comm_ctx(signal)
        me = pld.rank(ctx)
        pld.system.notify(signal, me, [0, 0], -1, op=pld.NotifyOp.AtomicAdd)
        t = pl.load(inbox, [0, 0], [16, 64])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def send(self, src: pl.Tensor[[16, 64], pl.FP32],
             inbox: pld.DistributedTensor[[16, 64], pl.FP32],
             signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        self.send_kernel(src, inbox, signal)

    @pl.function(type=pl.FunctionType.Orchestration)
    def waiter(self, signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        with pl.at(level=pl.Level.CORE_GROUP):
            pld.system.defer_wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.Orchestration)
    def drain(self, inbox: pld.DistributedTensor[[16, 64], pl.FP32],
              signal: pld.DistributedTensor[[1, 1], pl.INT32],
              out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        out = self.drain_kernel(inbox, signal, out)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32],
                  y: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP32]]):
        inbox_buf = pld.alloc_window_buffer(16 * 64 * 4)
        signal_buf = pld.alloc_window_buffer(4)
        inbox = pld.window(inbox_buf, [16, 64], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.send(x[r], inbox, signal, device=r)
        for r in pl.range(pld.world_size()):
            self.waiter(signal, device=r)
        for r in pl.range(pld.world_size()):
            self.drain(inbox, signal, y[r], device=r)
