# Every op of the pld ("N6") distributed family in one program: a host
# orchestrator allocates the symmetric windows, reads the world size and
# dispatches one chip orchestration per rank; the chip calls a kernel that uses
# remote_load, both remote_store forms, put/get (full slice and region, chunked,
# pipelined), notify/wait, the communicator queries and every collective, then
# a defer_wait waiter task; the host then runs host-level collectives (signal
# synthesized for the mesh allreduce).
# Check: pypto-opt examples/every_pld_op.pir > /tmp/a.pir && pypto-opt /tmp/a.pir | diff /tmp/a.pir -
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class EveryPldOp:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 64], pl.FP32],
               win: pl.InOut[pld.DistributedTensor[[64, 64], pl.FP32]],
               sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
               ring: pl.InOut[pld.DistributedTensor[[2 * (NR - 1), NR], pl.INT32]],
               done: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]],
               rows: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]],
               a2a: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]],
               send_rows: pl.Tensor[[NR, 64], pl.FP32],
               v_in: pl.Tensor[[8, 32], pl.FP32],
               v_out: pl.InOut[pld.DistributedTensor[[8, 32], pl.FP32]],
               v_sig: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]],
               send_counts: pl.Tensor[[4], pl.INT32],
               recv_counts: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]],
               out: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]):
        ctx = pld.get_comm_ctx(win)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        left = (me + n - 1) % n
        # Pull a peer's rows into a tile, push tiles and tensors back.
        t = pld.tile.remote_load(win, left, [0, 0], [16, 64])
        tail = pld.tile.remote_load(win, left, [56, 0], [16, 64], [8, 64])
        pld.tile.remote_store(t, win, right, [16, 0])
        pld.tile.remote_store(t, win, right, [32, 0], atomic=pld.AtomicType.Add)
        pld.tensor.remote_store(x, win, right, [48, 0])
        # Bulk GM transfers: full slice, region, chunked, pipelined.
        pld.tensor.put(win, right, x, [0, 0], [0, 0], [16, 64], atomic=pld.AtomicType.None_)
        pld.tensor.put(win, right, x, [16, 0], [0, 0], [16, 64], atomic=pld.AtomicType.Add, chunk_rows=8, chunk_cols=64)
        pld.tensor.put(win, right, x, [32, 0], [0, 0], [16, 64], chunk_rows=4, chunk_cols=32, pipeline=True)
        pld.tensor.get(out, left, win, [0, 0], [0, 0], [16, 64])
        pld.tensor.get(out, left, win, [0, 0], [16, 0], [16, 64], chunk_rows=8, chunk_cols=32, pipeline=True)
        # Signals: publish, block, and deferred completion.
        pld.system.notify(sig, right, [me, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [left, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.notify(done, right, [me], 1, op=pld.NotifyOp.Set)
        # Collectives (window-as-result).
        win2 = pld.tensor.allreduce(win, sig, op=pld.ReduceOp.Sum)
        win3 = pld.tensor.allreduce(win2, ring, op=pld.ReduceOp.Max, mode="ring")
        sig2 = pld.tensor.barrier(sig)
        rows2 = pld.tensor.broadcast(rows, sig2, root=0)
        rows3 = pld.tensor.reduce_scatter(rows2, sig2, op=pld.ReduceOp.Sum)
        rows4 = pld.tensor.allgather(x[0:1, :], rows3, sig2)
        a2a2 = pld.tensor.all_to_all(send_rows, a2a, sig2)
        v_out2 = pld.tensor.all_to_all_v(v_in, v_out, v_sig, send_counts, recv_counts)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[16, 64], pl.FP32],
             win: pl.InOut[pld.DistributedTensor[[64, 64], pl.FP32]],
             sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]],
             ring: pl.InOut[pld.DistributedTensor[[2 * (NR - 1), NR], pl.INT32]],
             done: pl.InOut[pld.DistributedTensor[[NR], pl.INT32]],
             rows: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]],
             a2a: pl.InOut[pld.DistributedTensor[[NR, 64], pl.FP32]],
             send_rows: pl.Tensor[[NR, 64], pl.FP32],
             v_in: pl.Tensor[[8, 32], pl.FP32],
             v_out: pl.InOut[pld.DistributedTensor[[8, 32], pl.FP32]],
             v_sig: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]],
             send_counts: pl.Tensor[[4], pl.INT32],
             recv_counts: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]],
             out: pl.InOut[pl.Tensor[[16, 64], pl.FP32]]):
        self.kernel(x, win, sig, ring, done, rows, a2a, send_rows, v_in, v_out, v_sig, send_counts, recv_counts, out)
        # Deferred completion: a dedicated waiter task that only registers.
        with pl.at(level=pl.Level.CORE_GROUP):
            pld.system.defer_wait(done, [0], 1, cmp=pld.WaitCmp.Ge)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32],
                  send_rows: pl.Tensor[[NR, NR, 64], pl.FP32],
                  v_in: pl.Tensor[[NR, 8, 32], pl.FP32],
                  send_counts: pl.Tensor[[NR, 4], pl.INT32],
                  out: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP32]]):
        ws = pld.world_size()
        win_buf = pld.alloc_window_buffer(64 * 64 * 4)
        sig_buf = pld.alloc_window_buffer([ws, 1], dtype=pl.INT32)
        ring_buf = pld.alloc_window_buffer(2 * ws * ws * 4)
        done_buf = pld.alloc_window_buffer([ws], dtype=pl.INT32)
        rows_buf = pld.alloc_window_buffer([ws, 64], dtype=pl.FP32)
        a2a_buf = pld.alloc_window_buffer([ws, 64], dtype=pl.FP32)
        v_out_buf = pld.alloc_window_buffer(8 * 32 * 4)
        v_sig_buf = pld.alloc_window_buffer(16)
        recv_buf = pld.alloc_window_buffer(16)
        win = pld.window(win_buf, [64, 64], dtype=pl.FP32)
        sig = pld.window(sig_buf, [ws, 1], dtype=pl.INT32)
        ring = pld.window(ring_buf, [2 * (ws - 1), ws], dtype=pl.INT32)
        done = pld.window(done_buf, [ws], dtype=pl.INT32)
        rows = pld.window(rows_buf, [ws, 64], dtype=pl.FP32)
        a2a = pld.window(a2a_buf, [ws, 64], dtype=pl.FP32)
        v_out = pld.window(v_out_buf, [8, 32], dtype=pl.FP32)
        v_sig = pld.window(v_sig_buf, [4, 1], dtype=pl.INT32)
        recv_counts = pld.window(recv_buf, [4, 1], dtype=pl.INT32)
        for r in pl.range(ws):
            self.chip(x[r], win, sig, ring, done, rows, a2a, send_rows[r], v_in[r], v_out, v_sig, send_counts[r], recv_counts, out[r], device=r)
        win = pld.tensor.allreduce(win, op=pld.ReduceOp.Sum)
        win = pld.tensor.allreduce(win, sig)
        sig = pld.tensor.barrier(sig)
        return
