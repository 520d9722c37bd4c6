#!/usr/bin/env python3
"""ctest doc_snippets: every code snippet the docs show is checked, so a
documented example cannot rot (docs/testing.md, "Doc snippets").

Fenced blocks in README.md, docs/*.md and examples/**/README.md, by the first
word of their info string:

* ``python``: the file's python blocks run in order as one script in a fresh
  interpreter (a block sees the names of the blocks before it), with this
  build's ``pypto`` importable; the script keeps the .md file's line numbers.
* ``cpp`` (or ``c++``): a complete program; compiled against this build's headers
  and libraries, run, and must exit 0.
* ``pir``: IR text; ``pypto-opt`` must accept it (exit 0).
* ``sh``, ``text``, ``cmake``, ``mlir``: deliberately not run (commands that
  install or build, diagrams, usage, output, excerpts). Paths into the source
  tree that a ``sh`` block names must exist (patterns with ``*`` are skipped).
* anything else, and a bare fence, is an error: say what the block is.

Header comments (include/**/*.h): a block of ``//   `` lines introduced by a
comment that calls it an example must name the test that runs it
("... run verbatim by tests/...") and that file must contain its lines in order.

Usage: check_snippets.py SRC BUILD [--self-test]. Exit 0 all good, 1 findings.
"""

import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

CHECKED = {"python", "cpp", "c++", "pir"}
NOT_RUN = {"sh", "text", "cmake", "mlir"}
PATH_RE = re.compile(r"(?<![\w/$.-])((?:\.ci|bindings|benchmarks|cmake|docs|examples|include|src|tests)"
                     r"/[\w./*-]*[\w/*])")
FENCE_RE = re.compile(r"^(\s*)```(.*)$")


def doc_files(src):
    files = [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))
    files += sorted(glob.glob(os.path.join(src, "examples", "**", "README.md"), recursive=True))
    return [f for f in files if os.path.exists(f)]


