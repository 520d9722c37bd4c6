# The data collectives' lowering matrix (Inputs/collective_matrix.py):
# broadcast, allgather, all_to_all, reduce_scatter (Sum / Max / Min / Prod) and
# all_to_all_v x FP32 / FP16 x rows of 1, 17, 4097, 4112, 65537 elements (up to
# 17 chunks of 16 KiB) x static dims / dynamic NR and M, P cycling over
# 1, 2, 3, 4, 8, plus one case of 2^20 elements per collective. Every program
# calls its collective twice back to back on one window and signal with no
# barrier in between (the ready barrier of each lowering makes that race-free)
# and copies the result out after each call.
# The lowered program must equal the whole-op run and a numpy oracle exactly,
# leave the signal zero (--check-signals) and be race-free (--detect-races,
# random and a PCT sweep); --check-alignment where the layout allows (see the
# runner). The ptoas tier assembles the PTO of every program of this matrix.
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_collective.py matrix - %t.d | FileCheck %s
# CHECK-DAG: broadcast_FP32_n65537_dyn_P8 after --schedule=pct:1 --sweep 2 align: OK
# CHECK-DAG: allgather_FP16_n4112_dyn_P2 after --schedule=pct:1 --sweep 20 align: OK
# CHECK-DAG: all_to_all_FP32_n4112_dyn_P8 after --schedule=pct:1 --sweep 20 align: OK
# CHECK-DAG: reduce_scatter_FP16_n17_dyn_P8_Sum after --schedule=pct:1 --sweep 20: OK
# CHECK-DAG: all_to_all_v_FP16_n65537_dyn_P2 after --schedule=pct:1 --sweep 2: OK
# CHECK-DAG: broadcast_FP16_n1048576_dyn_P2 after --schedule=pct:1 --sweep 1 align: OK
# CHECK-DAG: allgather_FP32_n1048576_static_P4 after --schedule=pct:1 --sweep 1 align: OK
# CHECK-DAG: all_to_all_FP16_n1048576_dyn_P3 after --schedule=pct:1 --sweep 1 align: OK
# CHECK-DAG: reduce_scatter_FP32_n1048576_static_P2_Prod after --schedule=pct:1 --sweep 1 align: OK
# CHECK-DAG: all_to_all_v_FP16_n1048576_dyn_P2 after --schedule=pct:1 --sweep 1 align: OK
# CHECK: CASES 105
# CHECK: FAILURES 0
