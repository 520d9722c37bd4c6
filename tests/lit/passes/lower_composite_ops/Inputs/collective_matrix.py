"""The matrix of run_collective.py (`run_collective.py matrix - OUTDIR`).

Every data collective the InCore lowering handles (broadcast, allgather,
all_to_all, reduce_scatter, all_to_all_v) x {FP32, FP16} x row sizes
{1, 17, 4097, 4112, 65537} x {static dims, dynamic dims (NR and M =
pl.dynamic, bound at run time from the tensor parameters)}; the rank count P
cycles through 1, 2, 3, 4, 8 and reduce_scatter's ReduceOp through Sum, Max,
Min, Prod, so every P meets every collective and size class. Plus one case of
2^20 elements per collective (BIG; FP16 / FP32, static / dynamic and P in 2, 3,
4 alternating; a PCT sweep of 1).

Each program is a kernel entry that runs its collective TWICE back to back on
one window and one signal, with different inputs and a copy-out after each call
(pld.tensor.get of the window into an output window, so --detect-races sees the
reads of call 1's result racing with a fast peer's writes of call 2 if the
lowering lets that happen) and no barrier in between. Per case: lower with
pypto-opt (--verify-each --roundtrip-each), run the original (whole-op) and the
lowered program with --check-signals --detect-races (the lowered one under
--schedule=random:P and a PCT sweep), compare every output exactly with a
numpy oracle on integer-valued inputs. --check-alignment is on where the
layout allows a 32-byte aligned start for every transfer: broadcast (a flat
[1, N] view chunked at 16 KiB) and the row collectives when a row is a
multiple of 32 bytes (4112) or P = 1; rows of 1, 17, 4097 or 65537 elements
start at unaligned addresses by the user's layout, which no lowering can fix.

programs(a) lists (label, text) for the ptoas tier.
"""
import concurrent.futures
import os
import subprocess

import numpy as np

NP = {"FP32": np.float32, "FP16": np.float16}
KINDS = ["broadcast", "allgather", "all_to_all", "reduce_scatter", "all_to_all_v"]
SIZES = [1, 17, 4097, 4112, 65537]
BIG = 1 << 20  # one case per kind (see cases)
RANKS = [1, 2, 3, 4, 8]
OPS = ["Sum", "Max", "Min", "Prod"]
MR = 2  # all_to_all_v: MAX_RECV
SENTINEL = -7


def cases(kinds=None):
    """Every kind x dtype x size x static/dynamic; P and the ReduceOp rotate so
    that each kind meets every P at small and large sizes in both dtypes."""
    out = []
    for k, kind in enumerate(kinds or KINDS):
        for t, dt in enumerate(("FP32", "FP16")):
            for s, n in enumerate(SIZES):
                for dyn in (False, True):
                    out.append({"kind": kind, "dt": dt, "n": n, "dyn": dyn,
                                "P": RANKS[(2 * s + dyn + 3 * t + KINDS.index(kind)) % len(RANKS)],
                                "op": OPS[(2 * s + dyn + t) % len(OPS)]})
    for kind in kinds or KINDS:  # 2^20 elements once per kind (dtype, P, dims and op vary)
        i = KINDS.index(kind)
        out.append({"kind": kind, "dt": ("FP16", "FP32")[i % 2], "n": BIG, "dyn": i % 2 == 0,
                    "P": (2, 4, 3, 2, 2)[i], "op": OPS[i % len(OPS)]})
    return out


def name(c):
    op = "_" + c["op"] if c["kind"] == "reduce_scatter" else ""
    return "%s_%s_n%d_%s_P%d%s" % (c["kind"], c["dt"], c["n"], "dyn" if c["dyn"] else "static", c["P"], op)


def chunk(c):
    """The copy-in / copy-out chunk: 16 KiB of elements."""
    return 16384 // (4 if c["dt"] == "FP32" else 2)


