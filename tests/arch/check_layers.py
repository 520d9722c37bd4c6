#!/usr/bin/env python3
"""Layering check: every include in src/<layer> and include/pypto/<layer> must
point at its own layer or one below it (docs/architecture.md, "Layers").

  core < ir < ops < passes < {codegen, sim} < {tools, bindings}

codegen and sim are siblings: neither may include the other. Both
`#include "pypto/<layer>/..."` and relative includes (`"lower.h"`,
`"../register_op.h"`, resolved against the including file's directory) are
checked. Prints file:line for every violation and exits 1 when there is one.

Usage: check_layers.py [--self-test] [SOURCE_DIR]   (default: this file's repository)
--self-test first checks that the scan catches planted violations in a scratch tree.
"""
import os
import re
import sys
import tempfile

# Layer -> rank; a layer may include layers of lower rank and its own.
RANK = {"core": 0, "ir": 1, "ops": 2, "passes": 3, "codegen": 4, "sim": 4, "tools": 5,
        "bindings": 5}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_EXT = (".h", ".cc", ".def")


def layer_of(root, path):
    """The layer a file under `root` belongs to, or None (tests, benchmarks, ...)."""
    rel = os.path.relpath(path, root).split(os.sep)
    if len(rel) >= 3 and rel[0] == "include" and rel[1] == "pypto" and rel[2] in RANK:
        return rel[2]
    if len(rel) >= 2 and rel[0] == "src" and rel[1] in RANK:
        return rel[1]
    if len(rel) >= 1 and rel[0] == "bindings":
        return "bindings"
    return None


def target_layer(root, src_path, inc):
    """Layer of the file `inc` names when included from `src_path`, or None."""
    m = re.match(r"pypto/([a-z_]+)/", inc)
    if m:
        return m.group(1) if m.group(1) in RANK else None
    rel = os.path.normpath(os.path.join(os.path.dirname(src_path), inc))
    if os.path.exists(rel):
        return layer_of(root, rel)
    return None


def allowed(frm, to):
    if frm == to:
        return True
    return RANK[to] < RANK[frm]


def scan(root):
    dirs = [os.path.join(root, "src"), os.path.join(root, "include", "pypto"),
            os.path.join(root, "bindings")]
    violations = []
    for d in dirs:
        for dirpath, _, files in os.walk(d):
            for name in sorted(files):
                if not name.endswith(SOURCE_EXT):
                    continue
                path = os.path.join(dirpath, name)
                frm = layer_of(root, path)
                if frm is None:
                    continue
                with open(path, encoding="utf-8") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE_RE.match(line)
                        if not m:
                            continue
                        to = target_layer(root, path, m.group(1))
                        if to is not None and not allowed(frm, to):
                            violations.append(
                                f"{os.path.relpath(path, root)}:{lineno}: layer '{frm}' includes "
                                f"'{m.group(1)}' of layer '{to}' (order: core < ir < ops < "
                                f"passes < {{codegen, sim}} < {{tools, bindings}})")
    return violations


def self_test():
    """Plants one violation of each kind (up, sideways, relative) and one allowed include."""
    files = {
        "include/pypto/ir/a.h": '#include "pypto/ops/ops.h"\n',           # up: ir -> ops
        "src/codegen/b.cc": '#include "pypto/sim/run.h"\n',               # sideways
        "src/ops/c.cc": '#include "../passes/pass_util.h"\n',             # relative, up
        "src/passes/pass_util.h": "",
        "src/sim/d.cc": '#include "pypto/passes/pass.h"\n#include "e.h"\n',  # allowed
        "src/sim/e.h": "",
    }
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in files.items():
            path = os.path.join(tmp, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        found = sorted(v.split(":")[0] for v in scan(tmp))
    expected = ["include/pypto/ir/a.h", "src/codegen/b.cc", "src/ops/c.cc"]
    if found != expected:
        print(f"self-test failed: flagged {found}, expected {expected}")
        return False
    return True


def main():
    args = sys.argv[1:]
    if args and args[0] == "--self-test":
        args = args[1:]
        if not self_test():
            return 1
    root = args[0] if args else os.path.dirname(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    violations = scan(root)
    for v in violations:
        print(v)
    if violations:
        print(f"{len(violations)} layering violation(s)")
        return 1
    print("layering: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
