"""The lit test format of tests/lit: lit's ShTest (the file's own RUN lines), then
the round-trip check that every .pir gets without asking for it.

After the RUN lines pass, `pypto-opt FILE` is run once more:
  * exit 1 (parse or verify diagnostics): the file is an expected-error input
    (parse_errors/, malformed/, *_errors.pir, or a comment-only file whose RUN
    lines feed other inputs); its RUN lines own those diagnostics, and there is
    no IR to round-trip. Any other non-zero exit (a crash, an internal error)
    fails the test.
  * exit 0: the printed IR must parse again and print byte-identically
    (print -> parse -> print), and `--pipeline=default --roundtrip-each
    --verify-each` must give exactly what `--pipeline=default` gives: either
    both succeed, or both fail with the same exit code and diagnostics (a pass
    that rejects the input is fine; a pass whose output does not verify or does
    not round-trip is not).
"""
import difflib
import os
import subprocess

import lit.Test
import lit.formats

TIMEOUT_S = 120


def _run(opt, args, env, stdin=None):
    p = subprocess.run([opt] + args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=env, timeout=TIMEOUT_S)
    return p.returncode, p.stdout, p.stderr


def _text(b):
    return b.decode("utf-8", "replace")


def _diff(a, b, name_a, name_b):
    lines = difflib.unified_diff(_text(a).splitlines(True), _text(b).splitlines(True), name_a,
                                 name_b, n=2)
    return "".join(list(lines)[:80])


def roundtrip_problem(opt, path, env):
    """None when `path` round-trips (or does not parse, exit 1); else a description."""
    cmd = "pypto-opt %s" % path
    rc, printed, err = _run(opt, [path], env)
    if rc == 1:
        return None  # expected-error input: nothing to round-trip
    if rc != 0:
        return "round trip: `%s` exited %d (expected 0, or 1 with diagnostics):\n%s" % (
            cmd, rc, _text(err))
    rc, again, err = _run(opt, ["-"], env, stdin=printed)
    if rc != 0:
        return "round trip: the IR printed by `%s` does not parse again (exit %d):\n%s" % (
            cmd, rc, _text(err))
    if again != printed:
        return "round trip: print -> parse -> print is not byte-identical:\n" + _diff(
            printed, again, "print", "print(parse(print))")
    plain = _run(opt, [path, "--pipeline=default"], env)
    checked = _run(opt, [path, "--pipeline=default", "--roundtrip-each", "--verify-each"], env)
    if checked != plain:
        return ("round trip: `%s --pipeline=default --roundtrip-each --verify-each` differs from "
                "`%s --pipeline=default` (exit %d vs %d):\n%s%s" %
                (cmd, cmd, checked[0], plain[0], _text(checked[2]),
                 _diff(plain[1], checked[1], "default", "default+checks")))
    return None


class RoundTripShTest(lit.formats.ShTest):
    """ShTest plus the round-trip check of the test file itself (see the module doc)."""

    def execute(self, test, litConfig):
        result = super().execute(test, litConfig)
        if isinstance(result, tuple):
            result = lit.Test.Result(*result)
        if result.code != lit.Test.PASS or litConfig.noExecute:
            return result
        opt = os.path.join(test.config.pypto_bin_dir, "pypto-opt")
        try:
            problem = roundtrip_problem(opt, test.getSourcePath(), test.config.environment)
        except subprocess.TimeoutExpired as e:
            problem = "round trip: `%s` timed out after %ds" % (" ".join(e.cmd), TIMEOUT_S)
        if problem is None:
            return result
        return lit.Test.Result(lit.Test.FAIL, (result.output or "") + "\n" + problem)