def program(c):
    P, n, dt, kind = c["P"], c["n"], c["dt"], c["kind"]
    R = "NR" if c["dyn"] else str(P)
    S = "M" if c["dyn"] else str(n)
    ch = chunk(c)
    head = ["import pypto.language as pl", "import pypto.language.distributed as pld", ""]
    if c["dyn"]:
        head += ['NR = pl.dynamic("NR")', 'M = pl.dynamic("M")', ""]
    head += ["", "@pl.program", "class Matrix:", "    @pl.function(type=pl.FunctionType.InCore)"]
    T = "pl.%s" % dt
    get = "        pld.tensor.get(%s, me, %s, chunk_rows=1, chunk_cols=%d)"
    # Inputs and outputs are windows too: a window slice starts 32-byte aligned
    # on every rank, a rank's row of a world-shaped host tensor need not.
    OUT = "pl.InOut[pld.DistributedTensor"
    if kind == "all_to_all_v":
        RR = "%s * %d" % (R, MR) if c["dyn"] else str(P * MR)
        params = ["x: pld.DistributedTensor[[%s, %s], %s]" % (RR, S, T),
                  "x2: pld.DistributedTensor[[%s, %s], %s]" % (RR, S, T),
                  "counts: pl.Tensor[[%s], pl.INT32]" % R, "counts2: pl.Tensor[[%s], pl.INT32]" % R,
                  "data: pl.InOut[pld.DistributedTensor[[%s, %s], %s]]" % (RR, S, T),
                  "sig: pl.InOut[pld.DistributedTensor[[%s, 1], pl.INT32]]" % R,
                  "rc: pl.InOut[pld.DistributedTensor[[%s, 1], pl.INT32]]" % R,
                  "y: %s[[%s, %s], %s]]" % (OUT, RR, S, T), "yc: %s[[%s, 1], pl.INT32]]" % (OUT, R),
                  "y2: %s[[%s, %s], %s]]" % (OUT, RR, S, T), "yc2: %s[[%s, 1], pl.INT32]]" % (OUT, R)]
        body = []
        for xs, cs, ys, ycs in (("x", "counts", "y", "yc"), ("x2", "counts2", "y2", "yc2")):
            body += ["        data = pld.tensor.all_to_all_v(%s, data, sig, %s, rc)" % (xs, cs),
                     get % (ys, "data", ch), "        pld.tensor.get(%s, me, rc, chunk_rows=1, chunk_cols=1)" % ycs]
    else:
        rows = {"broadcast": R, "reduce_scatter": R, "allgather": "1", "all_to_all": R}[kind]
        XS = "[[%s, %s], %s]" % (rows, S, T)
        DS = "[[%s, %s], %s]" % (R, S, T)
        params = ["x: pld.DistributedTensor%s" % XS, "x2: pld.DistributedTensor%s" % XS,
                  "data: pl.InOut[pld.DistributedTensor%s]" % DS,
                  "sig: pl.InOut[pld.DistributedTensor[[%s, 1], pl.INT32]]" % R,
                  "y: %s%s]" % (OUT, DS), "y2: %s%s]" % (OUT, DS)]
        body = []
        for xs, ys in (("x", "y"), ("x2", "y2")):
            if kind in ("broadcast", "reduce_scatter"):
                body.append("        pld.tensor.put(data, me, %s, atomic=pld.AtomicType.None_, chunk_rows=1, "
                            "chunk_cols=%d)" % (xs, ch))
                call = ("pld.tensor.broadcast(data, sig, root=%d)" % (P - 1) if kind == "broadcast" else
                        "pld.tensor.reduce_scatter(data, sig, op=pld.ReduceOp.%s)" % c["op"])
            else:
                call = "pld.tensor.%s(%s, data, sig)" % (kind, xs)
            body += ["        data = " + call, get % (ys, "data", ch)]
    lines = head + ["    def kernel(self, %s):" % ", ".join(params),
                    "        ctx = pld.get_comm_ctx(data)", "        me = pld.rank(ctx)"] + body + ["        return", ""]
    return "\n".join(lines)


