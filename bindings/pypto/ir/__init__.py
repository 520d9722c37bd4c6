"""``pypto.ir``: the compiler pipeline on :class:`pypto.Program` objects.

``parse(text)`` / ``python_print(program)`` (also ``str(program)``) convert between
IR text — the DSL syntax — and programs; ``verify``; ``structural_equal``;
``run_passes(program, "default" | "a,b")``; ``emit_pto(program)``. Errors raise
``pypto.PyptoError`` subclasses; an argument of the wrong type or an unknown
option raises ``pypto.ArgumentError``. For programs built by the decorators,
every reported position is mapped back to the user's Python source.
"""

import os

from .. import _args, _core
from .._core import Program
from ..language._frontend import remap_error

_PARSE_OPTIONS = ("verify", "allow_internal_ops", "constants", "target_arch")
_PASS_OPTIONS = ("verify_each", "roundtrip_each", "print_after", "print_after_all",
                 "time_passes")


def _check_pass_options(func, options):
    _args.options(func, options, _PASS_OPTIONS)
    for name, value in options.items():
        if name == "print_after":
            if isinstance(value, str) or not all(isinstance(v, str) for v in value):
                raise _args.ArgumentError(f"{func}: 'print_after' must be a list of pass names "
                                          f"(str), got {type(value).__name__} {value!r}")
        else:
            _args.boolean(func, value, name)


def _mapped(program, fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except _core.PyptoError as e:
        raise remap_error(e, getattr(program, "_pypto_source_map", None)) from None


def _inherit(src, dst):
    smap = getattr(src, "_pypto_source_map", None)
    if smap is not None:
        dst._pypto_source_map = smap
    return dst


@_args.checked("pypto.ir.parse")
def parse(text, filename="<string>", *, verify=True, allow_internal_ops=True, constants=None,
          target_arch="a2a3"):
    """Parses IR text into a Program and (unless ``verify=False``) verifies it.
    ``allow_internal_ops`` accepts compiler-only ops (printed IR after passes).
    Raises ParseError / VerifyError with the rendered diagnostics."""
    func = "pypto.ir.parse"
    _args.string(func, text, "text")
    _args.string(func, filename, "filename")
    _args.boolean(func, verify, "verify")
    _args.boolean(func, allow_internal_ops, "allow_internal_ops")
    _args.string(func, target_arch, "target_arch")
    prog = _core.parse(text, filename=filename, allow_internal_ops=allow_internal_ops,
                       constants=constants, target_arch=target_arch)
    if verify:
        _core.verify(prog)
    return prog


@_args.checked("pypto.ir.parse_file")
def parse_file(path, **kwargs):
    """Parses a ``.pir`` (or ``.py`` with a ``@pl.program`` class) file."""
    if not isinstance(path, (str, os.PathLike)):
        raise _args.ArgumentError(f"pypto.ir.parse_file: 'path' must be a str or path, got "
                                  f"{type(path).__name__} {path!r}")
    _args.options("pypto.ir.parse_file", kwargs, _PARSE_OPTIONS)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:  # the message of pypto-opt / pypto-run for an unreadable file
        raise _args.ArgumentError(f"pypto.ir.parse_file: cannot open input file '{os.fspath(path)}': "
                                  f"{e.strerror or e}") from None
    return parse(text, filename=str(path), **kwargs)


@_args.checked("pypto.ir.python_print")
def python_print(program):
    """The canonical IR text of a program (print -> parse -> print is byte-identical)."""
    return _core.python_print(_args.program("pypto.ir.python_print", program))


@_args.checked("pypto.ir.verify")
def verify(program, ssa=False):
    """Verifies a program (``ssa=True``: also require SSA form); raises VerifyError
    listing every problem."""
    _args.program("pypto.ir.verify", program)
    _args.boolean("pypto.ir.verify", ssa, "ssa")
    _mapped(program, _core.verify, program, ssa=ssa)


@_args.checked("pypto.ir.structural_equal")
def structural_equal(a, b):
    """True when two programs are structurally equal (spans and names ignored)."""
    return _core.structural_equal(_args.program("pypto.ir.structural_equal", a, "a"),
                                  _args.program("pypto.ir.structural_equal", b, "b"))


@_args.checked("pypto.ir.structural_diff")
def structural_diff(a, b):
    """None when structurally equal, else the first difference."""
    return _core.structural_diff(_args.program("pypto.ir.structural_diff", a, "a"),
                                 _args.program("pypto.ir.structural_diff", b, "b"))


@_args.checked("pypto.ir.assert_structural_equal")
def assert_structural_equal(a, b):
    """Raises AssertionError describing the first difference when ``a != b``."""
    why = structural_diff(a, b)
    if why is not None:
        raise AssertionError(f"programs differ structurally: {why}")


@_args.checked("pypto.ir.structural_hash")
def structural_hash(program):
    """Hash consistent with structural_equal."""
    return _core.structural_hash(_args.program("pypto.ir.structural_hash", program))


@_args.checked("pypto.ir.run_passes")
def run_passes(program, pipeline="default", **options):
    """Runs a named pipeline (``"default"``) or a comma-separated pass list and returns
    the new Program. Options: verify_each, roundtrip_each, print_after (list of pass
    names), print_after_all, time_passes; their output is in ``result.pass_log``."""
    return _run_passes("pypto.ir.run_passes", program, pipeline, options)


def _run_passes(func, program, pipeline, options):
    _args.program(func, program)
    _args.string(func, pipeline, "pipeline")
    _check_pass_options(func, options)
    out = _mapped(program, _core.run_passes, program, pipeline, **options)
    return _inherit(program, out)


@_args.checked("pypto.ir.pipeline_names")
def pipeline_names():
    """Names of the named pipelines (``"default"``, ...)."""
    return _core.pipeline_names()


@_args.checked("pypto.ir.pass_names")
def pass_names(implemented_only=False):
    """Every known pass in default-pipeline order. Every registered pass is
    implemented, so ``implemented_only`` (kept for compatibility) changes nothing."""
    return _core.pass_names(_args.boolean("pypto.ir.pass_names", implemented_only,
                                          "implemented_only"))


@_args.checked("pypto.ir.compile")
def compile(program, pipeline="default", **options):
    """Alias of :func:`run_passes` (upstream's ``ir.compile`` entry point name)."""
    return _run_passes("pypto.ir.compile", program, pipeline, options)


@_args.checked("pypto.ir.emit_pto")
def emit_pto(program, target_arch="", emit_source_loc=False):
    """PTO MLIR text of every kernel of a (lowered) program: dict name -> text."""
    _args.program("pypto.ir.emit_pto", program)
    _args.string("pypto.ir.emit_pto", target_arch, "target_arch")
    _args.boolean("pypto.ir.emit_pto", emit_source_loc, "emit_source_loc")
    return _mapped(program, _core.emit_pto, program, target_arch=target_arch,
                   emit_source_loc=emit_source_loc)


__all__ = ["Program", "parse", "parse_file", "python_print", "verify", "structural_equal",
           "structural_diff", "assert_structural_equal", "structural_hash", "run_passes",
           "pipeline_names", "pass_names",
           "compile", "emit_pto"]
