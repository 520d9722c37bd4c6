# Device subsets on P = 4: windows dispatched to pl.range(2) form domain {0, 1},
# pl.range(2, 4) domain {2, 3}, a barrier signal dispatched with device=0 and
# device=1 joins {0, 1}, the synthesized allreduce signal and the broadcast
# signal inherit their data's domain. Lowered collectives dispatch once per
# device of the domain. Every stage runs bit-exactly against the oracle.
# RUN: rm -rf %t.d
# RUN: %python %S/Inputs/run_host.py %S/Inputs/subset_prog.txt %t.d --ranks 4 --seeds 5 --oracle subset | FileCheck %s
# CHECK-DAG: source P=4 parallel: OK
# CHECK-DAG: synth P=4 parallel: OK
# CHECK-DAG: domains P=4 parallel: OK
# CHECK-DAG: lowered P=4 parallel: OK
# CHECK-DAG: lowered P=4 --schedule=random:5: OK
# CHECK-DAG: default P=4 parallel: OK
# CHECK: FAILURES 0
# RUN: FileCheck %s --check-prefix=IR < %t.d/lowered4.pir
# IR: with pld.comm_domain(name="comm_d0", devices=[0, 1], slots=["a_buf", "cs_buf", "bar_buf", "__allreduce_signal_buf_0"]):
# IR-NEXT: with pld.comm_domain(name="comm_d1", devices=[2, 3], slots=["b_buf", "bs_buf"]):
# IR: pl.builtin.tensor.allreduce(a, __allreduce_signal_0, op=pld.ReduceOp.Sum, dtype=pl.FP32, attrs={"device": 0, "arg_directions": [pl.adir.inout, pl.adir.inout], "op": pld.ReduceOp.Sum, "dtype": pl.FP32})
# IR-NEXT: pl.builtin.tensor.allreduce(a, __allreduce_signal_0, op=pld.ReduceOp.Sum, dtype=pl.FP32, attrs={"device": 1,
# IR-NEXT: pl.builtin.tensor.allreduce(b, bs, op=pld.ReduceOp.Sum, dtype=pl.FP32, attrs={"device": 2,
# IR-NEXT: pl.builtin.tensor.allreduce(b, bs, op=pld.ReduceOp.Sum, dtype=pl.FP32, attrs={"device": 3,
# IR-NEXT: pl.builtin.tensor.barrier(bar, attrs={"device": 0, "arg_directions": [pl.adir.inout]})
# IR-NEXT: pl.builtin.tensor.barrier(bar, attrs={"device": 1, "arg_directions": [pl.adir.inout]})
# IR-NEXT: pl.builtin.tensor.broadcast(a, cs, root=1, dtype=pl.FP32, attrs={"device": 0, "arg_directions": [pl.adir.inout, pl.adir.inout], "root": 1, "dtype": pl.FP32})
# IR-NEXT: pl.builtin.tensor.broadcast(a, cs, root=1, dtype=pl.FP32, attrs={"device": 1,
# IR-NOT: pld.tensor.allreduce(
