"""Runs a reduce_scatter program (argv[1]) with pypto-run before and after
`pypto-opt --pipeline=default` on 2 and 4 ranks with the inputs x<P>.npy in
argv[2], and compares every output with a numpy oracle for the op argv[3]
(Max / Min / Prod): row r of rank r's output is the reduction of row r over
ranks; the other rows are the rank's own input. Exits 1 on any mismatch."""
import subprocess
import sys

import numpy as np

prog, work, op = sys.argv[1], sys.argv[2], sys.argv[3]
reduce = {"Max": np.max, "Min": np.min, "Prod": np.prod}[op]
low = f"{work}/{op}_low.pir"
subprocess.run(["pypto-opt", prog, "--verify-each", "--roundtrip-each", "--pipeline=default",
                "-o", low], check=True)
bad = 0
for p in (2, 4):
    x = np.load(f"{work}/x{p}.npy")
    want = x.copy()
    for r in range(p):
        want[r, r] = reduce(x[:, r], axis=0)
    for tag, path in (("before", prog), ("after", low)):
        out = f"{work}/{op}_{tag}_{p}"
        subprocess.run(["pypto-run", path, "--ranks", str(p), "--input", f"x={work}/x{p}.npy",
                        "--output-dir", out, "--check-signals", "--detect-races"], check=True)
        got = np.load(f"{out}/out.npy")
        ok = np.array_equal(got, want)
        bad += not ok
        print(f"{op} P={p} {tag}: {'OK' if ok else 'MISMATCH'}")
sys.exit(1 if bad else 0)
