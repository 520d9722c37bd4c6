"""A call of the public Python API that does not fit raises the project's own
pypto.ArgumentError (also a TypeError and a ValueError) naming the function and
what would be right — never pybind's "incompatible function arguments", Python's
bare "unexpected keyword argument", or an AttributeError from deep inside."""

import inspect
import os

import pytest

import pypto
import pypto.ir
import pypto.language as pl
import pypto.sim

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
RING = os.path.join(ROOT, "examples", "ring_exchange.pir")
RUN_PARAMS = ("program, ranks, inputs, schedule, entry, deadline_s, check_signals, detect_races, "
              "poison_nan, trace_path, stats, inputs_random, inputs_seed, memory_limit, timeline, "
              "max_steps, check_alignment")


def _ring():
    return pypto.ir.parse_file(RING)


@pytest.mark.parametrize("call, message", [
    (lambda p: pypto.sim.run(p, 2, shedule="parallel"),
     "pypto.sim.run: unknown option 'shedule'; valid options: " + RUN_PARAMS),
    (lambda p: pypto.sim.run(p),
     "pypto.sim.run: missing a required argument: 'ranks'; its parameters are: " + RUN_PARAMS),
    (lambda p: pypto.sim.run(p, 2, None, "parallel", "host_orch"),
     "pypto.sim.run: too many positional arguments; its parameters are: " + RUN_PARAMS),
    (lambda p: pypto.ir.verify(p, sssa=True),
     "pypto.ir.verify: unknown option 'sssa'; valid options: program, ssa"),
    (lambda p: pypto.ir.emit_pto(p, "a5", False, 1),
     "pypto.ir.emit_pto: too many positional arguments; its parameters are: program, "
     "target_arch, emit_source_loc"),
    (lambda p: pypto.ir.pipeline_names("default"),
     "pypto.ir.pipeline_names: too many positional arguments; it takes none"),
    (lambda p: pypto.ir.parse_file(os.path.join(ROOT, "no_such_file.pir")),
     "pypto.ir.parse_file: cannot open input file '%s': No such file or directory"
     % os.path.join(ROOT, "no_such_file.pir")),
    (lambda p: p.function_text(3),
     "Program.function_text: 'name' must be a str, got int 3"),
    (lambda p: pl.function(7),
     "@pl.function decorates a method of a @pl.program class (a def), got int 7"),
    (lambda p: pl.program("RingExchange"),
     "@pl.program decorates a class whose methods are @pl.function's, got str 'RingExchange'"),
    (lambda p: pl.dynamic(3),
     "pl.dynamic: the symbol name must be an identifier, got 3"),
])
def test_a_call_that_does_not_fit_raises_argument_error(call, message):
    with pytest.raises(pypto.ArgumentError) as info:
        call(_ring())
    assert str(info.value) == message
    assert isinstance(info.value, TypeError) and isinstance(info.value, ValueError)


def test_the_checked_functions_keep_their_signature_and_docstring():
    run = pypto.sim.run
    assert run.__name__ == "run"
    assert "simulated ranks" in run.__doc__
    assert list(inspect.signature(run).parameters)[:4] == ["program", "ranks", "inputs", "schedule"]
    assert pypto.ir.parse_file.__name__ == "parse_file"


# Every public function of pypto.ir and pypto.sim, called with arguments of the
# wrong type: whatever it raises is a pypto.PyptoError.
_BAD_VALUES = [None, 7, 2.5, "x", b"x", [], {}, object()]


def _public_functions():
    for mod in (pypto.ir, pypto.sim):
        for name in sorted(mod.__all__):  # the public names (not imported helpers)
            f = getattr(mod, name)
            if not name.startswith("_") and (inspect.isfunction(f) or inspect.isbuiltin(f)):
                yield f"{mod.__name__}.{name}", f


@pytest.mark.parametrize("name, func", list(_public_functions()))
def test_public_functions_raise_only_project_errors(name, func, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # "x" as a path names nothing
    params = [p for p in inspect.signature(func).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(1 for p in params if p.default is p.empty)
    escaped = []
    for value in _BAD_VALUES:
        for n in sorted({required, len(params), required + 1}):
            try:
                func(*([value] * n))
            except pypto.PyptoError:
                pass
            except Exception as e:  # noqa: BLE001 - the point of the test
                escaped.append(f"{name}({n} x {value!r}): {type(e).__name__}: {e}")
    assert escaped == []
