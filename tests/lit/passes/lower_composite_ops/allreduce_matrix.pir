# The InCore allreduce matrix (Inputs/allreduce_matrix.py): mesh and ring x
# {FP32, FP16} x {Sum, Max, Min, Prod} x P in {1, 2, 3, 4, 8} (a dynamic ring
# from P = 2) x sizes {1, 17, 4097, 65537} x {static, dynamic N and NR}, six
# cases of 2^20 elements (both modes and dtypes, every ReduceOp, static and
# dynamic, P = 1 to 8), plus
# partially valid targets (mesh rectangles, static and with a symbolic row
# count; ring row-major prefixes), lowered by lower-composite-ops and run on
# pypto-run (one random schedule per case, a PCT sweep on four) bit-exact
# against the whole-op run and numpy, with zero signal residue, no races, and
# 32-byte aligned GM transfers (not for FP32 rings, whose seed-given segment
# boundaries floor(i * SIZE / NR) are not). The ptoas tier assembles every
# program of the matrix (allreduce_matrix.programs).
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/allreduce_matrix.py %S/Inputs %t.d --jobs 2 | FileCheck %s
# CHECK-NOT: FAILED
# CHECK-NOT: MISMATCH
# CHECK: allreduce_matrix: 638 cases, 238 lowered programs, 350 whole-op runs
# CHECK-NEXT: FAILURES 0
