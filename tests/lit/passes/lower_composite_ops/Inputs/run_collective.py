"""Differential runner for the lower-composite-ops lit tests.

Instantiates a program template (@N@, @DT@, @OP@, ... placeholders), lowers it
with pypto-opt, then for every rank count P runs BOTH the original program (the
executor runs the composite collective as a whole operation) and the lowered one
(notify/wait/remote_load primitives) with --check-signals --detect-races (and
optionally --schedule=random:SEED; the lowered one also under --schedule=pct:1
--sweep 20), and compares each output exactly with a
numpy oracle. With --check-alignment every run also has pypto-run
--check-alignment (a GM transfer off a 32-byte boundary fails the run). Prints
one line per run; exits 1 on any mismatch or run failure.

  run_collective.py KIND TEMPLATE OUTDIR --n N --dtype FP32 --op Sum
                    --ranks 1,2,3,4,8 [--passes P | --pipeline NAME] [--seeds 1,2]
                    [--check-alignment]
KIND: allreduce | barrier | broadcast | allgather | all_to_all | reduce_scatter
(placeholders @KIND@, @ROOT@ = P - 1, @P@ = P, @SR@ = max(2 * (P - 1), 1), @XROWS@ = NR for all_to_all else 1)

  run_collective.py matrix - OUTDIR [--kinds K,K] [-j 2] [--sweep 20]
The matrix of the data collectives (collective_matrix.py: broadcast,
allgather, all_to_all, reduce_scatter, all_to_all_v x FP32/FP16 x sizes x
static/dynamic dims, P and ReduceOp cycling), each program calling its
collective twice back to back on one window with no barrier between.
"""
import argparse
import os
import subprocess
import sys

import numpy as np

