#!/usr/bin/env python3
"""Guard for issue 11 (ops are handles, not strings): counts op-name string literals
in the C++ sources outside the text boundary, and finds op-name arithmetic.

    count_op_literals.py SRC_DIR --max-literals N --max-arithmetic M [-v]

The registered op names come from the built tree (`pypto._core.op_names()`; run
with PYTHONPATH=SRC_DIR/bindings and PYPTO_CORE_DIR=<module dir>, as ctest does).
Scanned: src/**, include/** (*.cc, *.h) and bindings/*.cc, comments stripped.
The text boundary, where op names are legitimately spelled, is src/ops (the
registrations) and include/pypto/ops (the op list), src/ir/parser and
src/ir/printer.cc.

An op-name literal is a string literal that is a registered op name (also with
the DSL's "pl." prefix), or looks like one ("tile.foo", an unregistered name), or
is an op-family prefix ("tile.", "pld.tensor.").

Name arithmetic (grep-level heuristics, on op names): a family-prefix literal
("tile." + base, n.substr(0, 11) != "pld.tensor.", rfind("pld.", 0)); substr /
remove_prefix / compare by the length of a family prefix on a name-like variable
(n.substr(7)); `+= "s"` on an op-name variable (tile_op += "s"); cutting an op
name at its last dot (op.substr(op.rfind('.') + 1)). A line that is a false
positive (e.g. an enum's "pld." namespace) is skipped when it carries the
comment `// not-an-op-name`.

Fails (exit 1) when either count exceeds its threshold; prints both counts, and
file:line of every arithmetic hit (every literal too with -v).
"""
import argparse
import collections
import pathlib
import re
import sys

BOUNDARY = ("src/ops/", "include/pypto/ops/", "src/ir/parser/", "src/ir/printer.cc")
LOOKS_LIKE_OP = re.compile(r"(pl\.)?(tile|tensor|pld|builtin|array|system)\.[a-z_][a-z_.0-9]*")
EXEMPT = "// not-an-op-name"
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')


def registered_ops():
    try:
        from pypto import _core
    except ImportError as e:
        sys.exit("count_op_literals: cannot import pypto._core (set PYTHONPATH=SRC/bindings and "
                 "PYPTO_CORE_DIR to the built module's directory): %s" % e)
    names = set(_core.op_names(include_internal=True))
    if not names:
        sys.exit("count_op_literals: pypto._core.op_names() returned no ops")
    return names


def family_prefixes(ops):
    """Every dotted proper prefix of an op name, e.g. 'tile.', 'pld.', 'pld.tensor.', plus 'pl.'."""
    out = {"pl."}
    for n in ops:
        parts = n.split(".")
        for i in range(1, len(parts)):
            out.add(".".join(parts[:i]) + ".")
    return out


def strip_comments(text):
    """The text with // and /* */ comments blanked (newlines kept); strings and chars kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(text[i:j])
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def arithmetic_patterns(prefixes):
    lengths = "|".join(sorted({str(len(p)) for p in prefixes}, key=int))
    name_var = r"(?:\b(?:n|op|name|op_name|opname|base|\w+_op)|OpName\(\)|\.name|->name)"
    prefix_lit = "|".join(re.escape('"%s"' % p) for p in sorted(prefixes, key=len, reverse=True))
    return [
        ("family-prefix literal", re.compile(prefix_lit)),
        ("cut by a prefix length", re.compile(
            name_var + r"\s*\.\s*(?:substr\s*\(\s*(?:0\s*,\s*)?|remove_prefix\s*\(\s*|compare\s*\(\s*0\s*,\s*)"
            r"(?:%s)\s*[,)]" % lengths)),
        ("suffix appended", re.compile(r'\b(?:\w+_)?op(?:_?name)?\s*\+=\s*"[a-z_.]*"')),
        ("cut at the last dot", re.compile(
            name_var + r"\s*\.\s*substr\s*\(\s*\w+(?:\(\))?\s*\.\s*rfind\s*\(\s*'\.'")),
    ]


def scan(root, ops):
    prefixes = family_prefixes(ops)
    patterns = arithmetic_patterns(prefixes)
    spelled = ops | {"pl." + n for n in ops}
    files = sorted(list(root.glob("src/**/*.cc")) + list(root.glob("src/**/*.h")) +
                   list(root.glob("include/**/*.h")) + list(root.glob("bindings/*.cc")))
    literals, arithmetic, boundary_arith = [], [], []
    per_file = collections.Counter()
    for p in files:
        rel = p.relative_to(root).as_posix()
        inside = rel.startswith(BOUNDARY)
        text = p.read_text()
        raw = text.splitlines()
        for lineno, line in enumerate(strip_comments(text).splitlines(), 1):
            if EXEMPT in raw[lineno - 1]:
                continue
            for m in STRING.finditer(line):
                t = m.group(1)
                if (t in spelled or t in prefixes or LOOKS_LIKE_OP.fullmatch(t)) and not inside:
                    literals.append((rel, lineno, t))
                    per_file[rel] += 1
            for what, pat in patterns:
                if pat.search(line):
                    (boundary_arith if inside else arithmetic).append((rel, lineno, what, line.strip()))
                    break
    return literals, per_file, arithmetic, boundary_arith


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=pathlib.Path)
    ap.add_argument("--max-literals", type=int, required=True)
    ap.add_argument("--max-arithmetic", type=int, required=True)
    ap.add_argument("-v", action="store_true", help="list every literal and boundary hit")
    a = ap.parse_args()
    ops = registered_ops()
    literals, per_file, arithmetic, boundary_arith = scan(a.root, ops)
    print("%d registered ops" % len(ops))
    print("op-name literals outside the text boundary: %d in %d files (max %d)" %
          (len(literals), len(per_file), a.max_literals))
    for f, n in per_file.most_common():
        print("  %4d %s" % (n, f))
    if a.v:
        for f, ln, t in literals:
            print('  %s:%d: "%s"' % (f, ln, t))
    print("op-name arithmetic outside the text boundary: %d (max %d)" %
          (len(arithmetic), a.max_arithmetic))
    for f, ln, what, code in arithmetic:
        print("  %s:%d: %s: %s" % (f, ln, what, code))
    print("(inside the boundary, not counted: %d arithmetic hits%s)" %
          (len(boundary_arith), "" if a.v else "; -v lists them"))
    if a.v:
        for f, ln, what, code in boundary_arith:
            print("  %s:%d: %s: %s" % (f, ln, what, code))
    bad = False
    if len(literals) > a.max_literals:
        print("FAILED: %d op-name literals outside the text boundary > %d: compare op handles or "
              "ask the registry's traits instead of spelling names" % (len(literals), a.max_literals))
        bad = True
    if len(arithmetic) > a.max_arithmetic:
        print("FAILED: %d op-name arithmetic hits > %d: declare the relation (tile twin, scalar "
              "twin, family) in the op's registration instead of building names" %
              (len(arithmetic), a.max_arithmetic))
        bad = True
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
