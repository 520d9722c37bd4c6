"""The ptoas tier: every PTO module the tests emit is assembled by the real ptoas.

PTO text that only FileCheck has seen may still be rejected by the assembler it is
for. This script collects every module the test suite emits and runs ptoas on each
the way upstream PyPTO invokes it:

  * every .pir under tests/lit, tests/golden and examples, through
    `pypto-opt FILE --pipeline=default --emit=pto -o DIR` and through plain
    `--emit=pto` (files already at tile level), plus `--target=a5` for files whose
    RUN lines use it;
  * the golden .pto files (tests/golden/pto);
  * every collective program the lit differential runners instantiate (RUN lines
    calling run_collective.py / run_all_to_all_v.py), at each rank count of the
    line, every program of run_collective.py's matrix (collective_matrix.programs)
    and of allreduce_matrix.py's matrix (a runner's own `programs(argv)`), lowered
    with the default pipeline.

Identical module texts are assembled once. A rejection fails the tier with ptoas'
message and the programs that emit the module, unless known_rejections.txt (beside
this file) lists it; a listed module that is accepted, or that no program emits any
more, fails the tier too, so the list cannot go stale.

Nothing is skipped silently: a .pir file none of whose variants compiles fails the
tier, unless it is a diagnostic test (a RUN line of some lit file runs
`not pypto-opt` / an expect-exit wrapper of pypto-opt on it), holds no program (no
@pl.program / @pl.function / @pl.jit: a runner's driver), or not_compiled.txt lists
it (`file:`, `error:` text of its pypto-opt message, `why:`); a listed file that
compiles, or whose message changed, fails too. A runner's program that does not
compile always fails.

  ptoas_tier.py SRCROOT BINDIR [-j N]      exit 0 pass, 1 fail, 77 ptoas not found
"""
import argparse
import concurrent.futures
import hashlib
import importlib.util
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
RUNNERS = ("run_collective.py", "run_all_to_all_v.py", "allreduce_matrix.py")


def find_ptoas(src):
    """PYPTO_PTOAS, then PATH, then ../shared/tools/ptoas/bin/ptoas beside the tree."""
    env = os.environ.get("PYPTO_PTOAS")
    if env:
        return env
    on_path = shutil.which("ptoas")
    if on_path:
        return on_path
    shared = os.path.normpath(os.path.join(src, "..", "shared", "tools", "ptoas", "bin", "ptoas"))
    return shared if os.access(shared, os.X_OK) else None


def pir_files(src):
    out = []
    for top in ("tests/lit", "tests/golden", "examples"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(src, top)):
            dirnames[:] = sorted(d for d in dirnames if d != "Output")
            out += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".pir")]
    return out


