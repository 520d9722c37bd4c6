"""Differential runner for lower-composite-ops' all_to_all_v lowering.

Instantiates aav_prog.txt per rank count P (target capacity ROWS = P * MR +
EXTRA, so MAX_RECV = ROWS // P = MR), lowers it with pypto-opt, then runs BOTH
the original program (the executor runs pld.tensor.all_to_all_v as a whole
operation) and the lowered one with the function named `kernel` (a kernel, or a
CHIP orchestration for lower-l2-tensor-collectives) as entry (which copies
the target and recv_counts into outputs after the call), --check-signals
--detect-races (and optionally --schedule=random:SEED; the lowered one also under
--schedule=pct:1 --sweep 20). The target window is
pre-filled with a sentinel, so the comparison also proves that exactly
clamp(send_counts[dest], 0, MAX_RECV) rows cross the wire (the rest of each
capacity slot keeps the sentinel). send_counts are drawn from [-2, MR + 2]
(negative, zero, in range and above MAX_RECV). Compares the target and
recv_counts exactly with a numpy oracle, and checks that the signal window is
all-zero after the run; prints one line per run; exits 1 on any mismatch or run
failure.

recv_counts is written with notify(Set) by the lowered program and never
waited on: pypto-run's --check-signals treats such a window as data (published
counts), so every run, before and after lowering, must be free of residue
reports; recv_counts is compared exactly instead.

  run_all_to_all_v.py TEMPLATE OUTDIR --n N --mr MR [--extra E] [--dtype FP32]
                      [--counts-rank 1|2] [--input-kind tensor|dist]
                      [--dynamic-rows (input/target typed [NR * MR, N]; needs --extra 0)]
                      [--ranks 1,2,3,4,8] [--passes P | --pipeline NAME] [--seeds 1,2]
"""
import argparse
import os
import subprocess
import sys

import numpy as np

