# lower-composite-ops: reduce_scatter(target [NR, SIZE], sig, op) in a kernel:
# barrier 1; row my_rank = own row (op) row my_rank of every peer (remote_load +
# tile.add / maximum / minimum / mul); barrier 2 (every peer has read my rows) BEFORE the store into row
# my_rank; epilogue -2.
# RUN: pypto-opt %s --passes=lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=lower-composite-ops,lower-composite-ops --verify-each --roundtrip-each | FileCheck %s
# The lowered remote_load tiles get a memory space (infer-tile-memory-space) and the
# whole kernel emits: a local tload of the own row, then a peer-view tload per peer.
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s --check-prefix=PTO
# PTO: %rs_recv = pto.alloc_tile addr = {{.*}} : !pto.tile_buf<loc=vec, dtype=f32,
# PTO: pto.tload ins(%rs_acc_pview : !pto.partition_tensor_view<1x32xf32>) outs(%rs_acc :
# PTO: pto.tload ins(%rs_recv_peer_pview : !pto.partition_tensor_view<1x32xf32>) outs(%rs_recv :
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/f32 --n 17 --ranks 1,2,3,4,8 --seeds 1,2 | FileCheck %s --check-prefix=DIFF
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/f16 --n 40 --dtype FP16 --ranks 1,2,3,4,8 | FileCheck %s --check-prefix=DIFF
# Max, Min and Prod (upstream's reduce ops) reduce with tile.maximum / minimum / mul.
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/max --n 17 --op Max --ranks 1,2,3,4 --seeds 3 | FileCheck %s --check-prefix=OPS
# RUN: FileCheck %s --check-prefix=MAX < %t.d/max/lowered0.pir
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/min --n 40 --dtype FP16 --op Min --ranks 1,2,4,8 | FileCheck %s --check-prefix=OPS
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/prod --n 17 --op Prod --ranks 1,2,3,8 | FileCheck %s --check-prefix=OPS
# RUN: %python %S/Inputs/run_collective.py reduce_scatter %S/Inputs/reduce_scatter_prog.txt %t.d/prod16 --n 40 --dtype FP16 --op Prod --ranks 2,4 --pipeline default | FileCheck %s --check-prefix=OPS
# MAX: rs_red: {{.*}} = pl.tile.maximum(rs_acc_it, rs_recv)
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
# CHECK-NEXT: rs_acc: pl.Tile{{\[\[}}1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [my_rank_idx, 0], [1, 32], target_memory=pl.Mem.Vec)
# CHECK-NEXT: for peer_1, (rs_acc_it,) in pl.range(nranks_idx, init_values=(rs_acc,)):
# CHECK-NEXT: if peer_1 != my_rank_idx:
# CHECK-NEXT: rs_recv: {{.*}} = pld.tile.remote_load(data, peer_1, [my_rank_idx, 0], [1, 32])
# CHECK-NEXT: rs_sum: {{.*}} = pl.tile.add(rs_acc_it, rs_recv)
# CHECK: pld.system.wait(sig, [src_1, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
# CHECK-NEXT: rs_stored: {{.*}} = pl.tile.store(rs_total, [my_rank_idx, 0], data)
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
