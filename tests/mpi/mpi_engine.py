#!/usr/bin/env python3
"""The MPI engine tier (ctest `mpi_engine`, skipped when mpirun is absent).

Runs a representative set of the executor's test programs -- the ring exchange
example, ring put, lowered mesh / ring allreduce, barrier, broadcast,
allgather, all_to_all, reduce_scatter, all_to_all_v, the e2e get / defer_wait /
reduce-to-root programs, atomic puts of FP32 / FP16 / INT32, and the same
collectives as whole operations (host allreduce too) -- at P = 2 and
4, once in-process and once as

    mpirun --oversubscribe -np P pypto-run PROG --transport=mpi ...

and requires every output .npy file to be byte-identical (and, for the ring
exchange, the allreduce and the atomic puts, equal to a numpy oracle). Then
the failure paths: a wait no rank notifies must exit 3 within the deadline
with every blocked rank reported, an error on one rank must stop the blocked
others (exit 1, their waits listed), and each --transport=mpi diagnostic must
print its text (at its line:col where it has one).

  mpi_engine.py BIN_DIR SOURCE_DIR OUT_DIR [--ranks 2,4] [--built-with-mpi 0|1]
Prints one line per run; exits 1 on any failure (77, skipped, when mpirun is
missing or pypto-run was built without MPI).
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("source_dir")
    ap.add_argument("out_dir")
    ap.add_argument("--ranks", default="2,4")
    ap.add_argument("--built-with-mpi", type=int, default=1)
    return ap.parse_args()


A = parse_args()
SRC = A.source_dir
COMPOSITE = os.path.join(SRC, "tests", "lit", "passes", "lower_composite_ops", "Inputs")
sys.path.insert(0, COMPOSITE)
import run_all_to_all_v  # noqa: E402
import run_collective  # noqa: E402

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
RUN = os.path.join(A.bin_dir, "pypto-run")
OPT = os.path.join(A.bin_dir, "pypto-opt")
FAILURES = []


def sh(cmd, timeout=120):
    t0 = time.time()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV,
                       timeout=timeout)
    return p.returncode, p.stdout, time.time() - t0


def mpirun(P, args, timeout=120):
    return sh(["mpirun", "--oversubscribe", "-np", str(P), RUN] + args + ["--transport=mpi"],
              timeout)


def fail(what, out=""):
    FAILURES.append(what)
    print("FAIL " + what)
    if out:
        print(out)


# ------------------------------------------------------------------ programs
def template(module, argv, path):
    """A program-template instantiation of the lower-composite-ops runners."""
    a = module.parse_args(argv)
    text = open(os.path.join(COMPOSITE, path)).read()
    return lambda P: module.instantiate(text, a, P)


def collective(kind, path, *extra):
    return template(run_collective, [kind, path, "-"] + list(extra), path)


def from_file(rel):
    return lambda P: open(os.path.join(SRC, rel)).read()


def rng_ints(shape, dtype, seed):
    return np.random.default_rng(seed).integers(-8, 9, size=shape).astype(dtype)


def ring_inputs(P):
    return {"x": rng_ints((P, 16, 64), np.float32, P)}


def ring_oracle(P, ins):
    return {"y": np.roll(ins["x"], 1, axis=0)}


def allreduce_inputs(P):
    return {"x": rng_ints((P, 1, 4097), np.float32, 10 + P)}


def allreduce_oracle(P, ins):
    x = ins["x"]
    return {"y": np.broadcast_to(x.sum(axis=0), x.shape).astype(np.float32)}


def atomic_inputs(P):
    return {"x": rng_ints((P, 4, 16), np.float32, 20 + P), "h": rng_ints((P, 4, 16), np.float16, 30 + P),
            "i": rng_ints((P, 4, 16), np.int32, 40 + P)}


def atomic_oracle(P, ins):
    out = {}
    for name, src in (("y", "x"), ("hy", "h"), ("iy", "i")):
        x = ins[src]
        want = np.zeros_like(x)  # ranks != 0 copy their own (untouched) window
        want[0] = x.astype(np.float64).sum(axis=0).astype(x.dtype)
        out[name] = want
    return out


LOWER = ["--passes=lower-composite-ops"]
DEFAULT = ["--pipeline=default"]
# name, program(P) -> text, pypto-opt args (None: run as written), inputs(P), oracle(P, inputs)
CASES = [
    ("ring_exchange", from_file("examples/ring_exchange.pir"), None, ring_inputs, ring_oracle),
    ("ring_put lowered", from_file("tests/lit/sim/ring_put.pir"), DEFAULT, None, None),
    ("atomic_gather", from_file("tests/mpi/atomic_gather.pir"), None, atomic_inputs, atomic_oracle),
    ("allreduce mesh FP32", collective("allreduce", "allreduce_prog.txt", "--n", "4097"), LOWER,
     allreduce_inputs, allreduce_oracle),
    ("allreduce mesh FP16 Max", collective("allreduce", "allreduce_prog.txt", "--n", "17", "--dtype",
                                           "FP16", "--op", "Max"), LOWER, None, None),
    ("allreduce ring FP32", collective("allreduce", "ring_prog.txt", "--n", "4097"), LOWER,
     allreduce_inputs, allreduce_oracle),
    ("barrier", collective("barrier", "barrier_prog.txt", "--n", "64"), LOWER, None, None),
    ("broadcast", collective("broadcast", "broadcast_prog.txt", "--n", "33"), LOWER, None, None),
    ("allgather", collective("allgather", "gather_prog.txt", "--n", "16"), LOWER, None, None),
    ("all_to_all", collective("all_to_all", "gather_prog.txt", "--n", "16"), LOWER, None, None),
    ("reduce_scatter", collective("reduce_scatter", "reduce_scatter_prog.txt", "--n", "16"), LOWER,
     None, None),
    ("all_to_all_v", template(run_all_to_all_v, ["aav_prog.txt", "-", "--n", "16", "--mr", "3"],
                              "aav_prog.txt"), LOWER, None, None),
    # The same collectives as whole operations (the rendezvous is messages among
    # the processes; domain rank 0 runs the operation through the transport).
    ("allreduce whole-op", collective("allreduce", "allreduce_prog.txt", "--n", "4097"), None,
     allreduce_inputs, allreduce_oracle),
    ("barrier whole-op", collective("barrier", "barrier_prog.txt", "--n", "64"), None, None, None),
    ("broadcast whole-op", collective("broadcast", "broadcast_prog.txt", "--n", "33"), None, None,
     None),
    ("allgather whole-op", collective("allgather", "gather_prog.txt", "--n", "16"), None, None, None),
    ("all_to_all whole-op", collective("all_to_all", "gather_prog.txt", "--n", "16"), None, None,
     None),
    ("reduce_scatter whole-op", collective("reduce_scatter", "reduce_scatter_prog.txt", "--n", "16"),
     None, None, None),
    ("all_to_all_v whole-op", template(run_all_to_all_v, ["aav_prog.txt", "-", "--n", "16", "--mr",
                                                          "3"], "aav_prog.txt"), None, None, None),
    ("host allreduce", from_file("tests/lit/sim/host_allreduce.pir"), None, None, None),
    ("get lowered", from_file("tests/lit/e2e/get.pir"), DEFAULT, None, None),
    ("defer_wait lowered", from_file("tests/lit/e2e/defer_wait.pir"), DEFAULT, None, None),
    ("reduce_to_root", from_file("tests/lit/e2e/reduce_to_root.pir"), None, None, None),
]


def load_outputs(d):
    return {f[:-4]: open(os.path.join(d, f), "rb").read() for f in sorted(os.listdir(d))
            if f.endswith(".npy")}


def differential_case(P, name, prog, opt, inputs, oracle):
    """Runs one case at P ranks in both engines; returns (ok, message)."""
    d = os.path.join(A.out_dir, "%s.P%d" % (name.replace(" ", "_"), P))
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, "prog.pir")
    open(src, "w").write(prog(P))
    if opt:
        low = os.path.join(d, "lowered.pir")
        rc, out, _ = sh([OPT, src, "-o", low] + opt)
        if rc != 0:
            return False, "%s P=%d: pypto-opt exit %d\n%s" % (name, P, rc, out)
        src = low
    args = [src, "--check-signals"]
    ins = inputs(P) if inputs else None
    if ins:
        for k, v in ins.items():
            np.save(os.path.join(d, k + ".npy"), v)
            args += ["--input", "%s=%s" % (k, os.path.join(d, k + ".npy"))]
    else:
        args += ["--inputs-random=%d" % P]
    rc, out, _ = sh([RUN] + args + ["--ranks", str(P), "--output-dir", os.path.join(d, "inprocess")])
    if rc != 0:
        return False, "%s P=%d: in-process exit %d\n%s" % (name, P, rc, out)
    rc, out, secs = mpirun(P, args + ["--output-dir", os.path.join(d, "mpi")])
    if rc != 0:
        return False, "%s P=%d: mpi exit %d\n%s" % (name, P, rc, out)
    ref, got = load_outputs(os.path.join(d, "inprocess")), load_outputs(os.path.join(d, "mpi"))
    if not ref or ref.keys() != got.keys():
        return False, "%s P=%d: outputs %s (in-process) vs %s (mpi)" % (name, P, list(ref), list(got))
    bad = [k for k in ref if ref[k] != got[k]]
    if oracle:
        want = oracle(P, ins)
        bad += ["%s != numpy" % k for k in want
                if not np.array_equal(np.load(os.path.join(d, "mpi", k + ".npy")), want[k])]
    if bad:
        return False, "%s P=%d: %s differ" % (name, P, ", ".join(bad))
    return True, "%s P=%d: mpi == in-process (%d outputs%s, %.2f s)" % (
        name, P, len(ref), ", == numpy" if oracle else "", secs)


def differential(P):
    # Two cases at a time (the ctest reserves 2 processors); printed in order.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for ok, msg in pool.map(lambda c: differential_case(P, *c), CASES):
            if ok:
                print(msg)
            else:
                fail(msg)


# ------------------------------------------------------------------ failures
def expect(what, rc, out, code, patterns, secs=None, within=None):
    missing = [p for p in patterns if not re.search(p, out, re.M)]
    if rc != code or missing or (within is not None and secs > within):
        fail("%s: exit %d (want %d)%s%s" % (what, rc, code,
                                            "; missing " + repr(missing) if missing else "",
                                            "; took %.1f s (limit %.1f)" % (secs, within)
                                            if within is not None and secs > within else ""), out)
    else:
        print("%s: exit %d, reported%s" % (what, rc, " in %.2f s" % secs if secs else ""))


def failures(P):
    t = os.path.join(SRC, "tests", "mpi")
    # A wait no rank notifies: every rank reports its blocked wait within the deadline.
    rc, out, secs = mpirun(P, [os.path.join(t, "wait_nobody.pir"), "--entry", "k", "--deadline", "1"])
    expect("wait_nobody P=%d" % P, rc, out, 3,
           [r"^\[rank %d\]   rank %d \(thread rank%d\) blocked in pld\.system\.wait in function 'k' at "
            r"\S*wait_nobody\.pir:18: signal 'sig' \(window 'sig'\) cell \[%d, 0\] expected >= 1 \(Ge\), "
            r"actual 0$" % (r, r, r, r) for r in range(P)], secs, 1 + 10)
    if P < 4:
        return
    # Rank 1 skips its notify: rank 2 waits forever; the others are stopped.
    rc, out, secs = mpirun(P, [os.path.join(SRC, "tests", "lit", "sim", "deadlock.pir"), "--entry", "k",
                               "--inputs-random=1", "--deadline", "1",
                               "--output-dir", os.path.join(A.out_dir, "deadlock")])
    blocked = 2
    expect("deadlock.pir P=%d" % P, rc, out, 3,
           [r"^\[rank %d\] error: deadlock: a wait made no progress for [0-9.]+ s \(--deadline 1\)$" % blocked,
            r"^\[rank %d\]   rank %d \(thread rank%d\) blocked in pld\.system\.wait" % ((blocked,) * 3),
            r"error: this rank stopped because the run failed on rank\(s\) %d \(exit 3\); their report "
            r"names the cause$" % blocked], secs, 1 + 10)
    # An error on rank 1 stops the others at once; they say where they waited.
    rc, out, secs = mpirun(P, [os.path.join(t, "error_stops_waiters.pir"), "--entry", "k", "--deadline", "60"])
    others = [r for r in range(P) if r != 1]
    expect("error_stops_waiters P=%d" % P, rc, out, 1,
           [r"^\[rank 1\] \S*error_stops_waiters\.pir:19:13: error: pld\.system\.notify: out-of-bounds peer "
            r"access: peer 11 is not a rank of the comm domain \{0, 1, 2, 3\} of window 'sig' \(4 ranks\) "
            r"\(on rank 1\)$"] +
           [r"^\[rank %d\] error: this rank stopped because the run failed on rank\(s\) 1 \(exit 1\); their "
            r"report names the cause$" % r for r in others] +
           [r"^\[rank %d\]   rank %d \(thread rank%d\) blocked in pld\.system\.wait in function 'k' at "
            r"\S*error_stops_waiters\.pir:20: signal 'sig' \(window 'sig'\) cell \[%d, 0\] expected >= 1 "
            r"\(Ge\), actual 0$" % (r, r, r, r) for r in others], secs, 10)


def diagnostics():
    t = os.path.join(SRC, "tests", "mpi")
    ring = os.path.join(SRC, "examples", "ring_exchange.pir")
    rc, out, _ = mpirun(2, [ring, "--ranks", "4", "--inputs-random=1"])
    expect("--ranks 4 under -np 2", rc, out, 2,
           [r"^\[ranks 0, 1\] error: --ranks 4 differs from the 2 processes mpirun started; one process "
            r"runs one rank \(leave --ranks out, or start mpirun -np 4\)$"])
    rc, out, _ = mpirun(2, [ring, "--inputs-random=1", "--detect-races"])
    expect("--detect-races", rc, out, 2,
           [r"error: --detect-races needs every rank in one process \(the in-process engine, "
            r"--transport=inprocess\): it keeps vector clocks of every rank's accesses$"])
    rc, out, _ = mpirun(2, [ring, "--inputs-random=1", "--schedule=random:3"])
    expect("--schedule=random", rc, out, 2,
           [r"error: --schedule=random:3 needs every rank in one process \(the in-process engine, "
            r"--transport=inprocess\): it orders the threads of every rank$"])
    # Ranks that reach different collectives: the same report as in-process.
    rc, out, _ = mpirun(2, [os.path.join(t, "collective_mismatch.pir"), "--entry", "k"])
    expect("collective mismatch", rc, out, 1,
           [r"^\[rank %d\] \S*collective_mismatch\.pir:%s: error: pld\.tensor\.%s: collective mismatch on "
            r"comm domain \{0, 1\}: collective #0 is pld\.tensor\.barrier on rank 0 "
            r"\(\S*collective_mismatch\.pir:17\) but pld\.tensor\.allreduce on rank 1 "
            r"\(\S*collective_mismatch\.pir:19\); every rank must call the same collectives in the "
            r"same order \(on rank %d\)$" % (r, where, op, r)
            for r, where, op in ((0, "17:19", "barrier"), (1, "19:20", "allreduce"))])
    # A host-tensor operand of another kind (a tile) cannot be sent: never reached
    # by verified programs, so not tested here.
    # MPMD: the two processes run different programs, whose windows diverge.
    a, b = os.path.join(t, "wait_nobody.pir"), os.path.join(SRC, "tests", "lit", "sim", "deadlock.pir")
    rc, out, _ = sh(["mpirun", "--oversubscribe", "-np", "1", RUN, a, "--entry", "k", "--transport=mpi",
                     "--ranks", "2", ":", "-np", "1", RUN, b, "--entry", "k", "--transport=mpi",
                     "--ranks", "2", "--inputs-random=1"])
    expect("diverging windows (MPMD)", rc, out, 1,
           [r"^\[rank 0\] \S*wait_nobody\.pir:13:17: error: window allocation #0 diverges across the "
            r"processes: rank 0 allocates 'sig' \(64 bytes\) at line 13:17 but rank 1 allocates 'dst' "
            r"\(64 bytes\) at line 25:50; with --transport=mpi every process allocates the same windows "
            r"in the same order \(allocate them in the host orchestrator, not under a rank-dependent "
            r"condition\)$"])


def main():
    if not shutil.which("mpirun") or not A.built_with_mpi:
        print("SKIP: %s (apt-get install openmpi-bin libopenmpi-dev, then re-run cmake)" %
              ("mpirun not found" if A.built_with_mpi else "pypto-run was built without MPI"))
        return 77
    shutil.rmtree(A.out_dir, ignore_errors=True)
    os.makedirs(A.out_dir)
    ENV["PATH"] = A.bin_dir + os.pathsep + ENV.get("PATH", "")
    t0 = time.time()
    for P in [int(p) for p in A.ranks.split(",")]:
        differential(P)
        failures(P)
    diagnostics()
    print("FAILURES %d (%.1f s)" % (len(FAILURES), time.time() - t0))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
