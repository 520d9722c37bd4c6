# End-to-end kernel 2: atomic-add put reduce to root. Every rank atomically adds
# its 16x64 block into root 0's window (pld.tensor.put, atomic=Add); non-root
# ranks notify root and never wait; root (whose own add precedes its wait in
# program order) waits for P-1 credits (Ge), consumes them (self-notify of 1-P)
# and copies the sum out. Expected: y[0] = sum_r x[r], y[r>0] = 0.
# Checked: tput with atomic_add, the scf.if whose then-branch (non-root) holds
# only the notify and whose else-branch holds twait(P-1) + cacheinvalid, the
# P-1 consume and the copy; verify/round trip; exact results on P = 2 and 4,
# before and after --pipeline=default.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each > /dev/null
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: %python -c "import numpy as np; np.save('%t.d/x2.npy', (np.arange(2 * 16 * 64) - 1000).astype(np.float32).reshape(2, 16, 64))"
# RUN: %python -c "import numpy as np; np.save('%t.d/x4.npy', (np.arange(4 * 16 * 64) - 2000).astype(np.float32).reshape(4, 16, 64))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.concatenate([x.sum(0, keepdims=True), np.zeros_like(x[1:])]); sys.exit(0 if np.array_equal(np.load('%t.d/s2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.concatenate([x.sum(0, keepdims=True), np.zeros_like(x[1:])]); sys.exit(0 if np.array_equal(np.load('%t.d/s4/y.npy'), e) else 1)"
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x2.npy'); e = np.concatenate([x.sum(0, keepdims=True), np.zeros_like(x[1:])]); sys.exit(0 if np.array_equal(np.load('%t.d/l2/y.npy'), e) else 1)"
# RUN: %python -c "import numpy as np, sys; x = np.load('%t.d/x4.npy'); e = np.concatenate([x.sum(0, keepdims=True), np.zeros_like(x[1:])]); sys.exit(0 if np.array_equal(np.load('%t.d/l4/y.npy'), e) else 1)"
#
# CHECK:      func.func @reduce_kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i32>, %arg3: !pto.ptr<f32>, %arg4: !pto.ptr<i64>, %arg5: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
# CHECK:      %[[ME:[0-9]+]] = arith.trunci %{{[0-9]+}} : i64 to i32
# CHECK:      %[[N:[0-9]+]] = arith.trunci %{{[0-9]+}} : i64 to i32
# CHECK:      %[[PO:[0-9]+]] = arith.addi %c4_index, %c0_index : index
# CHECK-NEXT: = pto.load_scalar %arg4[%[[PO]]] : !pto.ptr<i64> -> i64
# CHECK:      = pto.addptr %arg1, %{{[0-9]+}} : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK:      %acc_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: %src_local_pview = pto.partition_view %src_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tput(%acc_peer_pview, %src_local_pview, buf(%tput_stage) : !pto.partition_tensor_view<16x64xf32>, !pto.partition_tensor_view<16x64xf32>, !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=64, v_row=16, v_col=64, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {atomicType = #pto<atomic_type atomic_add>}
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.cmo.cacheinvalid %acc_peer_pview single_cache_line : !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK-NEXT: %[[C:[0-9]+]] = arith.cmpi ne, %[[ME]], %c0_i32 : i32
# CHECK-NEXT: scf.if %[[C]] {
# CHECK-NOT:    pto.comm.twait
# CHECK:        %signal_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT:   pto.barrier <PIPE_ALL>
# CHECK-NEXT:   pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK-NEXT: } else {
# CHECK-NEXT:   %signal_local_pview = pto.partition_view %signal_view, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
# CHECK-NEXT:   %[[E:[0-9]+]] = arith.subi %[[N]], %c1_i32 : i32
# CHECK-NEXT:   pto.comm.twait(%signal_local_pview, %[[E]] : !pto.partition_tensor_view<1x1xi32>, i32) {cmp = #pto<wait_cmp ge>}
# CHECK-NEXT:   pto.cmo.cacheinvalid all #pto.address_space<gm>
# CHECK:        %[[K:[0-9]+]] = arith.subi %c1_i32, %[[N]] : i32
# CHECK-NEXT:   pto.barrier <PIPE_ALL>
# CHECK-NEXT:   pto.comm.tnotify(%signal_peer_pview_1, %[[K]] : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK-NEXT:   %t_pview = pto.partition_view %acc_view, offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
# CHECK-NEXT:   pto.tload ins(%t_pview : !pto.partition_tensor_view<16x64xf32>) outs(%t : !pto.tile_buf<{{.*}}>)
# CHECK:        pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%out_pview : !pto.partition_tensor_view<16x64xf32>){{$}}
# CHECK-NEXT: }
# CHECK-NEXT: return
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class ReduceToRoot:
    @pl.function(type=pl.FunctionType.InCore)
    def reduce_kernel(self, src: pl.Tensor[[16, 64], pl.FP32],
                      acc: pld.DistributedTensor[[16, 64], pl.FP32],
                      signal: pld.DistributedTensor[[1, 1], pl.INT32],
                      out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        ctx = pld.get_comm_ctx(acc)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        pld.tensor.put(acc, 0, src, atomic=pld.AtomicType.Add)
        if me != 0:
            pld.system.notify(signal, 0, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        else:
            pld.system.wait(signal, [0, 0], n - 1, cmp=pld.WaitCmp.Ge)
            pld.system.notify(signal, me, [0, 0], 1 - n, op=pld.NotifyOp.AtomicAdd)
            t = pl.load(acc, [0, 0], [16, 64])
            pl.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[16, 64], pl.FP32],
             acc: pld.DistributedTensor[[16, 64], pl.FP32],
             signal: pld.DistributedTensor[[1, 1], pl.INT32],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        self.reduce_kernel(src, acc, signal, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32],
                  y: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP32]]):
        acc_buf = pld.alloc_window_buffer(16 * 64 * 4)
        signal_buf = pld.alloc_window_buffer(4)
        acc = pld.window(acc_buf, [16, 64], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(x[r], acc, signal, y[r], device=r)
