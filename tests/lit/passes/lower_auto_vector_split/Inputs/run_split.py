"""Differential runner for lower-auto-vector-split.

Runs kernel KERNEL of PROGRAM (entry, P ranks, inputs from --inputs-random) before
and after `pypto-opt --passes=PASSES` and compares every output exactly.

pypto-run executes a pl.split_aiv region as two logical threads (the two vector
lanes); after the pass the region is gone and the kernel (stamped split_aiv=2)
expects the runtime to launch it on both lanes, which pypto-run does not model
for a function attribute. The runner therefore simulates that launch: it wraps
the lowered kernel's body (all but its final `return`) in
`for lane in pl.split_aiv(2):`, so both lanes run it with
tile.get_subblock_idx() = 0 and 1. The before run is made without
--detect-races when --no-race-before is given (a full-width UP_DOWN /
LEFT_RIGHT body runs the same stores on both lanes before lowering).

  run_split.py PROGRAM OUTDIR --kernel K --outputs y,z [--ranks 1] [--passes P]
"""
import argparse
import os
import subprocess
import sys

import numpy as np


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def wrap_kernel(text, kernel):
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        out.append(lines[i])
        if lines[i].strip().startswith("def %s(" % kernel):
            body = []
            i += 1
            while i < len(lines) and (lines[i].startswith("        ") or not lines[i].strip()):
                body.append(lines[i])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            assert body and body[-1].strip() == "return", body[-1:]
            out.append("        for lane in pl.split_aiv(2):")
            out += ["    " + l for l in body[:-1]]
            out.append(body[-1])
            out.append("")
            continue
        i += 1
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("outdir")
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--outputs", required=True)
    ap.add_argument("--ranks", default="1")
    ap.add_argument("--passes", default="lower-auto-vector-split")
    ap.add_argument("--no-race-before", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    low = os.path.join(a.outdir, "lowered.pir")
    rc, out = run(["pypto-opt", a.program, "--verify-each", "--roundtrip-each", "--passes=" + a.passes,
                   "-o", low])
    if rc != 0:
        print("pypto-opt FAILED (%d):\n%s" % (rc, out))
        return 1
    text = open(low).read()
    if "pl.split_aiv(" in text:
        print("NOT LOWERED: a pl.split_aiv region is still present")
        return 1
    sim = os.path.join(a.outdir, "lowered_two_lanes.pir")
    open(sim, "w").write(wrap_kernel(text, a.kernel))
    results = {}
    failures = 0
    for label, prog, races in (("before", a.program, not a.no_race_before), ("after", sim, True)):
        od = os.path.join(a.outdir, label)
        cmd = ["pypto-run", prog, "--entry", a.kernel, "--ranks", a.ranks, "--inputs-random=7",
               "--output-dir", od, "--check-signals"] + (["--detect-races"] if races else [])
        rc, out = run(cmd)
        if rc != 0:
            print("%s: RUN FAILED rc=%d\n%s" % (label, rc, out))
            failures += 1
            continue
        results[label] = {n: np.load(os.path.join(od, n + ".npy")) for n in a.outputs.split(",")}
        print("%s: ran" % label)
    if failures:
        print("FAILURES %d" % failures)
        return 1
    for n in a.outputs.split(","):
        x, y = results["before"][n], results["after"][n]
        if x.shape != y.shape or not np.array_equal(x, y):
            print("%s: MISMATCH" % n)
            failures += 1
        elif not np.any(x):
            print("%s: all zero (the test would not see a missing half)" % n)
            failures += 1
        else:
            print("%s: OK" % n)
    print("FAILURES %d" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
