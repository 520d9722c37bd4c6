"""Self-test of ptoas_tier.py's bookkeeping, on a small source tree made here and a
stand-in ptoas (a script that accepts every module, or rejects every one): a .pir
that does not compile fails the tier unless a RUN line declares it a diagnostic
test, it holds no program, or not_compiled.txt lists it with its message; a stale
or changed not_compiled.txt entry fails; a rejection fails with ptoas' message.
Needs no real ptoas.

  tier_selftest.py SRCROOT BINDIR      exit 0 pass, 1 fail
"""
import os
import subprocess
import sys
import tempfile

BAD = """import pypto.language as pl


@pl.program
class Bad:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 8], pl.FP32]):
        y = undefined_thing
"""
FAKE_PTOAS = """#!/bin/sh
[ "$1" = --version ] && { echo fake ptoas; exit 0; }
[ -n "$REJECT" ] && { echo "error: rejected by the stand-in"; exit 1; }
exit 0
"""


def main():
    src, bindir = sys.argv[1], sys.argv[2]
    tier = os.path.join(src, "tests", "ptoas", "ptoas_tier.py")
    failures = []
    with tempfile.TemporaryDirectory(prefix="tier_selftest.") as root:
        for d in ("tests/lit", "tests/golden/pto", "examples", "ptoas"):
            os.makedirs(os.path.join(root, d))
        with open(os.path.join(src, "examples", "ring_exchange.pir"), encoding="utf-8") as f:
            ring = f.read()
        files = {"examples/ring_exchange.pir": ring, "tests/lit/bad.pir": BAD,
                 "tests/lit/diag.pir": "# RUN: not pypto-opt %s 2>&1 | FileCheck %s\n" + BAD,
                 "tests/lit/driver.pir": "# RUN: %python %S/Inputs/x.py\n",
                 "ptoas/known.txt": "", "ptoas/ptoas": FAKE_PTOAS}
        for name, text in files.items():
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        os.chmod(os.path.join(root, "ptoas/ptoas"), 0o755)

        def run(not_compiled, reject=False):
            with open(os.path.join(root, "ptoas/nc.txt"), "w", encoding="utf-8") as f:
                f.write(not_compiled)
            env = dict(os.environ, PYPTO_PTOAS=os.path.join(root, "ptoas/ptoas"))
            env.pop("REJECT", None)
            if reject:
                env["REJECT"] = "1"
            p = subprocess.run([sys.executable, tier, root, bindir, "--known", os.path.join(root, "ptoas/known.txt"),
                                "--not-compiled", os.path.join(root, "ptoas/nc.txt")],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
            return p.returncode, p.stdout

        listed = "file: tests/lit/bad.pir\nerror: undefined name 'undefined_thing'\nwhy: a test\n"
        cases = [  # (label, not_compiled.txt, reject, exit code, texts the output must hold)
            ("unlisted", "", False, 1, ["FAIL: tests/lit/bad.pir does not compile (not a diagnostic test, "
                                        "not listed in not_compiled.txt)", "undefined name 'undefined_thing'",
                                        "1 diagnostic tests, 1 files without a program, 0 listed"]),
            ("listed", listed, False, 0, ["0 failures", "1 listed in not_compiled.txt"]),
            ("changed", listed.replace("undefined name", "unknown name"), False, 1,
             ["listed in %s:1 with a different error" % os.path.join(root, "ptoas/nc.txt")]),
            ("stale", listed + "file: examples/ring_exchange.pir\nerror: x\nwhy: y\n", False, 1,
             ["FAIL: examples/ring_exchange.pir compiles now: remove it from"]),
            ("unknown", listed + "file: tests/lit/gone.pir\nerror: x\nwhy: y\n", False, 1,
             ["not_compiled.txt names a file the tier does not compile"]),
            ("rejected", listed, True, 1, ["ptoas rejects the module emitted by:", "rejected by the stand-in"]),
        ]
        for label, nc, reject, want_rc, texts in cases:
            rc, out = run(nc, reject)
            missing = [t for t in texts if t not in out]
            if rc != want_rc or missing:
                failures.append("%s: exit %d (want %d), missing %s\n%s" % (label, rc, want_rc, missing, out))
            else:
                print("%s: OK" % label)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
