"""Hostile types and calls through the Python DSL: a bad dim in a parameter
annotation (zero, negative, float, folding to zero) raises pypto.ParseError
naming this file, the line and the column of the dim; a recursive program is
rejected by pypto.sim.run's verifier with the call cycle named; and the
executor's call-depth bound turns unverified recursion into pypto.SimError
instead of killing the interpreter."""

import re

import pytest

import pypto
import pypto.ir
import pypto.language as pl
from pypto import _core


def _first_error(exc):
    m = re.match(r"^(.*?):(\d+):(\d+): error: (.*)$", str(exc).split("\n")[0])
    assert m, str(exc)
    return m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)


def _zero():
    @pl.program
    class Zero:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[0, 64], pl.FP32]):  # dim-zero
            return


def _negative():
    @pl.program
    class Negative:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[-2, 64], pl.FP32]):  # dim-negative
            return


def _float():
    @pl.program
    class Float:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[16.5, 64], pl.FP32]):  # dim-float
            return


def _folds_to_zero():
    @pl.program
    class FoldsToZero:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[1 - 1, 64], pl.FP32]):  # dim-folded
            return


@pytest.mark.parametrize("build, marker, message", [
    (_zero, "dim-zero",
     "dimension 0 of pl.Tensor[[0, 64], pl.FP32] is 0; static dimensions must be positive"),
    (_negative, "dim-negative",
     "dimension 0 of pl.Tensor[[-2, 64], pl.FP32] is -2; static dimensions must be positive"),
    (_float, "dim-float",
     "dimension 0 of pl.Tensor[[16.5, 64], pl.FP32] is 16.5, a pl.FP32 value; dimensions must "
     "be integers"),
    (_folds_to_zero, "dim-folded",
     "dimension 0 of pl.Tensor[[0, 64], pl.FP32] is 0 (written 1 - 1); static dimensions must "
     "be positive"),
])
def test_a_bad_dim_is_a_parse_error_at_the_dim(build, marker, message):
    with pytest.raises(pypto.ParseError) as info:
        build()
    line = next(i for i, t in enumerate(open(__file__, encoding="utf-8"), 1)
                if "# " + marker in t)
    text = open(__file__, encoding="utf-8").read().splitlines()[line - 1]
    col = text.index("[[") + 3  # 1-based column of the first dim
    f, ln, c, msg = _first_error(info.value)
    assert (f, ln, c, msg) == (__file__, line, col, message)


REC = """import pypto.language as pl


@pl.program
class Rec:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        self.f()

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def f(self):
        self.g()

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def g(self):
        self.f()
"""


def test_recursion_is_rejected_by_the_verifier_of_sim_run():
    prog = pypto.ir.parse(REC, "rec.pir", verify=False)
    with pytest.raises(pypto.VerifyError) as info:
        pypto.sim.run(prog, ranks=1)
    assert info.value.exit_code == 1
    assert str(info.value).split("\n")[0] == (
        "rec.pir:16:9: error: recursive call of 'f' (call cycle: f -> g -> f); recursion is not "
        "supported: functions are inlined and run on a bounded stack")


def test_unverified_recursion_hits_the_call_depth_bound_not_the_stack():
    prog = pypto.ir.parse(REC, "rec.pir", verify=False)
    with pytest.raises(pypto.SimError) as info:
        _core.run_program(prog, ranks=1, verify=False)
    assert info.value.exit_code == 1
    # The 128th nested call is refused: host_orch -> f -> g -> ... ; f calls g at line 12.
    assert str(info.value).split("\n")[0] == (
        "rec.pir:12:9: error: call of 'g' exceeds the call depth limit of 128 nested calls "
        "(recursion? the verifier rejects call cycles)")
