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
