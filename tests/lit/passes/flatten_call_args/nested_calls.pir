# flatten-call-args: op calls with non-scalar results nested as arguments (or
# as pl.yield_ / return values) of kernels are bound to named temporaries,
# innermost first, right before their statement (the if condition's comm
# context before the `if`). Scalar calls stay inline, except that argument
# order is kept: in `order`, the scalar peer (a rank read) is hoisted before
# the nested staging tile. Host functions keep their inline slices.
# Exact results on P = 2 and 4 before and after --pipeline=default; the lowered
# kernels emit PTO (upstream's `pl.store(pl.load(...), ...)` one-liner in k3).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --passes=flatten-call-args --verify-each --roundtrip-each | FileCheck %s
# RUN: pypto-opt %s --passes=flatten-call-args | pypto-opt - --passes=flatten-call-args | FileCheck %s
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: FileCheck %s --check-prefix=LOW < %t.d/lowered.pir
# RUN: pypto-opt %s --pipeline=default --emit=pto | FileCheck %s --check-prefix=PTO
# RUN: %python -c "import numpy as np; np.save('%t.d/a2.npy', (np.arange(2 * 256) %% 37 - 11).astype(np.float32).reshape(2, 16, 16))"
# RUN: %python -c "import numpy as np; np.save('%t.d/b2.npy', (np.arange(2 * 256) %% 13 - 6).astype(np.float32).reshape(2, 16, 16))"
# RUN: %python -c "import numpy as np; np.save('%t.d/a4.npy', (np.arange(4 * 256) %% 37 - 11).astype(np.float32).reshape(4, 16, 16))"
# RUN: %python -c "import numpy as np; np.save('%t.d/b4.npy', (np.arange(4 * 256) %% 13 - 6).astype(np.float32).reshape(4, 16, 16))"
# RUN: pypto-run %s --ranks 2 --input a=%t.d/a2.npy --input b=%t.d/b2.npy --output-dir %t.d/s2 --check-signals --detect-races
# RUN: pypto-run %s --ranks 4 --input a=%t.d/a4.npy --input b=%t.d/b4.npy --output-dir %t.d/s4 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input a=%t.d/a2.npy --input b=%t.d/b2.npy --output-dir %t.d/l2 --check-signals --detect-races
# RUN: pypto-run %t.d/lowered.pir --ranks 4 --input a=%t.d/a4.npy --input b=%t.d/b4.npy --output-dir %t.d/l4 --check-signals --detect-races --schedule=random:5
# RUN: %python %S/Inputs/check_nested_calls.py %t.d 2 s2 l2
# RUN: %python %S/Inputs/check_nested_calls.py %t.d 4 s4 l4
#
# CHECK-LABEL: def k(
# CHECK-NEXT:  lhs: pl.Tile{{\[\[}}16, 16], pl.FP32] = pl.tile.load(a, [0, 0], [16, 16])
# CHECK-NEXT:  lhs_1: pl.Tile{{\[\[}}16, 16], pl.FP32] = pl.tile.load(b, [0, 0], [16, 16])
# CHECK-NEXT:  rhs: pl.Tile{{\[\[}}16, 16], pl.FP32] = pl.tile.load(b, [0, 0], [16, 16])
# CHECK-NEXT:  rhs_1: pl.Tile{{.*}} = pl.tile.mul(lhs_1, rhs)
# CHECK-NEXT:  t: pl.Tile{{.*}} = pl.tile.add(lhs, rhs_1)
# CHECK-NEXT:  for i, (s,) in pl.range(2, init_values=(t,)):
# CHECK-NEXT:      rhs_2: pl.Tile{{\[\[}}16, 16], pl.FP32] = pl.tile.load(a, [0, 0], [16, 16])
# CHECK-NEXT:      add: pl.Tile{{.*}} = pl.tile.add(s, rhs_2)
# CHECK-NEXT:      s_out: pl.Tile{{.*}} = pl.yield_(add)
# CHECK-NEXT:  ctx: pld.CommCtx = pld.system.get_comm_ctx(acc)
# CHECK-NEXT:  if pld.system.rank(ctx) == 1:
# CHECK-NEXT:      rhs_3: pl.Tile{{\[\[}}16, 16], pl.FP32] = pl.tile.load(b, [0, 0], [16, 16])
# CHECK-NEXT:      tile: pl.Tile{{.*}} = pl.tile.sub(s_out, rhs_3)
# CHECK-NEXT:      store: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.tile.store(tile, [0, 0], out)
# CHECK-NEXT:      return store
# CHECK-NEXT:  store_1: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.tile.store(s_out, [0, 0], out)
# CHECK-NEXT:  return store_1
# CHECK-LABEL: def k3(
# CHECK-NEXT:  tile: pl.Tile{{\[\[}}16, 16], pl.FP32] = pl.tile.load(inp, [0, 0], [16, 16])
# CHECK-NEXT:  store: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.tile.store(tile, [0, 0], out)
# CHECK-NEXT:  return store
# CHECK-LABEL: def order(
# CHECK-NEXT:  ctx: pld.CommCtx = pld.system.get_comm_ctx(dst)
# CHECK-NEXT:  peer: pl.Scalar[pl.INT32] = pld.system.rank(ctx)
# CHECK-NEXT:  stage: pl.Tile{{\[\[}}4, 32], pl.FP32, pl.Mem.Vec] = pl.tile.create([4, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec)
# CHECK-NEXT:  pld.tile.put(dst, peer, x, stage)
# CHECK-LABEL: def host_orch(
# CHECK:       self.k(pl.tensor.slice(a, [1, 16, 16], [r, 0, 0], [], [0]), pl.tensor.slice(b, [1, 16, 16], [r, 0, 0], [], [0]),
#
# LOW-LABEL: def k(
# LOW-NEXT:    lhs: pl.Tile{{\[\[}}16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
# LOW:         if pld.system.rank(acc_ctx) == 1:
# LOW:             out_1: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.tile.store(tile, [0, 0], out)
# LOW-NEXT:        out_3: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(out_1)
# LOW-NEXT:    else:
# LOW-NEXT:        out_2: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.tile.store(s_out, [0, 0], out)
# LOW-NEXT:        out_3: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.yield_(out_2)
# LOW-NEXT:    return out_3
# LOW-LABEL: def k3(
# LOW-NEXT:    tile: pl.Tile{{\[\[}}16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(inp, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
# LOW-NEXT:    out_1: pl.Tensor{{\[\[}}16, 16], pl.FP32] = pl.tile.store(tile, [0, 0], out)
# LOW-NEXT:    return out_1
#
# PTO-LABEL: func.func @k(
# PTO:         pto.tmul ins(%lhs_1, %rhs :
# PTO:         pto.tadd ins(%lhs, %rhs_1 :
# PTO:         scf.for
# PTO:         pto.tsub ins(%s_out, %rhs_3 :
# PTO-LABEL: func.func @k3(
# PTO:         pto.tload ins(%tile_pview : !pto.partition_tensor_view<16x16xf32>) outs(%tile :
# PTO:         pto.tstore ins(%tile :
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class NestedCalls:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]], acc: pld.DistributedTensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.add(pl.load(a, [0, 0], [16, 16]), pl.mul(pl.load(b, [0, 0], [16, 16]), pl.load(b, [0, 0], [16, 16])))
        for i, (s,) in pl.range(0, 2, 1, init_values=(t,)):
            s_out = pl.yield_(pl.add(s, pl.load(a, [0, 0], [16, 16])))
        if pld.rank(pld.get_comm_ctx(acc)) == 1:
            return pl.store(pl.sub(s_out, pl.load(b, [0, 0], [16, 16])), [0, 0], out)
        return pl.store(s_out, [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def k3(self, inp: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        return pl.store(pl.load(inp, [0, 0], [16, 16]), [0, 0], out)

    @pl.function(type=pl.FunctionType.InCore)
    def order(self, x: pl.Tensor[[4, 32], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[4, 32], pl.FP32]]):
        pld.tile.put(dst, pld.rank(pld.get_comm_ctx(dst)), x, pl.tile.create([4, 32], dtype=pl.FP32, target_memory=pl.Mem.Vec))

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, a: pl.Tensor[[NR, 16, 16], pl.FP32], b: pl.Tensor[[NR, 16, 16], pl.FP32], y: pl.Out[pl.Tensor[[NR, 16, 16], pl.FP32]], z: pl.Out[pl.Tensor[[NR, 16, 16], pl.FP32]]):
        buf = pld.alloc_window_buffer(16 * 16 * 4)
        for r in pl.range(pld.world_size()):
            acc = pld.window(buf, [16, 16], dtype=pl.FP32)
            self.k(a[r], b[r], y[r], acc, device=r)
            self.k3(a[r], z[r], device=r)
