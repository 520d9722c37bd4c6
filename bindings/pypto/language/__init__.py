"""``pypto.language`` (imported as ``pl``): the PyPTO DSL with upstream's names.

Write programs as a ``@pl.program`` class of ``@pl.function`` methods, or as
``@pl.jit.incore`` / ``@pl.jit`` / ``@pl.jit.host`` functions; the decorators hand
the source to the C++ parser, which builds and verifies the IR. Everything else
here (types, dtypes, enums, ops, loops, scopes) is the vocabulary of that source:
it evaluates in Python (so annotations and decorator arguments work and IDEs can
complete it) but DSL ops only have meaning inside decorated bodies.

The distributed family lives in :mod:`pypto.language.distributed` (``pld``).
"""

from ._enums import (FunctionType, Level, Mem, MemorySpace, PadValue, Role, SplitMode,
                     TensorLayout, TileLayout)
from ._types import (BF16, BFLOAT16, BOOL, DTYPES, FLOAT16, FLOAT32, FP16, FP32, FP64, INDEX,
                     INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, Array, DataType,
                     DynVar, InOut, Out, Ptr, Scalar, Tensor, Tile, Tuple, TypeAnnotation,
                     dynamic)
from ._stub import DSLUsageError
from ._control import (add, assemble, at, cond, const, div, load, manual_scope, max, maximum,
                       min, minimum, mul, parallel, range, read, split_aiv, spmd, store, sub,
                       unroll, while_, write, yield_)
from ._decorators import JitFunction, function, jit, program
from . import array, system, tensor, tile
from . import distributed


def parse(text, filename="<string>", *, verify=True, allow_internal_ops=True):
    """Parses IR text (the DSL syntax printed by ``pypto.ir.python_print``) into a
    ``pypto.Program``; verifies it unless ``verify=False``. Raises ParseError /
    VerifyError whose message is the rendered ``file:line:col: error: ...`` text."""
    from .. import ir
    return ir.parse(text, filename, verify=verify, allow_internal_ops=allow_internal_ops)


__all__ = [
    "FunctionType", "Level", "Mem", "MemorySpace", "PadValue", "Role", "SplitMode",
    "TensorLayout", "TileLayout",
    "BF16", "BFLOAT16", "BOOL", "FLOAT16", "FLOAT32", "FP16", "FP32", "FP64", "INDEX", "INT8",
    "INT16", "INT32", "INT64", "UINT8", "UINT16", "UINT32", "UINT64", "Array", "DataType", "DynVar",
    "InOut", "Out", "Ptr", "Scalar", "Tensor", "Tile", "Tuple", "TypeAnnotation", "DTYPES",
    "dynamic",
    "DSLUsageError",
    "add", "assemble", "at", "cond", "const", "div", "load", "manual_scope", "max", "maximum",
    "min", "minimum", "mul", "parallel", "range", "read", "split_aiv", "spmd", "store", "sub",
    "unroll", "while_", "write", "yield_",
    "JitFunction", "function", "jit", "program", "parse",
    "array", "system", "tensor", "tile", "distributed",
]
