#!/usr/bin/env python3
"""Shows that the lit-wide round-trip check (tests/lit/roundtrip_format.py) fails
when it should: runs lit with the real tests/lit/lit.cfg.py on a scratch suite whose
pypto-opt is a fake with a chosen defect, and checks which tests pass and fail.

    lit_roundtrip_selftest.py LIT_PY FILECHECK SRC_DIR
"""
import os
import re
import subprocess
import sys
import tempfile
import textwrap

# The fake pypto-opt: prints its input, unless the input asks for a defect.
FAKE_OPT = r'''#!/usr/bin/env python3
import sys
args = sys.argv[1:]
files = [a for a in args if not a.startswith("--") or a == "-"]
text = sys.stdin.read() if files[0] == "-" else open(files[0]).read()
pipeline = "--pipeline=default" in args
checks = "--roundtrip-each" in args
if "BAD_INPUT" in text:
    sys.stderr.write("error: bad input\n"); sys.exit(1)
if "CRASH" in text:
    sys.stderr.write("internal error\n"); sys.exit(3)
if "UNSTABLE" in text and files[0] == "-":
    text += "# one more line\n"           # print(parse(print)) != print
if "UNPARSABLE_PRINT" in text and files[0] == "-":
    sys.stderr.write("error: printed IR does not parse\n"); sys.exit(1)
if "PASS_BREAKS_ROUNDTRIP" in text and pipeline and checks:
    sys.stderr.write("error: roundtrip after pass 'x' failed\n"); sys.exit(1)
if "PASS_REJECTS" in text and pipeline:
    sys.stderr.write("error: pass 'x' rejects this input\n"); sys.exit(1)
sys.stdout.write(text)
'''

# name -> (file text, expected lit result)
CASES = {
    "good.pir": ("# RUN: pypto-opt %s | FileCheck %s\n# CHECK: good\n", "PASS"),
    "expected_error.pir": ("# RUN: not pypto-opt %s 2>&1 | FileCheck %s\n# CHECK: error: bad\n"
                           "# BAD_INPUT\n", "PASS"),
    "pass_rejects.pir": ("# RUN: not pypto-opt %s --pipeline=default\n# PASS_REJECTS\n", "PASS"),
    "unstable.pir": ("# RUN: pypto-opt %s\n# UNSTABLE\n", "FAIL"),
    "unparsable_print.pir": ("# RUN: pypto-opt %s\n# UNPARSABLE_PRINT\n", "FAIL"),
    "pass_breaks_roundtrip.pir": ("# RUN: pypto-opt %s\n# PASS_BREAKS_ROUNDTRIP\n", "FAIL"),
    "crash.pir": ("# RUN: true\n# CRASH\n", "FAIL"),
    "own_run_lines_fail.pir": ("# RUN: false\n", "FAIL"),
}


def main():
    lit_py, filecheck, src = sys.argv[1:4]
    with tempfile.TemporaryDirectory(prefix="pypto-lit-selftest-") as tmp:
        bin_dir = os.path.join(tmp, "bin")
        suite = os.path.join(tmp, "suite")
        os.makedirs(bin_dir)
        os.makedirs(suite)
        opt = os.path.join(bin_dir, "pypto-opt")
        with open(opt, "w") as f:
            f.write(FAKE_OPT.replace("/usr/bin/env python3", sys.executable, 1))
        os.chmod(opt, 0o755)
        for name, (text, _) in CASES.items():
            with open(os.path.join(suite, name), "w") as f:
                f.write(text)
        with open(os.path.join(suite, "lit.site.cfg.py"), "w") as f:
            f.write(textwrap.dedent("""\
                config.pypto_bin_dir = %r
                config.filecheck = %r
                config.pypto_source_dir = %r
                config.python_executable = %r
                config.pypto_module_dir = ""
                lit_config.load_config(config, %r)
                config.test_source_root = %r
                config.test_exec_root = %r
                """ % (bin_dir, filecheck, src, sys.executable,
                       os.path.join(src, "tests", "lit", "lit.cfg.py"), suite,
                       os.path.join(tmp, "out"))))
        p = subprocess.run([sys.executable, lit_py, "-v", suite], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        got = dict((m.group(2), m.group(1))
                   for m in re.finditer(r"^(PASS|FAIL): pypto-lit :: (\S+)", p.stdout, re.M))
        bad = 0
        for name, (_, want) in sorted(CASES.items()):
            ok = got.get(name) == want
            bad += not ok
            print("%s %s: expected %s, got %s" % ("ok  " if ok else "BAD ", name, want,
                                                   got.get(name, "nothing")))
        for needle in ("print -> parse -> print is not byte-identical", "does not parse again",
                       "--roundtrip-each --verify-each` differs", "exited 3"):
            if needle not in p.stdout:
                print("BAD  lit output lacks %r" % needle)
                bad += 1
        if bad:
            print("---- lit output ----\n" + p.stdout)
            return 1
        print("the round-trip check passes and fails as intended (%d cases)" % len(CASES))
        return 0


if __name__ == "__main__":
    sys.exit(main())
