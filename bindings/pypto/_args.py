"""Argument checks of pypto's Python API: a wrong type, a bad value or an unknown
keyword raises :class:`pypto.ArgumentError` (also a TypeError and a ValueError)
naming the function and the argument, before anything reaches ``pypto._core``
(whose own conversion errors list C++ signatures)."""

from . import _core

ArgumentError = _core.ArgumentError


def _what(value):
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{type(value).__name__} {text}"


def describe(value):
    """``int 7``: the type and (shortened) repr of a rejected argument."""
    return _what(value)


def program(func, value, name="program"):
    """``value`` must be a pypto.Program (from pypto.ir.parse or @pl.program)."""
    if not isinstance(value, _core.Program):
        raise ArgumentError(f"{func}: '{name}' must be a pypto.Program (from pypto.ir.parse or "
                            f"@pl.program), got {_what(value)}")
    return value


def string(func, value, name):
    if not isinstance(value, str):
        raise ArgumentError(f"{func}: '{name}' must be a str, got {_what(value)}")
    return value


def boolean(func, value, name):
    if not isinstance(value, bool):
        raise ArgumentError(f"{func}: '{name}' must be a bool, got {_what(value)}")
    return value


def integer(func, value, name, lo=None, hi=None):
    """An int (not a bool) in [lo, hi] when given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{func}: '{name}' must be an int, got {_what(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise ArgumentError(f"{func}: {name}={value} is out of range ({lo} .. {hi})")
    return value


def number(func, value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentError(f"{func}: '{name}' must be a number, got {_what(value)}")
    return value


def options(func, given, allowed):
    """Every keyword in ``given`` is one of ``allowed``."""
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        raise ArgumentError(f"{func}: unknown option{'s' if len(unknown) > 1 else ''} "
                            f"{', '.join(repr(u) for u in unknown)}; valid options: "
                            f"{', '.join(allowed)}")


def checked(func):
    """Decorator for a public function: a call that does not fit its signature (an
    unknown keyword, too many positional arguments, a missing argument) raises
    :class:`ArgumentError` naming ``func`` and the valid options, instead of
    Python's bare ``TypeError``. The signature, name and docstring are kept."""
    import functools
    import inspect

    def wrap(fn):
        sig = inspect.signature(fn)
        names = [p.name for p in sig.parameters.values()
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        takes_any_keyword = any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values())

        @functools.wraps(fn)
        def call(*args, **kwargs):
            if not takes_any_keyword:
                options(func, [k for k in kwargs if k not in names], names)
            try:
                sig.bind(*args, **kwargs)
            except TypeError as e:
                params = f"its parameters are: {', '.join(names)}" if names else "it takes none"
                raise ArgumentError(f"{func}: {e}; {params}") from None
            return fn(*args, **kwargs)

        return call

    return wrap
