"""Type annotations and data types of the DSL: ``pl.FP32``..., ``pl.Tensor[[M, N],
pl.FP32]``, ``pl.Tile[...]``, ``pl.Scalar[...]``, ``pl.InOut[...]``/``pl.Out[...]``,
``pl.Ptr`` and ``pl.dynamic("NR")``.

Python evaluates parameter annotations when a decorated class or function is
defined, so these objects must be constructible; they only record what was
written (``repr`` gives the DSL spelling). The C++ parser reads the annotations
from the source text — these objects never reach it, except ``pl.dynamic``
symbols, which the decorators forward as ``NAME = pl.dynamic("NAME")``.
"""

from .. import _args


class DataType:
    """An element data type (``pl.FP32``). ``get_byte()`` is its size in bytes,
    usable in DSL size expressions such as ``256 * pl.FP32.get_byte()``."""

    __slots__ = ("name", "_bytes")

    def __init__(self, name, nbytes):
        self.name = name
        self._bytes = nbytes

    def get_byte(self):
        """Size of one element in bytes."""
        return self._bytes

    def __repr__(self):
        return "pl." + self.name

    def __reduce__(self):
        return (_dtype_by_name, (self.name,))


BOOL = DataType("BOOL", 1)
INT8 = DataType("INT8", 1)
INT16 = DataType("INT16", 2)
INT32 = DataType("INT32", 4)
INT64 = DataType("INT64", 8)
UINT8 = DataType("UINT8", 1)
UINT16 = DataType("UINT16", 2)
UINT32 = DataType("UINT32", 4)
UINT64 = DataType("UINT64", 8)
FP16 = DataType("FP16", 2)
BF16 = DataType("BF16", 2)
FP32 = DataType("FP32", 4)
FP64 = DataType("FP64", 8)
INDEX = DataType("INDEX", 8)
FLOAT32, FLOAT16, BFLOAT16 = FP32, FP16, BF16  # upstream spellings

DTYPES = (BOOL, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FP16, BF16, FP32,
          FP64, INDEX)
_BY_NAME = {d.name: d for d in DTYPES}


def _dtype_by_name(name):
    return _BY_NAME[name]


class _SymExpr:
    """Arithmetic on ``pl.dynamic`` symbols inside annotations (``NR * 64``)."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text

    def _bin(self, op, other, rev=False):
        a, b = _sym_text(self), _sym_text(other)
        return _SymExpr(f"{b} {op} {a}" if rev else f"{a} {op} {b}")

    def __add__(self, o): return self._bin("+", o)
    def __radd__(self, o): return self._bin("+", o, True)
    def __sub__(self, o): return self._bin("-", o)
    def __rsub__(self, o): return self._bin("-", o, True)
    def __mul__(self, o): return self._bin("*", o)
    def __rmul__(self, o): return self._bin("*", o, True)
    def __floordiv__(self, o): return self._bin("//", o)
    def __rfloordiv__(self, o): return self._bin("//", o, True)
    def __mod__(self, o): return self._bin("%", o)
    def __rmod__(self, o): return self._bin("%", o, True)


def _sym_text(x):
    if isinstance(x, DynVar):
        return x.name
    if isinstance(x, _SymExpr):
        return f"({x.text})"
    return repr(x)


class DynVar(_SymExpr):
    """A dynamic dimension symbol created by ``pl.dynamic("NR")``. Declare it at
    module level (``NR = pl.dynamic("NR")``) and use it in shapes; the decorators
    forward it to the parser, and the executor binds it from input shapes."""

    __slots__ = ("name",)

    def __init__(self, name):
        if not isinstance(name, str) or not name.isidentifier():
            raise _args.ArgumentError(f"pl.dynamic: the symbol name must be an identifier, got "
                                      f"{name!r}")
        super().__init__(name)
        self.name = name

    def __repr__(self):
        return f'pl.dynamic("{self.name}")'


def dynamic(name):
    """Declares a dynamic (symbolic) dimension, e.g. ``NR = pl.dynamic("NR")``."""
    return DynVar(name)


def _fmt(x):
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(_fmt(e) for e in x) + "]"
    if isinstance(x, DynVar):
        return x.name
    if hasattr(x, "name") and hasattr(type(x), "__members__"):  # an IntEnum member
        from ._enums import PREFIXES
        pre = PREFIXES.get(type(x))
        if pre is None:
            from .distributed._enums import PREFIXES as DP
            pre = DP.get(type(x), type(x).__name__)
        return f"{pre}.{x.name}"
    return repr(x)


class TypeAnnotation:
    """What ``pl.Tensor[...]`` and friends evaluate to: the type's DSL name and the
    subscript arguments as written."""

    __slots__ = ("kind", "args")

    def __init__(self, kind, args):
        self.kind = kind
        self.args = args

    def __repr__(self):
        if not self.args:
            return self.kind
        return f"{self.kind}[{', '.join(_fmt(a) for a in self.args)}]"

    def __eq__(self, other):
        return isinstance(other, TypeAnnotation) and (self.kind, repr(self)) == (
            other.kind, repr(other))

    def __hash__(self):
        return hash(repr(self))


class _TypeForm:
    """Base of the subscriptable annotation classes."""

    _dsl_name = ""
    _min_args = 1

    def __class_getitem__(cls, params):
        args = params if isinstance(params, tuple) else (params,)
        if len(args) < cls._min_args:
            raise TypeError(f"{cls._dsl_name}[...] needs at least {cls._min_args} arguments")
        return TypeAnnotation(cls._dsl_name, args)

    def __init__(self, *a, **k):
        raise TypeError(f"{self._dsl_name} is a type annotation; it cannot be instantiated "
                        "(use it as pl.Tensor[[shape], dtype] in a parameter annotation)")


class Tensor(_TypeForm):
    """GM tensor: ``pl.Tensor[[shape...], dtype(, layout)]``."""
    _dsl_name = "pl.Tensor"
    _min_args = 2


class Tile(_TypeForm):
    """On-core tile: ``pl.Tile[[shape...], dtype(, pl.Mem.Vec)]``."""
    _dsl_name = "pl.Tile"
    _min_args = 2


class Array(_TypeForm):
    """Kernel-local scalar array: ``pl.Array[16, pl.INT32]`` (see ``pl.array``)."""
    _dsl_name = "pl.Array"
    _min_args = 2


class Scalar(_TypeForm):
    """Scalar value: ``pl.Scalar[pl.INT32]``."""
    _dsl_name = "pl.Scalar"


class InOut(_TypeForm):
    """Parameter direction: read and written (``pl.InOut[pl.Tensor[...]]``)."""
    _dsl_name = "pl.InOut"


class Out(_TypeForm):
    """Parameter direction: write-only output (``pl.Out[pl.Tensor[...]]``)."""
    _dsl_name = "pl.Out"


class Tuple(_TypeForm):
    """Tuple of values: ``pl.Tuple[T1, T2]``."""
    _dsl_name = "pl.Tuple"


class Ptr(_TypeForm):
    """Opaque pointer handle (what ``pld.alloc_window_buffer`` returns)."""
    _dsl_name = "pl.Ptr"
    _min_args = 0
