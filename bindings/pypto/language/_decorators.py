"""``@pl.program``, ``@pl.function`` and ``@pl.jit`` (``.incore``/``.host``).

``@pl.program`` turns a class into a ``pypto.Program`` by compiling the class's
source with the C++ parser (see :mod:`pypto.language._frontend`). ``@pl.function``
only marks methods: the parser reads its arguments from the source text.

``@pl.jit.incore`` / ``@pl.jit`` / ``@pl.jit.host`` mark top-level functions that
call each other by name. Each returns a :class:`JitFunction`; its ``program``
gathers every jit function reachable by name from it (through the defining
scope: closures, locals of the defining frame, module globals) into one program
text, in source order, and compiles it on first use.
"""

import inspect
import sys

from .. import _args
from . import _frontend


def program(cls=None, **kwargs):
    """Class decorator: compiles the class body (``@pl.function`` methods) into a
    ``pypto.Program`` named after the class. Errors raise ``pypto.ParseError`` /
    ``pypto.VerifyError`` naming the class's file and line."""
    frame = sys._getframe(1)

    def wrap(c):
        if not inspect.isclass(c):
            raise _args.ArgumentError("@pl.program decorates a class whose methods are "
                                      f"@pl.function's, got {_args.describe(c)}")
        return _compile_class(c, frame)

    if cls is None:
        return wrap
    return wrap(cls)


def _compile_class(cls, frame):
    lines, file, first, col = _frontend.source_of(cls, "@pl.program", frame)
    src = _frontend.ProgramSource()
    ns = [frame.f_locals, frame.f_globals]
    # A class attribute bound to a @pl.function made elsewhere (a kernel factory)
    # becomes a method: its source replaces the assignment, re-indented to the
    # class body and renamed to the attribute.
    at, scan = 0, "\n".join(lines)
    for lo, hi, indent, name, fn in _frontend.attached_functions(cls, lines):
        if lo > at:
            src.add(lines[at:lo], file, first + at, col, ns, scan=scan)
            scan = ""
        flines, ffile, ffirst, fcol = _frontend.source_of(fn, f"@pl.program {cls.__name__}.{name}")
        fscan, pad = "\n".join(flines), " " * indent
        flines = [pad + ln if ln.strip() else ln for ln in flines]
        for i, ln in enumerate(flines):
            if ln.lstrip().startswith("def "):
                flines[i] = ln.replace("def " + fn.__name__, "def " + name, 1)
                break
        src.add(flines, ffile, ffirst, fcol - indent, _frontend.function_namespaces(fn), scan=fscan)
        at = hi + 1
    if at < len(lines):
        src.add(lines[at:], file, first + at, col, ns, scan=scan)
    return _frontend.compile_source(src, file)


def function(fn=None, *, type=None, level=None, role=None, **kwargs):
    """Marks a method of a ``@pl.program`` class as a function of the program:
    ``type=pl.FunctionType.InCore|Orchestration|...``, or ``level=`` and ``role=``
    (the host orchestrator is ``level=pl.Level.HOST, role=pl.Role.Orchestrator``).
    The parser reads these arguments from the source; the method is returned as is."""

    def mark(f):
        if not inspect.isfunction(f):
            raise _args.ArgumentError("@pl.function decorates a method of a @pl.program class "
                                      f"(a def), got {_args.describe(f)}")
        f.__pypto_function__ = dict(type=type, level=level, role=role, **kwargs)
        return f

    if fn is None:
        return mark
    return mark(fn)


class JitFunction:
    """A ``@pl.jit``-decorated function. ``.program`` is the compiled program made
    of it and every jit function it reaches by name; ``.compile(pipeline)`` runs a
    pass pipeline on it. Calling it from Python is an error (the body is DSL)."""

    def __init__(self, fn, kind, frame, options):
        self.fn = fn
        self.kind = kind  # "incore" | "orchestration" | "host"
        self.options = options
        self._frame = frame
        self._program = None
        self.__name__ = fn.__name__
        self.__qualname__ = fn.__qualname__
        self.__doc__ = fn.__doc__
        self.__module__ = fn.__module__
        self.__wrapped__ = fn

    def __repr__(self):
        return f"<pl.jit.{self.kind} function {self.__qualname__}>"

    def __call__(self, *args, **kwargs):
        from ._stub import DSLUsageError
        raise DSLUsageError(
            f"{self.__qualname__}: a @pl.jit function is DSL code and cannot be called from "
            "ordinary Python; use .program (the compiled pypto.Program), .compile(), or "
            "pypto.sim.run(f.program, ...)")

    def _namespaces(self):
        ns = []
        try:
            cv = inspect.getclosurevars(self.fn)
            ns.append(dict(cv.nonlocals))
        except (TypeError, ValueError):
            pass
        if self._frame is not None:
            ns.append(self._frame.f_locals)
        ns.append(self.fn.__globals__)
        return ns

    @property
    def program(self):
        """The parsed and verified ``pypto.Program`` rooted at this function."""
        if self._program is None:
            self._program = _compile_jit(self)
        return self._program

    def compile(self, pipeline="default", **kwargs):
        """Runs a pass pipeline over ``.program`` (see ``pypto.ir.run_passes``)."""
        from .. import ir
        return ir.run_passes(self.program, pipeline, **kwargs)


def _compile_jit(root):
    src = _frontend.ProgramSource()
    todo, seen, items = [root], set(), []
    while todo:
        f = todo.pop()
        if id(f) in seen:
            continue
        seen.add(id(f))
        lines, file, first, col = _frontend.source_of(f.fn, f"@pl.jit.{f.kind}")
        items.append((file, first, lines, col, f))
        for _, v in _frontend.ProgramSource().add(lines, file, first, col, f._namespaces()):
            if isinstance(v, JitFunction):
                todo.append(v)
    root_file = items[0][0]
    items.sort(key=lambda t: (t[0] != root_file, t[0], t[1]))
    for file, first, lines, col, f in items:
        src.add(lines, file, first, col, f._namespaces())
    return _frontend.compile_source(src, root_file)


class _JitDecorator:
    """``pl.jit`` (chip orchestration), ``pl.jit.incore`` (kernel), ``pl.jit.host``
    (host orchestrator). Usable bare or with options: ``@pl.jit.incore(...)``."""

    def __init__(self, kind):
        self._kind = kind

    def __call__(self, fn=None, **options):
        frame = sys._getframe(1)
        if fn is None:
            return lambda f: JitFunction(f, self._kind, frame, options)
        return JitFunction(fn, self._kind, frame, options)

    def __repr__(self):
        return f"<pl.jit decorator ({self._kind})>"


class _Jit(_JitDecorator):
    def __init__(self):
        super().__init__("orchestration")
        self.incore = _JitDecorator("incore")
        self.host = _JitDecorator("host")


jit = _Jit()