def load_runner(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def collective_programs(src, scratch):
    """(label, program text) for every instantiation a lit RUN line asks a runner for."""
    progs = []
    for path in pir_files(src):
        rel = os.path.relpath(path, src)
        for line in open(path, encoding="utf-8"):
            m = re.search(r"RUN:\s*%python\s+(\S*(" + "|".join(RUNNERS) + r"))\s+([^|]*)", line)
            if not m:
                continue
            here = os.path.dirname(path)
            runner = load_runner(m.group(1).replace("%S", here))
            argv = shlex.split(m.group(3).replace("%S", here).replace("%t", os.path.join(scratch, "t")))
            if hasattr(runner, "programs"):  # a runner that lists its own programs
                progs += [("%s: %s" % (rel, lab), text) for lab, text in runner.programs(argv)]
                continue
            a = runner.parse_args(argv)
            shown = " ".join(x if not os.path.isabs(x) else os.path.basename(x) for x in argv)
            if m.group(2) == "run_collective.py" and a.kind == "matrix":
                # The matrix (collective_matrix.py beside the runner) lists its programs.
                matrix = load_runner(os.path.join(os.path.dirname(m.group(1).replace("%S", here)),
                                                  "collective_matrix.py"))
                progs += [("%s: %s %s %s" % (rel, m.group(2), shown, label), text)
                          for label, text in matrix.programs(a)]
                continue
            template = open(argv[1 if m.group(2) == "run_collective.py" else 0], encoding="utf-8").read()
            for p in [int(x) for x in a.ranks.split(",")]:
                progs.append(("%s: %s %s P=%d" % (rel, m.group(2), shown, p), runner.instantiate(template, a, p)))
    return progs


def emit(opt, pir, flags, outdir):
    """(modules `pypto-opt pir flags --emit=pto -o outdir` writes or None if it fails, stderr)."""
    os.makedirs(outdir)
    p = subprocess.run([opt, pir, *flags, "--emit=pto", "-o", outdir], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return None, p.stderr
    return {f: open(os.path.join(outdir, f), encoding="utf-8").read() for f in sorted(os.listdir(outdir))}, ""


# A RUN line that expects pypto-opt to fail on a file: `not pypto-opt F` or an
# expect-exit wrapper (`expect_exit1.py pypto-opt F`, `expect_exit.py N pypto-opt F`,
# `simtool.py expect-exit N -- pypto-opt F`).
NEGATIVE_RUN = re.compile(r"(?:\bnot|expect[-_]exit\S*(?:\s+\d+)?(?:\s+--)?)\s+pypto-opt\s+(\S+)")
PROGRAM = re.compile(r"^\s*@pl\.(program|function|jit)\b", re.M)


def diagnostic_tests(files):
    """Paths some lit RUN line runs pypto-opt on expecting it to fail."""
    out = set()
    for path in files:
        here = os.path.dirname(path)
        for line in open(path, encoding="utf-8", errors="replace"):
            if "RUN:" not in line:
                continue
            for m in NEGATIVE_RUN.finditer(line):
                out.add(os.path.normpath(m.group(1).replace("%s", path).replace("%S", here)))
    return out


def read_blocks(path, head):
    """Blocks of `<head>:`, then `error:` (text the message contains) and `why:` lines, as
    dicts with the head's value under `head` and the block's first line under `line`."""
    entries, cur = [], None
    for n, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        key, _, value = line.partition(": ")
        key, value = key.strip(), value.strip()
        if key == head:
            cur = {head: value, "line": n}
            entries.append(cur)
        elif key in ("error", "why") and cur is not None and key not in cur:
            cur[key] = value
        else:
            sys.exit("%s:%d: expected `%s:`, then `error:` and `why:` lines" % (path, n, head))
    for e in entries:
        if "error" not in e or "why" not in e:
            sys.exit("%s:%d: entry for %s needs `error:` and `why:`" % (path, e["line"], e[head]))
    return entries


def read_not_compiled(path):
    """not_compiled.txt: `file:` blocks (a path below the source root), keyed by that path."""
    return {e["file"]: e for e in read_blocks(path, "file")}


def read_known(path):
    """known_rejections.txt: `module:` blocks (a source label as the tier prints it, `*` and
    `?` wildcards allowed; everything else, brackets too, is literal)."""
    entries = read_blocks(path, "module")
    for e in entries:
        pattern = re.escape(e["module"]).replace(r"\*", ".*").replace(r"\?", ".")
        e["pattern"] = re.compile(pattern)
    return entries


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("bindir")
    ap.add_argument("-j", type=int, default=2)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--known", default=os.path.join(here, "known_rejections.txt"))
    ap.add_argument("--not-compiled", default=os.path.join(here, "not_compiled.txt"))
    a = ap.parse_args()
    start = time.monotonic()
    ptoas = find_ptoas(a.src)
    if not ptoas:
        print("ptoas_tier: SKIPPED (ptoas not found: set PYPTO_PTOAS or put ptoas on PATH or "
              "install it at ../shared/tools/ptoas/bin/ptoas beside the source tree)")
        return SKIP
    probe = subprocess.run([ptoas, "--version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if probe.returncode != 0:
        print("ptoas_tier: %s does not run (exit %d): %s\n(its run-time dependency is libLLVM.so.22.1: "
              "apt-get install libllvm22)" % (ptoas, probe.returncode, probe.stdout.strip()))
        return 1
    opt = os.path.join(a.bindir, "pypto-opt")
    known = read_known(a.known)
    not_compiled = read_not_compiled(a.not_compiled)
    modules = {}  # sha256 -> {"text", "sources": [label]}
    programs = compiled = 0

    def add(label, text):
        h = hashlib.sha256(text.encode()).hexdigest()
        modules.setdefault(h, {"text": text, "sources": []})["sources"].append(label)

    with tempfile.TemporaryDirectory(prefix="ptoas_tier.") as scratch:
        jobs = []  # (label prefix, pir path, flags)
        files = pir_files(a.src)
        negative = diagnostic_tests(files)
        for pir in files:
            rel = os.path.relpath(pir, a.src)
            variants = [["--pipeline=default"], []]
            if "--target=a5" in open(pir, encoding="utf-8").read():
                variants += [v + ["--target=a5"] for v in variants]
            jobs += [(rel, pir, v) for v in variants]
        for n, (label, text) in enumerate(collective_programs(a.src, scratch)):
            path = os.path.join(scratch, "collective%d.pir" % n)
            open(path, "w", encoding="utf-8").write(text)
            jobs.append((label, path, ["--pipeline=default"]))

        def lower(i):
            label, pir, flags = jobs[i]
            return emit(opt, pir, flags, os.path.join(scratch, "out%d" % i))

        with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
            results = list(pool.map(lower, range(len(jobs))))
        errors = {}  # source file -> [stderr of each failed variant] (None once one compiles)
        for (label, pir, flags), (mods, err) in zip(jobs, results):
            programs += 1
            if label == os.path.relpath(pir, a.src):  # a source file, not a runner's program
                if mods is not None:
                    errors[label] = None
                elif errors.get(label, []) is not None:
                    errors[label] = errors.get(label, []) + [err]  # each failed variant's message
            elif mods is None:
                errors[label] = [err]  # a runner's program must compile
            if mods is None:
                continue
            compiled += 1
            for name, text in mods.items():
                add("%s [%s] %s" % (label, " ".join(flags + ["--emit=pto"]), name), text)
        golden = os.path.join(a.src, "tests", "golden", "pto")
        for f in sorted(os.listdir(golden)):
            if f.endswith(".pto"):
                add("tests/golden/pto/" + f, open(os.path.join(golden, f), encoding="utf-8").read())

        hashes = sorted(modules, key=lambda h: modules[h]["sources"][0])

        def assemble(h):
            d = os.path.join(scratch, "asm", h[:16])
            os.makedirs(d)
            src = os.path.join(d, "module.pto")
            open(src, "w", encoding="utf-8").write(modules[h]["text"])
            arch = "a5" if re.search(r'pto\.target_arch\s*=\s*"a5"', modules[h]["text"]) else "a3"
            p = subprocess.run([ptoas, src, "-o", os.path.join(d, "module.cpp"), "--enable-insert-sync",
                                "--pto-level=level3", "--pto-arch", arch],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            return p.returncode, p.stdout.replace(src, "<module>")

        with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
            verdicts = dict(zip(hashes, pool.map(assemble, hashes)))

    failures = []
    counts = {"diagnostic tests": 0, "files without a program": 0, "listed in not_compiled.txt": 0}
    for label, err in sorted(errors.items()):
        listed = not_compiled.get(label)
        path = os.path.normpath(os.path.join(a.src, label))
        if err is None:
            if listed:
                failures.append("%s compiles now: remove it from %s:%d" % (label, a.not_compiled, listed["line"]))
            continue
        if not os.path.exists(path):
            failures.append("a runner's program does not compile: %s\n%s" % (label, err[0].rstrip()))
        elif path in negative:
            counts["diagnostic tests"] += 1
        elif not PROGRAM.search(open(path, encoding="utf-8", errors="replace").read()):
            counts["files without a program"] += 1
        elif listed and any(listed["error"] in e for e in err):
            counts["listed in not_compiled.txt"] += 1
        else:
            failures.append("%s does not compile (not a diagnostic test%s):\n%s" % (
                label, "; listed in %s:%d with a different error" % (a.not_compiled, listed["line"])
                if listed else ", not listed in not_compiled.txt", err[0].rstrip()))
    for label, e in not_compiled.items():
        if label not in errors:
            failures.append("not_compiled.txt names a file the tier does not compile (%s:%d): %s"
                            % (a.not_compiled, e["line"], label))
    matched = set()
    for h in hashes:
        rc, out = verdicts[h]
        srcs = modules[h]["sources"]
        hits = [e for e in known if any(e["pattern"].fullmatch(s) for s in srcs)]
        if rc == 0:
            for e in hits:
                failures.append("known rejection now accepted (remove it from %s:%d): %s"
                                % (a.known, e["line"], e["module"]))
                matched.add(id(e))
            continue
        listed = [e for e in hits if e["error"] in out]
        for e in hits:
            matched.add(id(e))
        if listed:
            continue
        msg = "ptoas rejects the module emitted by:\n  " + "\n  ".join(srcs) + "\n" + out.rstrip()
        if hits:
            msg += "\n(listed in %s:%d, but with a different error)" % (a.known, hits[0]["line"])
        failures.append(msg)
    for e in known:
        if id(e) not in matched:
            failures.append("known rejection names a module no program emits (%s:%d): %s"
                            % (a.known, e["line"], e["module"]))
    accepted = sum(1 for h in hashes if verdicts[h][0] == 0)
    for f in failures:
        print("FAIL: " + f + "\n")
    print("ptoas_tier: %d programs (%d compile), %d modules (%d distinct), ptoas %s" %
          (programs, compiled, sum(len(m["sources"]) for m in modules.values()), len(hashes), ptoas))
    print("ptoas_tier: %d .pir files compile under no variant: %s" % (
        sum(counts.values()), ", ".join("%d %s" % (v, k) for k, v in counts.items())))
    print("ptoas_tier: %d accepted, %d rejected (%d listed as known), %d failures, %.1f s" %
          (accepted, len(hashes) - accepted, len(known), len(failures), time.monotonic() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
