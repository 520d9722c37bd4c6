"""Runs `pypto-opt - --pipeline=default` on kernels calling every InCore
collective (mesh and ring allreduce, broadcast, reduce_scatter, allgather,
all_to_all) with hostile target shapes: 1-element, odd, non-power-of-two,
huge (2^31, 2^62: byte sizes that overflow int64), dynamic, and dims not
divisible by the rank count, against several signal shapes. Every input must
give exit 0 (lowered or kept with a warning) or exit 1 (a diagnostic); prints
one line per other outcome (a crash, an internal error: exit 3) and a summary."""
import subprocess
import sys

OPT = sys.argv[1]
HDR = '''import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")
M = pl.dynamic("M")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
'''
DIMS = ["1", "3", "17", "4097", "2147483648", "4611686018427387904", "NR", "M", "5 - 4"]
SIGS = ["[NR, 1]", "[1, 1]", "[NR]", "[3, 2]"]
TARGET_CALLS = ["pld.tensor.allreduce(data, sig)", 'pld.tensor.allreduce(data, sig, mode="ring")',
                "pld.tensor.broadcast(data, sig, root=0)", "pld.tensor.broadcast(data, sig, root=3)",
                "pld.tensor.reduce_scatter(data, sig, op=pld.ReduceOp.Sum)"]
XT_CALLS = ["pld.tensor.allgather(x, data, sig)", "pld.tensor.all_to_all(x, data, sig)"]


def cases():
    for a in DIMS:
        for b in DIMS:
            t = f"[{a}, {b}]"
            for sig in SIGS:
                dist = f"data: pl.InOut[pld.DistributedTensor[{t}, pl.FP32]], " \
                       f"sig: pl.InOut[pld.DistributedTensor[{sig}, pl.INT32]]"
                for call in TARGET_CALLS:
                    yield dist, call
                for xt in (t, f"[1, {b}]"):
                    for call in XT_CALLS:
                        yield f"x: pl.Tensor[{xt}, pl.FP32], " + dist, call


counts = {0: 0, 1: 0}
bad = 0
for params, call in cases():
    src = HDR + f"    def kernel(self, {params}):\n        {call}\n        return\n"
    p = subprocess.run([OPT, "-", "--pipeline=default"], input=src.encode(), capture_output=True,
                       timeout=60)
    if p.returncode in counts:
        counts[p.returncode] += 1
    else:
        bad += 1
        print(f"BAD exit {p.returncode}: {params} | {call}\n{p.stderr.decode()[:300]}")
print(f"collective_shapes: {counts[0] + counts[1] + bad} inputs, exit0 {counts[0]}, "
      f"exit1 {counts[1]}, other {bad}")
