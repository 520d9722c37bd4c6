# A tensor-level kernel whose converted tiles (six 64 KiB Vec tiles, 384 KiB)
# overflow the a2a3 UB one buffer each but need at most three at once: after
# --pipeline=default it emits with reused addresses (the loads of x and y die at
# the add that defines s; p, q, r take their memory and s's).
# RUN: pypto-opt %s --pipeline=default --emit=pto 2>/dev/null | FileCheck %s
# CHECK-LABEL: func.func @kernel(
# CHECK:      %x_tile = pto.alloc_tile addr = %c0_i64 :
# CHECK-NEXT: %y_tile = pto.alloc_tile addr = %c65536_i64 :
# CHECK-NEXT: %s = pto.alloc_tile addr = %c131072_i64 :
# CHECK-NEXT: %p = pto.alloc_tile addr = %c0_i64 :
# CHECK-NEXT: %q = pto.alloc_tile addr = %c65536_i64 :
# CHECK-NEXT: %r = pto.alloc_tile addr = %c131072_i64 :
# CHECK-NOT:  pto.alloc_tile
# The lowered kernel runs on the executor (which does not model tile addresses).
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --pipeline=default -o %t.d/lowered.pir
# RUN: pypto-run %t.d/lowered.pir --ranks 1 --entry kernel --inputs-random=3 --output-dir %t.d/out --stats 2>&1 | FileCheck %s --check-prefix=STATS
# STATS: stats: rank 0: bytes_sent=0
# RUN: ls %t.d/out | FileCheck %s --check-prefix=FILES
# FILES: r_out.npy
import pypto.language as pl


@pl.program
class UbReusePipeline:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[128, 128], pl.FP32]) -> pl.Tensor[[128, 128], pl.FP32]:
        s: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.add(x, y)
        p: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.mul(s, s)
        q: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.add(p, p)
        r: pl.Tensor[[128, 128], pl.FP32] = pl.tensor.sub(q, p)
        return r
