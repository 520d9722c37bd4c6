"""The InCore allreduce matrix: mesh and ring x {FP32, FP16} x {Sum, Max, Min,
Prod} x P in {1, 2, 3, 4, 8} x sizes {1, 17, 4097, 65537} x {static, dynamic}
(plus six cases of 2^20 elements, BIG, and partially valid targets), each lowered by lower-composite-ops and run on
pypto-run against the whole-op run of the same input.

Programs: a static mesh target [1, N] (allreduce_prog.txt); a static ring,
signal [2*(P-1), P] per P (ring_prog.txt); a dynamic one, target [1, N] with
N = pl.dynamic("N") and signal [NR, 1] / [2*(NR-1), NR] with NR dynamic
(allreduce_dyn_prog.txt: one lowered program serves every P and size); partial
valid boxes (allreduce_partial_prog.txt: a mesh rectangle, static and with a
symbolic row count, and a ring row-major prefix). Seed limits: a dynamic ring
does not run at P = 1 (its [2*(NR-1), NR] signal would have no rows).

Inputs are exact integers (|x| <= 8; Prod: +-1, +-2), so every reduction order
agrees bit for bit, in FP16 too (|sum| <= 64, |prod| <= 2^8). Each case runs the
lowered program once under --schedule=random:SEED (one seed per case) with
--check-signals --detect-races, and --check-alignment except FP32 rings (the
seed's balanced floor(i * SIZE / NR) FP32 segment boundaries are not 32-byte
aligned); the output must equal the whole-op run (the unlowered program,
same input) and numpy. A few cases also run a PCT sweep. Prints failing cases
and a summary; exits 1 on any failure.

  allreduce_matrix.py INPUTS_DIR OUTDIR [--jobs 2]

programs(argv) gives the ptoas tier (tests/ptoas/ptoas_tier.py) every distinct
program this matrix lowers.
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import zlib

NP = None  # numpy, imported by main (the ptoas tier needs only programs())

DTYPES = ("FP32", "FP16")
OPS = ("Sum", "Max", "Min", "Prod")
RANKS = (1, 2, 3, 4, 8)
SIZES = (1, 17, 4097, 65537)
# 2^20 elements: a sample of the product (each mode and dtype, every ReduceOp, static
# and dynamic, P from 1 to 8), to keep the run short.
BIG = (("mesh", "FP32", "Sum", 4, "dynamic"), ("mesh", "FP16", "Prod", 8, "static"),
       ("mesh", "FP32", "Max", 1, "static"), ("ring", "FP16", "Min", 8, "dynamic"),
       ("ring", "FP32", "Max", 3, "static"), ("ring", "FP16", "Sum", 2, "static"))
# (mode, R, C, valid rows, valid cols, symbolic rows): partial valid targets.
PARTIAL = (("mesh", 4, 17, 3, 10, False), ("mesh", 8, 40, 5, 40, True),
           ("ring", 4, 33, 3, 33, False))
PCT = {("mesh", "FP16", "Max", 3, 4097, "dynamic"), ("ring", "FP32", "Sum", 3, 4097, "static"),
       ("ring", "FP16", "Prod", 4, 17, "dynamic"), ("mesh", "FP32", "Min", 4, 17, "static")}


def parse_args(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("inputs")
    ap.add_argument("outdir")
    ap.add_argument("--jobs", type=int, default=2)
    return ap.parse_args(argv)


def sub(text, **kw):
    for k, v in kw.items():
        text = text.replace("@%s@" % k, str(v))
    return text


def ring_sig(P):
    return max(2 * (P - 1), 1), P


def cases():
    """(mode, dtype, op, P, n, kind) of every full-target case."""
    for mode in ("mesh", "ring"):
        for dt in DTYPES:
            for op in OPS:
                for P in RANKS:
                    for n in SIZES:
                        yield mode, dt, op, P, n, "static"
                        if not (mode == "ring" and P == 1):
                            yield mode, dt, op, P, n, "dynamic"
    for mode, dt, op, P, kind in BIG:
        yield mode, dt, op, P, 1 << 20, kind


def partial_cases():
    """(mode, dtype, op, P, (R, C, VR, VC, symbolic)): every op, dtypes and ranks rotated."""
    i = 0
    for mode, R, C, VR, VC, sym in PARTIAL:
        for op in OPS:
            for dt in DTYPES:
                P = (2, 3, 4, 8)[i % 4]
                i += 1
                yield mode, dt, op, P, (R, C, VR, VC, sym)


def program_key(mode, dt, op, P, n, kind):
    if kind == "dynamic":
        return ("dyn", mode, dt, op)
    return ("static", mode, dt, op, n) + ((P,) if mode == "ring" else ())


def program_text(inputs, key):
    """The source program for a key of program_key / partial_key."""
    read = lambda f: open(os.path.join(inputs, f), encoding="utf-8").read()
    if key[0] == "dyn":
        _, mode, dt, op = key
        sig = "NR, 1" if mode == "mesh" else "2 * (NR - 1), NR"
        return sub(read("allreduce_dyn_prog.txt"), DT=dt, OP=op, MODE=mode, SIG=sig)
    if key[0] == "static":
        mode, dt, op, n = key[1:5]
        if mode == "mesh":
            return sub(read("allreduce_prog.txt"), N=n, DT=dt, OP=op)
        rows, P = ring_sig(key[5])
        return sub(read("ring_prog.txt"), N=n, DT=dt, OP=op, SR=rows, P=P)
    _, mode, dt, op, P, (R, C, VR, VC, sym) = key
    sig = "NR, 1" if mode == "mesh" else "%d, %d" % ring_sig(P)
    return sub(read("allreduce_partial_prog.txt"), R=R, C=C, VR="vr" if sym else VR, VC=VC,
               VRV=VR, DT=dt, OP=op, MODE=mode, SIG=sig)


def partial_key(mode, dt, op, P, box):
    return ("partial", mode, dt, op, P if mode == "ring" else 0, box)


def all_keys():
    keys = {}
    for c in cases():  # the case's program and its whole-op (static) program
        keys.update({program_key(*c): None, program_key(*c[:5], "static"): None})
    keys.update({partial_key(*c): None for c in partial_cases()})
    return list(keys)


def label(key):
    return "allreduce_matrix " + " ".join(str(k) for k in key)


def programs(argv):
    """(label, program text) of every program the matrix lowers (for ptoas_tier.py)."""
    a = parse_args(argv)
    return [(label(k), program_text(a.inputs, k)) for k in all_keys()]


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main():
    global NP
    import numpy
    NP = numpy
    a = parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    keys = all_keys()
    paths = {}

    def lower(i, key):
        src = os.path.join(a.outdir, "p%d.pir" % i)
        low = os.path.join(a.outdir, "p%d.low.pir" % i)
        open(src, "w", encoding="utf-8").write(program_text(a.inputs, key))
        rc, out = run(["pypto-opt", src, "--passes=lower-composite-ops", "--verify-each",
                       "--roundtrip-each", "-o", low])
        if rc != 0:
            return "%s: pypto-opt FAILED (%d)\n%s" % (label(key), rc, out)
        if "pld.tensor.allreduce(" in open(low, encoding="utf-8").read():
            return "%s: NOT LOWERED" % label(key)
        paths[key] = (src, low)
        return None

    failures = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        failures += [f for f in pool.map(lambda ik: lower(*ik), enumerate(keys)) if f]
    if failures:
        print("\n".join(failures))
        print("FAILURES %d" % len(failures))
        return 1

    np = NP
    dt_of = {"FP32": np.float32, "FP16": np.float16}
    red_of = {"Sum": np.sum, "Max": np.max, "Min": np.min, "Prod": np.prod}
    inputs = {}

    def data(dt, op, P, shape):
        k = (dt, op, P, shape)
        if k not in inputs:
            rng = np.random.default_rng(zlib.crc32(repr(k).encode()))
            if op == "Prod":
                x = rng.choice([-2.0, -1.0, 1.0, 2.0], size=(P,) + shape)
            else:
                x = rng.integers(-8, 9, size=(P,) + shape)
            path = os.path.join(a.outdir, "x%d.npy" % len(inputs))
            np.save(path, x.astype(dt_of[dt]))
            inputs[k] = (path, x)
        return inputs[k]

    def exec_(prog, P, x, tag, flags):
        od = os.path.join(a.outdir, tag)
        rc, out = run(["pypto-run", prog, "--ranks", str(P), "--input", "x=" + x, "--output-dir", od,
                       "--check-signals", "--detect-races"] + flags)
        if rc != 0:
            return None, "RUN FAILED rc=%d\n%s" % (rc, out[:2000])
        return np.load(os.path.join(od, "y.npy")), None

    jobs = []  # (name, key, whole-op key, P, dt, op, shape, box, flags)
    for c in cases():
        mode, dt, op, P, n, kind = c
        whole = program_key(mode, dt, op, P, n, "static")
        jobs.append((" ".join(map(str, c)), program_key(*c), whole, P, dt, op, (1, n), None,
                     mode == "ring" and dt == "FP32", c in PCT))
    for c in partial_cases():
        mode, dt, op, P, box = c
        R, C, VR, VC, _ = box
        k = partial_key(*c)
        jobs.append(("partial " + " ".join(map(str, c)), k, k, P, dt, op, (R, C), box,
                     mode == "ring" and dt == "FP32", False))

    whole_out = {}

    def one(i, job):
        name, key, whole, P, dt, op, shape, box, unaligned, pct = job
        x_path, x = data(dt, op, P, shape)
        ref = x.astype(np.float64)
        if box is None:
            ref = np.broadcast_to(red_of[op](ref, axis=0), x.shape)
        else:
            R, C, VR, VC, _ = box
            ref = ref.copy()
            if key[1] == "mesh":
                ref[:, :VR, :VC] = red_of[op](ref[:, :VR, :VC], axis=0)
            else:  # ring: the row-major prefix of VR * VC elements
                flat = ref.reshape(P, R * C)
                flat[:, :VR * VC] = red_of[op](flat[:, :VR * VC], axis=0)
        ref = ref.astype(dt_of[dt])
        flags = [] if unaligned else ["--check-alignment"]
        before, err = whole_out[(whole, P, x_path)]
        if err:
            return "%s: whole-op %s" % (name, err)
        scheds = [["--schedule=random:%d" % (i + 1)]]
        if pct:
            scheds.append(["--schedule=pct:1", "--sweep", "10"])
        for s in scheds:
            y, err = exec_(paths[key][1], P, x_path, "l%d_%d" % (i, len(s)), flags + s)
            if err:
                return "%s %s: lowered %s" % (name, " ".join(s), err)
            if not np.array_equal(y, before) or not np.array_equal(before, ref):
                bad = np.argwhere(y != ref)
                return "%s %s: MISMATCH (%d elements differ from numpy, first %s; whole-op %s)" % (
                    name, " ".join(s), len(bad), bad[:3].tolist(),
                    "ok" if np.array_equal(before, ref) else "differs")
        return None

    # Whole-op runs are shared between cases (the inputs are made here, once).
    for job in jobs:
        whole, P, dt, op, shape = job[2], job[3], job[4], job[5], job[6]
        whole_out[(whole, P, data(dt, op, P, shape)[0])] = None
    pending = list(whole_out)

    def whole_run(j, wk):
        whole, P, x_path = wk
        unaligned = whole[1] == "ring" and whole[2] == "FP32"
        return wk, exec_(paths[whole][0], P, x_path, "w%d" % j, [] if unaligned else
                         ["--check-alignment"])

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for wk, res in pool.map(lambda jw: whole_run(*jw), enumerate(pending)):
            whole_out[wk] = res
        failures = [f for f in pool.map(lambda ij: one(*ij), enumerate(jobs)) if f]
    for f in failures:
        print(f)
    print("allreduce_matrix: %d cases, %d lowered programs, %d whole-op runs" %
          (len(jobs), len(keys), len(whole_out)))
    print("FAILURES %d" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