NP = {"FP32": np.float32, "FP16": np.float16}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def parse_args(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("kind")
    ap.add_argument("template")
    ap.add_argument("outdir")
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--dtype", default="FP32")
    ap.add_argument("--op", default="Sum")
    ap.add_argument("--ranks", default="1,2,3,4")
    ap.add_argument("--passes", default="lower-composite-ops")
    ap.add_argument("--pipeline", default=None)
    ap.add_argument("--seeds", default="")
    # The lowered program also runs under a PCT sweep (pypto-run --sweep: every
    # seed must pass the detectors with the first seed's outputs). 20 seeds catch
    # each planted mutant of tests/mutants with probability >= 99% per run.
    ap.add_argument("--sweep", type=int, default=20)
    # pypto-run --check-alignment on every run: each GM transfer must start on a
    # 32-byte boundary (the kinds and dtypes whose lowering promises it).
    ap.add_argument("--check-alignment", action="store_true")
    # matrix mode: the kinds to run (default all) and parallel cases
    ap.add_argument("--kinds", default="")
    ap.add_argument("-j", type=int, default=2)
    return ap.parse_args(argv)


def instantiate(template, a, P):
    """The program text for rank count P (the ptoas tier instantiates the same way)."""
    text = template.replace("@N@", str(a.n)).replace("@DT@", a.dtype).replace("@OP@", a.op)
    text = text.replace("@SR@", str(max(2 * (P - 1), 1))).replace("@P@", str(P))
    text = text.replace("@KIND@", a.kind).replace("@ROOT@", str(max(P - 1, 0)))
    return text.replace("@XROWS@", "NR" if a.kind in ("all_to_all", "reduce_scatter") else "1")


def main():
    a = parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    if a.kind == "matrix":
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import collective_matrix
        return collective_matrix.run_matrix(a)
    template = open(a.template).read()
    lowered = {}

    def lower_for(P):
        # Programs with a @ROOT@ placeholder are instantiated per P (root = P - 1).
        key = P if ("@ROOT@" in template or "@P@" in template) else 0
        if key in lowered:
            return lowered[key]
        text = instantiate(template, a, P)
        src = os.path.join(a.outdir, "prog%d.pir" % key)
        open(src, "w").write(text)
        low = os.path.join(a.outdir, "lowered%d.pir" % key)
        opt = ["pypto-opt", src, "--verify-each", "--roundtrip-each", "-o", low]
        opt += ["--pipeline=" + a.pipeline] if a.pipeline else ["--passes=" + a.passes]
        rc, out = run(opt)
        if rc != 0:
            print("pypto-opt FAILED (%d):\n%s" % (rc, out))
            sys.exit(1)
        if "pld.tensor." + a.kind + "(" in open(low).read():
            print("NOT LOWERED: pld.tensor.%s still present" % a.kind)
            sys.exit(1)
        lowered[key] = (src, low)
        return lowered[key]

    failures = 0
    align = ["--check-alignment"] if a.check_alignment else []
    schedules = [[]] + [["--schedule=random:" + s] for s in a.seeds.split(",") if s]
    for P in [int(p) for p in a.ranks.split(",")]:
        rng = np.random.default_rng(1000 * P + a.n)
        dt = NP[a.dtype]
        src, low = lower_for(P)
        if a.kind == "allreduce":
            if a.op == "Prod":
                x = rng.choice([-2.0, -1.0, 1.0, 2.0], size=(P, 1, a.n)).astype(dt)
                # keep |product| <= 2^8: at most 8 factors of 2 per column
            else:
                x = rng.integers(-8, 9, size=(P, 1, a.n)).astype(dt)
            red = {"Sum": np.sum, "Max": np.max, "Min": np.min, "Prod": np.prod}[a.op]
            ref = np.broadcast_to(red(x.astype(np.float64), axis=0), x.shape).astype(dt)
        elif a.kind == "barrier":  # y[r] = x[(r + 1) % P], read after the barrier
            x = rng.integers(-8, 9, size=(P, 1, a.n)).astype(dt)
            ref = np.roll(x, -1, axis=0)
        elif a.kind == "broadcast":  # y[r] = x[root], root = P - 1
            x = rng.integers(-8, 9, size=(P, 1, a.n)).astype(dt)
            ref = np.broadcast_to(x[P - 1], x.shape).copy()
        elif a.kind == "allgather":  # y[r] = the stack of every rank's row
            x = rng.integers(-8, 9, size=(P, 1, a.n)).astype(dt)
            ref = np.broadcast_to(x[:, 0, :], (P, P, a.n)).copy()
        elif a.kind == "reduce_scatter":  # y[r] = op over s of x[s][r]
            if a.op == "Prod":  # |product| <= 2^8 for P <= 8: exact in FP16 too
                x = rng.choice([-2.0, -1.0, 1.0, 2.0], size=(P, P, a.n)).astype(dt)
            else:
                x = rng.integers(-8, 9, size=(P, P, a.n)).astype(dt)
            red = {"Sum": np.sum, "Max": np.max, "Min": np.min, "Prod": np.prod}[a.op]
            ref = red(x.astype(np.float64), axis=0).reshape(P, 1, a.n).astype(dt)
        else:  # all_to_all: y[r][s] = x[s][r]
            x = rng.integers(-8, 9, size=(P, P, a.n)).astype(dt)
            ref = x.transpose(1, 0, 2).copy()
        xin = os.path.join(a.outdir, "x%d.npy" % P)
        np.save(xin, x)
        pct = [["--schedule=pct:1", "--sweep", str(a.sweep)]] if a.sweep else []
        for label, prog in (("before", src), ("after", low)):
            for sched in schedules + (pct if label == "after" else []):
                od = os.path.join(a.outdir, "%s_P%d%s" % (label, P, "".join(sched).replace(":", "_").replace(" ", "")))
                os.makedirs(od, exist_ok=True)
                cmd = ["pypto-run", prog, "--ranks", str(P), "--input", "x=" + xin, "--output-dir", od,
                       "--check-signals", "--detect-races"] + align + sched
                rc, out = run(cmd)
                tag = "%s P=%d %s" % (label, P, " ".join(sched) or "parallel")
                if rc != 0:
                    print("%s: RUN FAILED rc=%d\n%s" % (tag, rc, out))
                    failures += 1
                    continue
                y = np.load(os.path.join(od, "y.npy"))
                if y.shape != ref.shape or not np.array_equal(y, ref):
                    bad = np.argwhere(y != ref) if y.shape == ref.shape else []
                    print("%s: MISMATCH (%d elements differ, first %s)" % (tag, len(bad), bad[:3].tolist() if len(bad) else "shape"))
                    failures += 1
                else:
                    print("%s: OK" % tag)
    print("FAILURES %d" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
