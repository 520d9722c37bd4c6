"""Differential runner for the host-rail pass lit tests.

Instantiates a host-orchestrator program template (@P@ = ranks, @P2@ = 2 * P,
@RROWS@ = 2 * (P - 1) + 1), runs the host passes one after another with
pypto-opt --verify-each --roundtrip-each (source -> synthesize-allreduce-signals
-> materialize-comm-domain-scopes -> lower-host-tensor-collectives) and the
whole default pipeline, then runs EVERY stage with pypto-run --check-signals
on P ranks (plus --schedule=random:SEED runs) and compares every output with a
numpy oracle, exactly. Prints one line per run and "FAILURES n"; exit 1 on any
failure.

  run_host.py TEMPLATE OUTDIR --ranks 2,4 [--seeds 1,2] [--oracle all|subset]
Oracle "all": the collectives of Inputs/host_prog.txt on every rank.
Oracle "subset": Inputs/subset_prog.txt (devices {0, 1} and {2, 3} of P = 4).
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

COLLECTIVE = re.compile(r"pld\.tensor\.(allreduce|barrier|broadcast|reduce_scatter|allgather|"
                        r"all_to_all|all_to_all_v)\(")

STAGES = [
    ("synth", "synthesize-allreduce-signals"),
    ("domains", "materialize-comm-domain-scopes"),
    ("lowered", "lower-host-tensor-collectives"),
]
M = 2  # all_to_all_v MAX_RECV


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def oracle_all(P, x, xv, cnt):
    s = x.astype(np.float64).sum(axis=0)
    out = {}
    out["y_ar"] = np.broadcast_to(s, x.shape).astype(np.float32)
    out["y_mx"] = np.broadcast_to(x.max(axis=0), x.shape).astype(np.float32)
    out["y_cn"] = out["y_ar"].copy()
    out["y_lp"] = np.broadcast_to(s * P, x.shape).astype(np.float32)
    out["y_rg"] = out["y_ar"].copy()
    out["y_bc"] = np.broadcast_to(x[1], x.shape).astype(np.float32)
    rs = x.copy()
    for r in range(P):
        rs[r, r] = s[r]
    out["y_rs"] = rs
    out["y_ag"] = np.broadcast_to(x[:, 0, :], x.shape).astype(np.float32)
    out["y_aa"] = x.transpose(1, 0, 2).copy()
    yv = np.zeros_like(xv)
    rc = np.zeros((P, P, 1), np.int32)
    for d in range(P):
        for src in range(P):
            c = min(max(int(cnt[src, d, 0]), 0), M)
            yv[d, src * M:src * M + c] = xv[src, d * M:d * M + c]
            rc[d, src, 0] = c
    out["y_v"] = yv
    out["y_rc"] = rc
    return out


def oracle_subset(P, x, xv, cnt):
    # Domain A = devices {0, 1}: allreduce (synthesized signal) of x, then
    # broadcast(root=1) of it; domain B = {2, 3}: allreduce of x (explicit signal).
    out = {}
    y = np.zeros_like(x)
    a = x[0:2].astype(np.float64).sum(axis=0)
    b = x[2:4].astype(np.float64).sum(axis=0)
    y[0:2] = a
    y[2:4] = b
    out["y"] = y
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("template")
    ap.add_argument("outdir")
    ap.add_argument("--ranks", default="2,4")
    ap.add_argument("--seeds", default="")
    ap.add_argument("--oracle", default="all")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    template = open(a.template).read()
    failures = 0
    schedules = [[]] + [["--schedule=random:" + s] for s in a.seeds.split(",") if s]
    for P in [int(p) for p in a.ranks.split(",")]:
        text = template.replace("@P2@", str(2 * P)).replace("@RROWS@", str(2 * (P - 1) + 1))
        text = text.replace("@P@", str(P))
        src = os.path.join(a.outdir, "prog%d.pir" % P)
        open(src, "w").write(text)
        progs = [("source", src)]
        prev = src
        for label, p in STAGES:
            dst = os.path.join(a.outdir, "%s%d.pir" % (label, P))
            rc, out = run(["pypto-opt", prev, "--passes=" + p, "--verify-each", "--roundtrip-each",
                           "-o", dst])
            if rc != 0:
                print("P=%d pypto-opt %s FAILED (%d):\n%s" % (P, p, rc, out))
                return 1
            progs.append((label, dst))
            prev = dst
        dst = os.path.join(a.outdir, "default%d.pir" % P)
        rc, out = run(["pypto-opt", src, "--pipeline=default", "--verify-each", "--roundtrip-each",
                       "-o", dst])
        if rc != 0:
            print("P=%d pypto-opt --pipeline=default FAILED (%d):\n%s" % (P, rc, out))
            return 1
        progs.append(("default", dst))
        for stage in ("lowered", "default"):
            text_low = open(os.path.join(a.outdir, "%s%d.pir" % (stage, P))).read()
            left = COLLECTIVE.search(text_low)
            if left:
                print("P=%d %s: NOT LOWERED: %s" % (P, stage, left.group(0)))
                failures += 1
        rng = np.random.default_rng(100 + P)
        x = rng.integers(-8, 9, size=(P, P, 64)).astype(np.float32)
        xv = rng.integers(-8, 9, size=(P, 2 * P, 64)).astype(np.float32)
        cnt = rng.integers(-1, 4, size=(P, P, 1)).astype(np.int32)
        ref = (oracle_all if a.oracle == "all" else oracle_subset)(P, x, xv, cnt)
        inputs = []
        for name, arr in (("x", x), ("xv", xv), ("cnt", cnt)):
            f = os.path.join(a.outdir, "%s%d.npy" % (name, P))
            np.save(f, arr)
            if name in template.split("def host_orch", 1)[1].split("):", 1)[0]:
                inputs += ["--input", "%s=%s" % (name, f)]
        for label, prog in progs:
            for sched in schedules:
                od = os.path.join(a.outdir, "%s_P%d%s" % (label, P, "".join(sched).replace(":", "_")))
                os.makedirs(od, exist_ok=True)
                cmd = ["pypto-run", prog, "--ranks", str(P), "--output-dir", od, "--check-signals",
                       "--detect-races"]
                rc, out = run(cmd + inputs + sched)
                tag = "%s P=%d %s" % (label, P, " ".join(sched) or "parallel")
                if rc != 0:
                    print("%s: RUN FAILED rc=%d\n%s" % (tag, rc, out))
                    failures += 1
                    continue
                bad = []
                for k, want in ref.items():
                    got = np.load(os.path.join(od, k + ".npy"))
                    if got.shape != want.shape or got.dtype != want.dtype or not np.array_equal(got, want):
                        bad.append(k)
                if bad:
                    print("%s: MISMATCH in %s" % (tag, ", ".join(bad)))
                    failures += 1
                else:
                    print("%s: OK" % tag)
    print("FAILURES %d" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
