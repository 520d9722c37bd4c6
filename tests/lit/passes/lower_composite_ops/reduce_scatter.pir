# lower-composite-ops: reduce_scatter(target [NR, SIZE], sig, op) in a kernel:
# barrier 1; row my_rank, in column chunks of <= 16 KiB = own chunk (op) the
# same chunk of row my_rank of every peer (remote_load + tile.add / maximum /
# minimum / mul), stored at once (no peer reads row my_rank of my target);
# barrier 2 (every peer has read my rows); epilogue -2. Rows of up to 17
# chunks, dynamic row sizes and two calls back to back: collective_matrix.pir.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=lower-composite-ops,lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# The lowered remote_load tiles get a memory space (infer-tile-memory-space) and the
# whole kernel emits: a local tload of the own chunk, then a peer-view tload per peer.
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=PTO
# PTO: pto.tload ins(%rs_own_pview : !pto.partition_tensor_view<1x?xf32>) outs(%rs_own :
# PTO: pto.tfillpad ins(%rs_own :
# PTO: %rs_recv = pto.alloc_tile addr = {{.*}} valid_col = {{.*}} : !pto.tile_buf<loc=vec, dtype=f32,
# PTO: pto.tload ins(%rs_recv_peer_pview : !pto.partition_tensor_view<1x?xf32>) outs(%rs_recv :
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/f32 --n 17 --ranks 1,2,3,4,8 --seeds 1,2 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/f16 --n 40 --dtype FP16 --ranks 1,2,3,4,8 | FileCheck %s --check-prefix=DIFF
# Max, Min and Prod (upstream's reduce ops) reduce with tile.maximum / minimum / mul.
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/max --n 17 --op Max --ranks 1,2,3,4 --seeds 3 | FileCheck %s --check-prefix=OPS
# RUN: FileCheck %s --check-prefix=MAX < %t.d/max/lowered0.pir
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/min --n 40 --dtype FP16 --op Min --ranks 1,2,4,8 | FileCheck %s --check-prefix=OPS
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/prod --n 17 --op Prod --ranks 1,2,3,8 | FileCheck %s --check-prefix=OPS
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/prod16 --n 40 --dtype FP16 --op Prod --ranks 2,4 --pipeline default | FileCheck %s --check-prefix=OPS
# MAX: rs_red: {{.*}} = pl.tile.maximum(rs_acc_it, rs_recv_pad)
# OPS: after P=2 parallel: OK
# OPS: FAILURES 0
# DIFF-DAG: before P=1 parallel: OK
# DIFF-DAG: after P=1 parallel: OK
# DIFF-DAG: after P=2 parallel: OK
# DIFF-DAG: after P=3 parallel: OK
# DIFF-DAG: after P=4 parallel: OK
# DIFF-DAG: after P=8 parallel: OK
# DIFF: FAILURES 0

# CHECK-LABEL: def kernel(
# CHECK: pld.system.wait(sig, [src, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for rs_col in pl.range(0, 32, 32):
# CHECK-NEXT: rs_valid: pl.Scalar[pl.INDEX] = pl.min(32, 32 - rs_col)
# CHECK-NEXT: rs_own: {{.*}} = pl.tile.load(data, [my_rank_idx, rs_col], [1, 32], [1, rs_valid], target_memory=pl.Mem.Vec)
# CHECK-NEXT: rs_acc: {{.*}} = pl.tile.fillpad_inplace(rs_own)
# CHECK-NEXT: for peer_1, (rs_acc_it,) in pl.range(nranks_idx, init_values=(rs_acc,)):
# CHECK-NEXT: if peer_1 != my_rank_idx:
# CHECK-NEXT: rs_recv: {{.*}} = pld.tile.remote_load(data, peer_1, [my_rank_idx, rs_col], [1, 32], [1, rs_valid])
# CHECK-NEXT: rs_recv_pad: {{.*}} = pl.tile.fillpad_inplace(rs_recv)
# CHECK-NEXT: rs_sum: {{.*}} = pl.tile.add(rs_acc_it, rs_recv_pad)
# CHECK: rs_res: {{.*}} = pl.tile.set_validshape(rs_total, 1, rs_valid)
# CHECK-NEXT: rs_stored: {{.*}} = pl.tile.store(rs_res, [my_rank_idx, rs_col], data)
# CHECK: pld.system.wait(sig, [src_1, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: for reset_src in pl.range(nranks_idx):
# CHECK-NEXT: if reset_src != my_rank_idx:
# CHECK-NEXT: pld.system.notify(sig, my_rank_idx, [reset_src, 0], pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
# CHECK-NEXT: return
# CHECK-NOT: pld.tensor.reduce_scatter
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RS:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, data: pl.InOut[pld.DistributedTensor[[NR, 32], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        pld.tensor.reduce_scatter(data, sig, op=pld.ReduceOp.Sum)
        return