def data_inputs(c, rng):
    """{name: array} of the entry's inputs and {name: array} of the expected outputs."""
    P, n, kind = c["P"], c["n"], c["kind"]
    dt = NP[c["dt"]]
    prod = kind == "reduce_scatter" and c["op"] == "Prod"

    def draw(shape):
        if prod:  # |product| <= 2^8 for P <= 8: exact in FP16 too
            return rng.choice([-2.0, -1.0, 1.0, 2.0], size=shape).astype(dt)
        return rng.integers(-8, 9, size=shape).astype(dt)

    if kind == "all_to_all_v":
        rows = P * MR
        ins = {"data": np.full((P, rows, n), SENTINEL, dtype=dt)}
        cur = ins["data"].copy()
        out = {}
        for xs, cs, ys, ycs in (("x", "counts", "y", "yc"), ("x2", "counts2", "y2", "yc2")):
            x = draw((P, rows, n))
            counts = rng.integers(-2, MR + 3, size=(P, P)).astype(np.int32)
            if P > 1:
                counts[0, 1] = MR + 2
                counts[1, 0] = 0
                counts[P - 1, P - 1] = -1
            rc = np.zeros((P, P, 1), dtype=np.int32)
            for s in range(P):
                for r in range(P):
                    k = int(np.clip(counts[s, r], 0, MR))
                    cur[r, s * MR:s * MR + k] = x[s, r * MR:r * MR + k]
                    rc[r, s, 0] = k
            ins[xs], ins[cs] = x, counts
            out[ys], out[ycs] = cur.copy(), rc
        return ins, out
    rows = 1 if kind == "allgather" else P
    ins, out = {}, {}
    for xs, ys in (("x", "y"), ("x2", "y2")):
        x = draw((P, rows, n))
        ins[xs] = x
        if kind == "broadcast":
            out[ys] = np.broadcast_to(x[P - 1], x.shape).copy()
        elif kind == "allgather":
            out[ys] = np.broadcast_to(x[:, 0, :], (P, P, n)).copy()
        elif kind == "all_to_all":
            out[ys] = x.transpose(1, 0, 2).copy()
        else:
            red = {"Sum": np.sum, "Max": np.max, "Min": np.min, "Prod": np.prod}[c["op"]]
            y = x.copy()
            for r in range(P):
                y[r, r] = red(x[:, r, :].astype(np.float64), axis=0).astype(dt)
            out[ys] = y
    return ins, out


def aligned(c):
    if c["kind"] == "broadcast" or c["P"] == 1:
        return True
    return c["n"] * (4 if c["dt"] == "FP32" else 2) % 32 == 0


def programs(a):
    kinds = a.kinds.split(",") if a.kinds else None
    return [(name(c), program(c)) for c in cases(kinds)]


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def run_case(c, a):
    """Lines reporting the case and its failure count."""
    d = os.path.join(a.outdir, name(c))
    os.makedirs(d, exist_ok=True)
    src, low = os.path.join(d, "prog.pir"), os.path.join(d, "lowered.pir")
    open(src, "w").write(program(c))
    rc, out = run(["pypto-opt", src, "--verify-each", "--roundtrip-each", "--passes=lower-composite-ops",
                   "-o", low])
    if rc != 0:
        return ["%s: pypto-opt FAILED (%d):\n%s" % (name(c), rc, out)], 1
    if "pld.tensor.%s(" % c["kind"] in open(low).read():
        return ["%s: NOT LOWERED" % name(c)], 1
    rng = np.random.default_rng(1000 * c["P"] + c["n"] + 7 * KINDS.index(c["kind"]))
    ins, ref = data_inputs(c, rng)
    args = []
    for k, v in ins.items():
        f = os.path.join(d, k + ".npy")
        np.save(f, v)
        args += ["--input", "%s=%s" % (k, f)]
    align = ["--check-alignment"] if aligned(c) else []
    # A PCT sweep of 20 on the small rows, 2 on the large ones (same protocol,
    # more chunks; the sweep's cost grows with the data).
    sweep = str(a.sweep if c["n"] <= 4112 else 2 if c["n"] < BIG else 1)
    lines, fails = [], 0
    for label, prog, sched in (("before", src, []), ("after", low, ["--schedule=random:%d" % c["P"]]),
                               ("after", low, ["--schedule=pct:1", "--sweep", sweep])):
        od = os.path.join(d, "%s%s" % (label, "".join(sched).replace(":", "_")))
        rc, out = run(["pypto-run", prog, "--entry", "kernel", "--ranks", str(c["P"]), "--output-dir", od,
                       "--check-signals", "--detect-races"] + align + sched + args)
        tag = "%s %s %s%s" % (name(c), label, " ".join(sched) or "parallel", " align" if align else "")
        if rc != 0:
            lines.append("%s: RUN FAILED rc=%d\n%s" % (tag, rc, out))
            fails += 1
            continue
        bad = [k for k, v in ref.items() if not np.array_equal(np.load(os.path.join(od, k + ".npy")), v)]
        if bad:
            lines.append("%s: MISMATCH in %s" % (tag, ", ".join(bad)))
            fails += 1
        else:
            lines.append("%s: OK" % tag)
    return lines, fails


def run_matrix(a):
    kinds = a.kinds.split(",") if a.kinds else None
    todo = cases(kinds)
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        for lines, f in pool.map(lambda c: run_case(c, a), todo):
            failures += f
            print("\n".join(lines))
    print("CASES %d" % len(todo))
    print("FAILURES %d" % failures)
    return 1 if failures else 0