NP = {"FP32": np.float32, "FP16": np.float16}
SENTINEL = -7


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def parse_args(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("template")
    ap.add_argument("outdir")
    ap.add_argument("--n", type=int, default=16)
    ap.add_argument("--mr", type=int, default=3)
    ap.add_argument("--extra", type=int, default=0)
    ap.add_argument("--dtype", default="FP32")
    ap.add_argument("--counts-rank", type=int, default=1)
    ap.add_argument("--input-kind", default="tensor")
    ap.add_argument("--dynamic-rows", action="store_true")
    ap.add_argument("--ranks", default="1,2,3,4,8")
    ap.add_argument("--passes", default="lower-composite-ops")
    ap.add_argument("--pipeline", default=None)
    ap.add_argument("--seeds", default="")
    # The lowered program also runs under a PCT sweep (pypto-run --sweep: every
    # seed must pass the detectors with the first seed's outputs). 20 seeds catch
    # each planted mutant of tests/mutants with probability >= 99% per run.
    ap.add_argument("--sweep", type=int, default=20)
    return ap.parse_args(argv)


def instantiate(template, a, P):
    """The program text for rank count P (the ptoas tier instantiates the same way)."""
    rows = P * a.mr + a.extra
    drows = "NR * %d" % a.mr if a.dynamic_rows else str(rows)
    text = template.replace("@DROWS@", drows).replace("@ROWS@", str(rows)).replace("@P@", str(P)).replace("@N@", str(a.n)).replace("@DT@", a.dtype)
    text = text.replace("@CSHAPE@", "[NR]" if a.counts_rank == 1 else "[NR, 1]")
    return text.replace("@XT@", "pl.Tensor" if a.input_kind == "tensor" else "pld.DistributedTensor")


def main():
    a = parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    template = open(a.template).read()
    dt = NP[a.dtype]
    failures = 0
    schedules = [[]] + [["--schedule=random:" + s] for s in a.seeds.split(",") if s]
    for P in [int(p) for p in a.ranks.split(",")]:
        rows = P * a.mr + a.extra
        text = instantiate(template, a, P)
        src = os.path.join(a.outdir, "prog%d.pir" % P)
        open(src, "w").write(text)
        low = os.path.join(a.outdir, "lowered%d.pir" % P)
        opt = ["pypto-opt", src, "--verify-each", "--roundtrip-each", "-o", low]
        opt += ["--pipeline=" + a.pipeline] if a.pipeline else ["--passes=" + a.passes]
        rc, out = run(opt)
        if rc != 0:
            print("pypto-opt FAILED (%d):\n%s" % (rc, out))
            return 1
        if "pld.tensor.all_to_all_v(" in open(low).read():
            print("NOT LOWERED: pld.tensor.all_to_all_v still present")
            return 1
        rng = np.random.default_rng(1000 * P + a.n + a.mr)
        x = rng.integers(-8, 9, size=(P, rows, a.n)).astype(dt)
        counts = rng.integers(-2, a.mr + 3, size=(P, P)).astype(np.int32)
        if P > 1:  # make sure every interesting case occurs at least once
            counts[0, 1] = a.mr + 2
            counts[1, 0] = 0
            counts[P - 1, P - 1] = -1
        init = np.full((P, rows, a.n), SENTINEL, dtype=dt)
        ref = init.copy()
        ref_rc = np.zeros((P, P, 1), dtype=np.int32)
        for s in range(P):
            for r in range(P):
                c = int(np.clip(counts[s, r], 0, a.mr))
                ref[r, s * a.mr:s * a.mr + c] = x[s, r * a.mr:r * a.mr + c]
                ref_rc[r, s, 0] = c
        files = {}
        cshape = (P, P) if a.counts_rank == 1 else (P, P, 1)
        for name, arr in (("x", x), ("counts", counts.reshape(cshape)), ("data", init)):
            files[name] = os.path.join(a.outdir, "%s%d.npy" % (name, P))
            np.save(files[name], arr)
        pct = [["--schedule=pct:1", "--sweep", str(a.sweep)]] if a.sweep else []
        for label, prog in (("before", src), ("after", low)):
            for sched in schedules + (pct if label == "after" else []):
                od = os.path.join(a.outdir, "%s_P%d%s" % (label, P, "".join(sched).replace(":", "_").replace(" ", "")))
                os.makedirs(od, exist_ok=True)
                cmd = ["pypto-run", prog, "--entry", "kernel", "--ranks", str(P), "--output-dir", od,
                       "--check-signals", "--detect-races"] + sched
                for name, f in files.items():
                    cmd += ["--input", "%s=%s" % (name, f)]
                rc, out = run(cmd)
                tag = "%s P=%d %s" % (label, P, " ".join(sched) or "parallel")
                if rc != 0:
                    print("%s: RUN FAILED rc=%d\n%s" % (tag, rc, out))
                    failures += 1
                    continue
                # The kernel copies target and recv_counts out after the call (a
                # read that --detect-races checks against the peers' pushes).
                y = np.load(os.path.join(od, "y.npy"))
                yc = np.load(os.path.join(od, "yc.npy"))
                if not np.array_equal(np.load(os.path.join(od, "data.npy")), y) or \
                        not np.array_equal(np.load(os.path.join(od, "rc.npy")), yc):
                    print("%s: MISMATCH between the windows and the kernel's copies" % tag)
                    failures += 1
                    continue
                ys = np.load(os.path.join(od, "sig.npy"))
                if y.shape != ref.shape or not np.array_equal(y, ref):
                    bad = np.argwhere(y != ref) if y.shape == ref.shape else []
                    print("%s: MISMATCH target (%d elements differ, first %s)" %
                          (tag, len(bad), bad[:3].tolist() if len(bad) else "shape"))
                    failures += 1
                elif yc.shape != ref_rc.shape or not np.array_equal(yc, ref_rc):
                    print("%s: MISMATCH recv_counts %s != %s" % (tag, yc.reshape(P, P).tolist(),
                                                                 ref_rc.reshape(P, P).tolist()))
                    failures += 1
                elif np.any(ys != 0):
                    print("%s: SIGNAL RESIDUE %s" % (tag, ys.reshape(P, -1).tolist()))
                    failures += 1
                else:
                    print("%s: OK" % tag)
    print("FAILURES %d" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
