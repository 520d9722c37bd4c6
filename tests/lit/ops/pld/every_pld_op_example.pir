# examples/every_pld_op.pir (every pld op in one host + chip + kernel program)
# parses, verifies and round-trips byte-identically, and prints each op canonically.
# RUN: pypto-opt %srcroot/examples/every_pld_op.pir > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %srcroot/examples/every_pld_op.pir | FileCheck %s
# CHECK: pld.system.get_comm_ctx(win)
# CHECK: pld.system.rank(ctx)
# CHECK: pld.system.nranks(ctx)
# CHECK: pld.tile.remote_load(win, left, [0, 0], [16, 64])
# CHECK: pld.tile.remote_load(win, left, [56, 0], [16, 64], [8, 64])
# CHECK: pld.tile.remote_store(t, win, right, [16, 0])
# CHECK: pld.tensor.remote_store(x, win, right, [48, 0])
# CHECK: pld.tensor.put(win, right, x, [0, 0], [0, 0], [16, 64], atomic=pld.AtomicType.None_)
# CHECK: pld.tensor.put(win, right, x, [32, 0], [0, 0], [16, 64], chunk_rows=4, chunk_cols=32, pipeline=True)
# CHECK: pld.tensor.get(out, left, win, [0, 0], [0, 0], [16, 64])
# CHECK: pld.system.notify(sig, right, [me, 0], 1, op=pld.NotifyOp.AtomicAdd)
# CHECK: pld.system.wait(sig, [left, 0], 1, cmp=pld.WaitCmp.Ge)
# CHECK: pld.tensor.allreduce(win2, ring, op=pld.ReduceOp.Max, mode="ring")
# CHECK: pld.tensor.barrier(sig)
# CHECK: pld.tensor.broadcast(rows, sig2, root=0)
# CHECK: pld.tensor.reduce_scatter(rows2, sig2, op=pld.ReduceOp.Sum)
# CHECK: pld.tensor.allgather(
# CHECK: pld.tensor.all_to_all(send_rows, a2a, sig2)
# CHECK: pld.tensor.all_to_all_v(v_in, v_out, v_sig, send_counts, recv_counts)
# CHECK: with pl.at(level=pl.Level.CORE_GROUP):
# CHECK-NEXT: pld.system.defer_wait(done, [0], 1, cmp=pld.WaitCmp.Ge)
# CHECK: pld.system.world_size()
# CHECK: pld.tensor.alloc_window_buffer(
# CHECK: pld.tensor.window(
# CHECK: for r in pl.range(ws):
# CHECK: pld.tensor.allreduce(win, op=pld.ReduceOp.Sum)
