# End-to-end kernel in the style users write (jit functions, unannotated
# assignments, parameters re-assigned at top level, inside an `if` and inside a
# loop, a tile accumulator carried through `for` + `if`): every rank stages its
# row; after a notify/wait barrier rank 0 sums the staged rows of all ranks
# (remote_load + add) into its `total` window and releases the others, and each
# rank copies rank 0's total out in four 16-column chunks.
# Expected: y[r] = sum over ranks of x, on every rank.
# Checked: verify/round trip through the pipeline, the emitted loop-carried
# accumulator and chunked copy, exact results on P = 2, 3 and 4 before and after
# --pipeline=default (no races).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each > /dev/null
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: %python -c "import numpy as np; [np.save('%t.d/x%%d.npy' %% p, (np.arange(p * 64) %% 29 - 7).astype(np.float32).reshape(p, 1, 64)) for p in (2, 3, 4)]"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/s2 --detect-races
# RUN: pypto-run %s --ranks 3 --input x=%t.d/x3.npy --output-dir %t.d/s3 --detect-races --schedule=random:7
# RUN: pypto-run %s --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/s4 --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x2.npy --output-dir %t.d/l2 --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 3 --input x=%t.d/x3.npy --output-dir %t.d/l3 --detect-races --schedule=random:7
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input x=%t.d/x4.npy --output-dir %t.d/l4 --detect-races
# RUN: %python -c "import numpy as np, sys; ok = [np.array_equal(np.load('%t.d/%%s%%d/y.npy' %% (k, p)), np.broadcast_to(np.load('%t.d/x%%d.npy' %% p).sum(0, keepdims=True), (p, 1, 64))) for k in 'sl' for p in (2, 3, 4)]; print(ok); sys.exit(0 if all(ok) else 1)"
#
# CHECK:      func.func @sum_then_share(
# CHECK:      scf.if
# CHECK:      %{{.*}} = scf.for %{{.*}} = %c0_index to %{{.*}} step %c1_index iter_args(
# CHECK:      pto.tadd
# CHECK:      scf.yield
# CHECK:      pto.tstore
# CHECK:      scf.for %{{.*}} = %c0_index to %c4_index step %c1_index {
# CHECK:      pto.tload
# CHECK:      pto.tstore
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.jit.incore
def sum_then_share(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
                   stage: pld.DistributedTensor[[1, 64], pl.FP32],
                   total: pld.DistributedTensor[[1, 64], pl.FP32],
                   signal: pld.DistributedTensor[[NR, 2], pl.INT32]):
    ctx = pld.get_comm_ctx(stage)
    me = pld.rank(ctx)
    n = pld.nranks(ctx)
    t = pl.load(x, [0, 0], [1, 64])
    stage = pl.store(t, [0, 0], stage)
    for p in pl.range(n):
        if p != me:
            pld.system.notify(signal, peer=p, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    for p in pl.range(n):
        if p != me:
            pld.system.wait(signal, offsets=[p, 0], expected=1, cmp=pld.WaitCmp.Ge)
    if me == 0:
        acc = pl.load(stage, [0, 0], [1, 64])
        for p in pl.range(n):
            if p != me:
                part = pld.tile.remote_load(stage, peer=p, offsets=[0, 0], shape=[1, 64])
                acc = pl.add(acc, part)
        total = pl.store(acc, [0, 0], total)
        for p in pl.range(1, n):
            pld.system.notify(signal, peer=p, offsets=[0, 1], value=1, op=pld.NotifyOp.AtomicAdd)
    else:
        pld.system.wait(signal, offsets=[0, 1], expected=1, cmp=pld.WaitCmp.Ge)
    for c in pl.range(4):
        chunk = pld.tile.remote_load(total, peer=0, offsets=[0, c * 16], shape=[1, 16])
        y = pl.store(chunk, [0, c * 16], y)
    return y


@pl.jit
def chip(x: pl.Tensor[[1, 64], pl.FP32], y: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
         stage: pld.DistributedTensor[[1, 64], pl.FP32],
         total: pld.DistributedTensor[[1, 64], pl.FP32],
         signal: pld.DistributedTensor[[NR, 2], pl.INT32]):
    return sum_then_share(x, y, stage, total, signal)


@pl.jit.host
def host(x: pl.Tensor[[NR, 1, 64], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, 64], pl.FP32]]):
    stage_buf = pld.alloc_window_buffer([1, 64], dtype=pl.FP32)
    total_buf = pld.alloc_window_buffer([1, 64], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer(4096)
    for r in pl.range(pld.world_size()):
        stage = pld.window(stage_buf, [1, 64], dtype=pl.FP32)
        total = pld.window(total_buf, [1, 64], dtype=pl.FP32)
        signal = pld.window(signal_buf, [pld.world_size(), 2], dtype=pl.INT32)
        chip(x[r], y[r], stage, total, signal, device=r)
