"""Enums of the core DSL (``pl.FunctionType``, ``pl.Level``, ``pl.Role``,
``pl.Mem``/``pl.MemorySpace``, layouts, pad values, ``pl.SplitMode``).

Member names and integer values mirror the C++ table (include/pypto/ir/enums.h,
src/ir/enums.cc); ``tests/python/test_enums.py`` checks them against
``pypto._core.enum_table()`` so the two can never drift. Inside decorated code
these names are read by the C++ parser, never evaluated; the Python classes exist
so decorator arguments and annotations evaluate and IDEs can complete them.
"""

import enum


class FunctionType(enum.IntEnum):
    """Kind of a ``@pl.function``: kernels are InCore (AIC/AIV/Group after
    ExpandMixedKernel), per-device orchestration is Orchestration, the host
    orchestrator is Opaque with level HOST."""
    Opaque = 0
    Orchestration = 1
    InCore = 2
    AIC = 3
    AIV = 4
    Group = 5
    Spmd = 6


class Level(enum.IntEnum):
    """Hierarchy level of a function or ``pl.at`` scope. NODE/POD/UMA/... are
    upstream's aliases of the same levels."""
    AIV = 0
    AIC = 1
    CORE_GROUP = 2
    CHIP_DIE = 3
    CHIP = 4
    HOST = 5
    CLUSTER_0 = 6
    CLUSTER_1 = 7
    CLUSTER_2 = 8
    GLOBAL = 9
    # aliases (same values)
    L2CACHE = 3
    PROCESSOR = 4
    UMA = 4
    NODE = 5
    POD = 6
    CLOS1 = 7
    CLOS2 = 8


class Role(enum.IntEnum):
    """Role of a host/chip function: the orchestrator or a host sub-worker."""
    Orchestrator = 0
    SubWorker = 1


class MemorySpace(enum.IntEnum):
    """Where a tile lives (``pl.Mem.Vec`` is the vector unit's UB)."""
    DDR = 0
    Vec = 1
    Mat = 2
    Left = 3
    Right = 4
    Acc = 5
    Bias = 6
    ScalarLocal = 7


Mem = MemorySpace


class TensorLayout(enum.IntEnum):
    """Layout of a GM tensor view."""
    ND = 0
    DN = 1
    NZ = 2


class TileLayout(enum.IntEnum):
    """Block layout of a tile."""
    none_box = 0
    row_major = 1
    col_major = 2


class PadValue(enum.IntEnum):
    """Value padding a partial tile."""
    null = 0
    zero = 1
    max = 2
    min = 3


class SplitMode(enum.IntEnum):
    """How ``pl.split_aiv`` divides a tile between the two AIV lanes."""
    NONE = 0
    UP_DOWN = 1
    LEFT_RIGHT = 2


# DSL prefix of each enum class, as the C++ table spells it.
PREFIXES = {
    FunctionType: "pl.FunctionType",
    Level: "pl.Level",
    Role: "pl.Role",
    MemorySpace: "pl.Mem",
    TensorLayout: "pl.TensorLayout",
    TileLayout: "pl.TileLayout",
    PadValue: "pl.PadValue",
    SplitMode: "pl.SplitMode",
}