def fenced_blocks(path):
    """(info, first_line_number_of_body, body_lines) for every fenced block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE_RE.match(lines[i])
        if m:
            indent, info = m.group(1), m.group(2).strip()
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            body = [l[len(indent):] if l.startswith(indent) else l for l in lines[i + 1:j]]
            blocks.append((info, i + 2, body))
            i = j
        i += 1
    return blocks, len(lines)


class Checker:
    def __init__(self, src, build):
        self.src, self.build = src, build
        self.findings = []
        self.counts = {}
        self.tmp = tempfile.mkdtemp(prefix="pypto-snippets.")

    def fail(self, where, msg):
        self.findings.append(f"{where}: {msg}")

    def rel(self, path):
        return os.path.relpath(path, self.src)

    def run(self, cmd, **kw):
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120, **kw)

    def env(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.join(self.src, "bindings")
        return env

    # ---- per language
    def check_python(self, path, blocks, nlines):
        if not blocks:
            return
        lines = [""] * nlines
        for line, body in blocks:
            for k, l in enumerate(body):
                lines[line - 1 + k] = l
        script = os.path.join(self.tmp, os.path.basename(path) + ".py")
        with open(script, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        r = self.run([sys.executable, script], env=self.env(), cwd=self.tmp)
        if r.returncode != 0:
            self.fail(self.rel(path), f"python blocks (at lines {', '.join(str(b[0] - 1) for b in blocks)}) "
                      f"failed (exit {r.returncode}; line numbers are the .md file's):\n"
                      + r.stderr.replace(script, self.rel(path)))

    def check_cpp(self, path, line, body):
        where = f"{self.rel(path)}:{line - 1}"  # the fence
        text = "\n".join(body) + "\n"
        if "int main" not in text:
            self.fail(where, "a cpp block is a complete program (with int main); mark an excerpt ```text")
            return
        cc = os.path.join(self.tmp, f"snippet_{line}.cc")
        exe = cc[:-3]
        with open(cc, "w", encoding="utf-8") as f:
            f.write(f'#line {line} "{self.rel(path)}"\n' + text)
        lib = lambda n: os.path.join(self.build, f"libpypto_{n}.a")  # noqa: E731
        cmd = [os.environ.get("CXX", "c++"), "-std=c++20", "-O0", "-I", os.path.join(self.src, "include"),
               cc, "-o", exe, lib("passes"), lib("codegen"), lib("sim"), "-Wl,--whole-archive", lib("ops"),
               "-Wl,--no-whole-archive", lib("ir"), lib("core"), "-lfmt", "-pthread"]
        # A sanitizer build's libraries need the same instrumentation at the link.
        cmd += shlex.split(os.environ.get("PYPTO_SNIPPET_CXXFLAGS", ""))
        r = self.run(cmd)
        if r.returncode != 0:
            self.fail(where, "cpp block does not compile:\n" + r.stderr)
            return
        r = self.run([exe], cwd=self.tmp)
        if r.returncode != 0:
            self.fail(where, f"cpp block exited {r.returncode}:\n{r.stdout}{r.stderr}")

    def check_pir(self, path, line, body):
        where = f"{self.rel(path)}:{line - 1}"  # the fence
        pir = os.path.join(self.tmp, f"snippet_{line}.pir")
        with open(pir, "w", encoding="utf-8") as f:
            f.write("\n" * (line - 1) + "\n".join(body) + "\n")
        r = self.run([os.path.join(self.build, "bin", "pypto-opt"), pir])
        if r.returncode != 0:
            self.fail(where, f"pir block rejected by pypto-opt (exit {r.returncode}):\n"
                      + r.stderr.replace(pir, self.rel(path)))

    def check_sh(self, path, line, body):
        for k, l in enumerate(body):
            for p in PATH_RE.findall(l):
                if "*" in p:  # a pattern (often of build outputs), not a path
                    continue
                if not os.path.exists(os.path.join(self.src, p)):
                    self.fail(f"{self.rel(path)}:{line + k}", f"sh block names '{p}', which does not exist")

    # ---- drivers
    def check_docs(self):
        for path in doc_files(self.src):
            blocks, nlines = fenced_blocks(path)
            python = []
            for info, line, body in blocks:
                lang = info.split()[0] if info else ""
                self.counts[lang or "<bare>"] = self.counts.get(lang or "<bare>", 0) + 1
                where = f"{self.rel(path)}:{line - 1}"
                if lang == "python":
                    python.append((line, body))
                elif lang in ("cpp", "c++"):
                    self.check_cpp(path, line, body)
                elif lang == "pir":
                    self.check_pir(path, line, body)
                elif lang == "sh":
                    self.check_sh(path, line, body)
                elif lang in NOT_RUN:
                    pass
                elif not lang:
                    self.fail(where, "fenced block without a language: give a checked one "
                              "(python, cpp, pir) or mark it not run (sh, text, cmake, mlir)")
                else:
                    self.fail(where, f"fenced block of unknown language '{lang}': use one of "
                              "python, cpp, pir (checked) or sh, text, cmake, mlir (not run)")
            self.check_python(path, python, nlines)

    def check_headers(self):
        for path in sorted(glob.glob(os.path.join(self.src, "include", "**", "*.h"), recursive=True)):
            lines = open(path, encoding="utf-8").read().split("\n")
            i = 0
            while i < len(lines):
                if not lines[i].startswith("//   "):
                    i += 1
                    continue
                j = i
                while j < len(lines) and lines[j].startswith("//   "):
                    j += 1
                intro = " ".join(lines[max(0, i - 3):i])
                if re.search(r"\bexample\b", intro, re.I):
                    self.counts["header example"] = self.counts.get("header example", 0) + 1
                    self.check_header_example(path, i + 1, intro, [l[5:].strip() for l in lines[i:j]])
                i = j

    def check_header_example(self, path, line, intro, code):
        where = f"{self.rel(path)}:{line}"
        m = re.search(r"run verbatim by (tests/\S+?\.(?:cc|py))", intro)
        if not m:
            self.fail(where, "a header comment example must say which test runs it "
                      "(\"... run verbatim by tests/....cc\")")
            return
        test = os.path.join(self.src, m.group(1))
        if not os.path.exists(test):
            self.fail(where, f"the example's test {m.group(1)} does not exist")
            return
        test_lines = [l.strip() for l in open(test, encoding="utf-8").read().split("\n")]
        k = 0
        for c in code:
            while k < len(test_lines) and test_lines[k] != c:
                k += 1
            if k == len(test_lines):
                self.fail(where, f"example line not found (in order) in {m.group(1)}: {c}")
                return
            k += 1


def check(src, build):
    c = Checker(os.path.abspath(src), os.path.abspath(build))
    c.check_docs()
    c.check_headers()
    return c


def self_test(build):
    """The checker reports each kind of broken snippet (and accepts good ones)."""
    root = tempfile.mkdtemp(prefix="pypto-snippets-selftest.")
    os.makedirs(os.path.join(root, "docs"))
    os.makedirs(os.path.join(root, "include", "pypto"))
    os.makedirs(os.path.join(root, "tests"))
    os.symlink(os.path.join(SRC, "bindings"), os.path.join(root, "bindings"))
    os.symlink(os.path.join(SRC, "examples"), os.path.join(root, "examples"))
    with open(os.path.join(root, "README.md"), "w") as f:
        f.write("```\nbare\n```\n```rust\nfn main() {}\n```\n```sh\nbash examples/no_such.sh\n"
                "bash examples/run_example.sh\n```\n```text\nnot run\n```\n")
    with open(os.path.join(root, "docs", "a.md"), "w") as f:
        f.write("```python\nx = 1\n```\ntext\n\n```python\nassert x == 2, 'x is %d' % x\n```\n"
                "```pir\nthis is not IR\n```\n```cpp\nint main() { return 3; }\n```\n"
                "```cpp\nint f();\n```\n")
    with open(os.path.join(root, "include", "pypto", "h.h"), "w") as f:
        f.write("// An example:\n//   int a = 1;\n#pragma once\n"
                "// This example is run verbatim by tests/t.cc:\n//   int b = 2;\n//   int c = 3;\n")
    with open(os.path.join(root, "tests", "t.cc"), "w") as f:
        f.write("  int b = 2;\n  int c = 4;\n")
    c = check(root, build)
    got = [f.split("\n")[0] for f in c.findings]
    want = [
        "README.md:1: fenced block without a language: give a checked one (python, cpp, pir) "
        "or mark it not run (sh, text, cmake, mlir)",
        "README.md:4: fenced block of unknown language 'rust': use one of python, cpp, pir "
        "(checked) or sh, text, cmake, mlir (not run)",
        "README.md:8: sh block names 'examples/no_such.sh', which does not exist",
        "docs/a.md:9: pir block rejected by pypto-opt (exit 1):",
        "docs/a.md:12: cpp block exited 3:",
        "docs/a.md:15: a cpp block is a complete program (with int main); mark an excerpt ```text",
        "docs/a.md: python blocks (at lines 1, 6) failed (exit 1; line numbers are the .md file's):",
        "include/pypto/h.h:2: a header comment example must say which test runs it "
        "(\"... run verbatim by tests/....cc\")",
        "include/pypto/h.h:5: example line not found (in order) in tests/t.cc: int c = 3;",
    ]
    ok = got == want
    py_msg = next((f for f in c.findings if "python blocks" in f), "")
    if "docs/a.md\", line 7" not in py_msg or "AssertionError: x is 1" not in py_msg:
        ok = False
        print("python failure does not point at docs/a.md line 7:\n" + py_msg)
    if not ok:
        print("self-test FAILED\n got:\n  " + "\n  ".join(got) + "\n want:\n  " + "\n  ".join(want))
    return ok


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    SRC, BUILD = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if "--self-test" in sys.argv[3:] and not self_test(BUILD):
        sys.exit(1)
    c = check(SRC, BUILD)
    print("doc_snippets: " + ", ".join(f"{k}: {v}" for k, v in sorted(c.counts.items())))
    for f in c.findings:
        print(f)
    if c.findings:
        print(f"doc_snippets: {len(c.findings)} finding(s)")
        sys.exit(1)
    print("doc_snippets: OK")
