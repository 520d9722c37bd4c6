# flatten-tile-nd-to-2d rebuilds N-D pld.tile.remote_load results: the call keeps
# its [1, 1, 0] / [2, 2, 16] window and its dynamic valid_shape [rows, 2, 16],
# gains tile_2d=True, and its Var is rebuilt as the 2-D tile [4, 16] with the
# merged valid shape [rows * 2, 16]. Partial N-D tile.load windows (offsets
# [2, 1, 0], extents [2, 2, 16]; and a dynamic valid [rows, 4, 16]) are
# flattened the same way; the stores keep their tensor-rank windows and gain
# `shapes`. The PTO module loads N-D partition views loaded into / stored from 2-D tiles
# (the dynamic valid rows un-merged back to `rows` for the store).
# Exact results on P = 2 and 4: before, after the pass alone, after --pipeline=default.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --passes=flatten-tile-nd-to-2d --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=PTO
# RUN: pypto-opt %s --passes=flatten-tile-nd-to-2d -o %t.d/flat.pir
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir 2>/dev/null
# RUN: %python -c "import numpy as np; np.save('%t.d/x2.npy', (np.arange(2 * 256) - 300).astype(np.float32).reshape(2, 4, 4, 16))"
# RUN: %python -c "import numpy as np; np.save('%t.d/x4.npy', (np.arange(4 * 256) - 600).astype(np.float32).reshape(4, 4, 4, 16))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: pypto-run %t.d/flat.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/f2 --check-signals --detect-races
# RUN: pypto-run %t.d/flat.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/f4 --check-signals --detect-races --schedule=random:5
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --check-signals --detect-races
# RUN: %python %S/Inputs/check_remote_load.py %t.d 2 s2 f2 l2
# RUN: %python %S/Inputs/check_remote_load.py %t.d 4 s4 f4 l4
#
# CHECK-LABEL: def kernel(
# CHECK:      t: pl.Tile{{\[\[}}16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0, 0], [4, 4, 16], target_memory=pl.Mem.Vec, tile_2d=True)
# CHECK-NEXT: pl.tile.store(t, [0, 0, 0], win, [4, 4, 16])
# CHECK:      r: pl.Tile{{\[\[}}4, 16], pl.FP32, pl.TileView(valid_shape=[rows * 2, 16])] = pld.tile.remote_load(win, right, [1, 1, 0], [2, 2, 16], [rows, 2, 16], tile_2d=True)
# CHECK-NEXT: rp: pl.Tile{{\[\[}}4, 16], pl.FP32, pl.TileView(pad=pl.PadValue.zero)] = pl.tile.fillpad_inplace(r)
# CHECK-NEXT: u: pl.Tile{{\[\[}}4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [2, 1, 0], [2, 2, 16], target_memory=pl.Mem.Vec, tile_2d=True)
# CHECK-NEXT: s: pl.Tile{{\[\[}}4, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(rp, u)
# CHECK-NEXT: pl.tile.store(s, [0, 2, 0], y, [2, 2, 16])
# CHECK-NEXT: w: pl.Tile{{\[\[}}8, 16], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[rows * 4, 16])] = pl.tile.load(x, [0, 0, 0], [2, 4, 16], [rows, 4, 16], target_memory=pl.Mem.Vec, tile_2d=True)
# CHECK-NEXT: pl.tile.store(w, [2, 0, 0], y, [2, 4, 16])
#
# PTO-LABEL: func.func @kernel(
# PTO:      %r_peer_pview = pto.partition_view %{{[0-9]+}}, offsets = [%c1_index, %c1_index, %c0_index], sizes = [%[[ROWS:[0-9a-z_]+]], %c2_index, %c16_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<?x2x16xf32>
# PTO-NEXT: pto.tload ins(%r_peer_pview : !pto.partition_tensor_view<?x2x16xf32>) outs(%r : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=?, v_col=16, {{.*}}>)
# PTO:      %u_pview = pto.partition_view %x_view, offsets = [%c2_index, %c1_index, %c0_index], sizes = [%c2_index, %c2_index, %c16_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<2x2x16xf32>
# PTO-NEXT: pto.tload ins(%u_pview : !pto.partition_tensor_view<2x2x16xf32>) outs(%u : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=16, v_row=4, v_col=16, {{.*}}>)
# PTO:      %y_pview = pto.partition_view %y_view, offsets = [%c0_index, %c2_index, %c0_index], sizes = [%c2_index, %c2_index, %c16_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<2x2x16xf32>
# PTO-NEXT: pto.tstore ins(%s : !pto.tile_buf<{{.*}}>) outs(%y_pview : !pto.partition_tensor_view<2x2x16xf32>)
# PTO:      pto.tload ins(%w_pview : !pto.partition_tensor_view<?x4x16xf32>) outs(%w : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=16, v_row=?, v_col=16, {{.*}}>)
# PTO-NEXT: %y_pview_1 = pto.partition_view %y_view, offsets = [%c2_index, %c0_index, %c0_index], sizes = [%[[ROWS]], %c4_index, %c16_index] : !pto.tensor_view<?x?x?xf32> -> !pto.partition_tensor_view<?x4x16xf32>
# PTO-NEXT: pto.tstore ins(%w : !pto.tile_buf<{{.*}}>) outs(%y_pview_1 : !pto.partition_tensor_view<?x4x16xf32>)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class NdRemoteLoad:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 4, 16], pl.FP32], win: pld.DistributedTensor[[4, 4, 16], pl.FP32], signal: pld.DistributedTensor[[1, 1], pl.INT32], y: pl.Out[pl.Tensor[[4, 4, 16], pl.FP32]]):
        ctx = pld.get_comm_ctx(win)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        left = (me + n - 1) % n
        rows = pl.cast(me % 2 + 1, pl.INDEX)
        t = pl.tile.load(x, [0, 0, 0], [4, 4, 16], target_memory=pl.Mem.Vec)
        pl.tile.store(t, [0, 0, 0], win)
        pld.system.notify(signal, left, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.notify(signal, me, [0, 0], -1, op=pld.NotifyOp.AtomicAdd)
        r = pld.tile.remote_load(win, right, [1, 1, 0], [2, 2, 16], [rows, 2, 16])
        rp = pl.tile.fillpad_inplace(r)
        u = pl.tile.load(x, [2, 1, 0], [2, 2, 16], target_memory=pl.Mem.Vec)
        s = pl.tile.add(rp, u)
        pl.tile.store(s, [0, 2, 0], y)
        w = pl.tile.load(x, [0, 0, 0], [2, 4, 16], [rows, 4, 16], target_memory=pl.Mem.Vec)
        pl.tile.store(w, [2, 0, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 4, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 4, 16], pl.FP32]]):
        win_buf = pld.alloc_window_buffer(256 * 4)
        signal_buf = pld.alloc_window_buffer(4)
        win = pld.window(win_buf, [4, 4, 16], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.kernel(x[r], win, signal, y[r], device=r)
