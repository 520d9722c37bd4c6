# The three host-rail passes on a host orchestrator that calls every pld.tensor
# collective (allreduce without a signal, with an explicit signal, op=Max,
# core_num=2, inside a loop, mode="ring"; barrier, broadcast, reduce_scatter,
# allgather, all_to_all, all_to_all_v) on all ranks: the program is run with
# pypto-run before the passes, after each of synthesize-allreduce-signals,
# materialize-comm-domain-scopes and lower-host-tensor-collectives (every stage
# also passes --verify-each --roundtrip-each) and after --pipeline=default, on
# P = 2 and P = 4, parallel and random schedules, --check-signals
# --detect-races, every output compared exactly with a numpy oracle.
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_host.py %S/Inputs/host_prog.txt %t.d --ranks 2,4 --seeds 3 | FileCheck %s
# CHECK-DAG: source P=2 parallel: OK
# CHECK-DAG: synth P=2 parallel: OK
# CHECK-DAG: domains P=2 parallel: OK
# CHECK-DAG: lowered P=2 parallel: OK
# CHECK-DAG: default P=2 parallel: OK
# CHECK-DAG: source P=4 parallel: OK
# CHECK-DAG: lowered P=4 parallel: OK
# CHECK-DAG: lowered P=4 --schedule=random:3: OK
# CHECK-DAG: default P=4 parallel: OK
# CHECK-DAG: default P=4 --schedule=random:3: OK
# CHECK-NOT: NOT LOWERED
# CHECK: FAILURES 0
