"""The four ABI enums of the distributed op family (include/pypto/ir/comm.h).

Append-only: the integer value is the kwarg payload stored in IR (``op=`` of
notify and the collectives, ``cmp=`` of wait/defer_wait, ``atomic=`` of put and
remote_store). Member names are upstream's (``AtomicType.None_`` because ``None``
is a Python keyword). ``tests/python/test_enums.py`` pins the values and checks
them against ``pypto._core.enum_table()``.
"""

import enum


class NotifyOp(enum.IntEnum):
    """How ``pld.system.notify`` writes the peer's signal cell."""
    AtomicAdd = 0  #: atomically add ``value`` to the cell
    Set = 1        #: plain store of ``value`` (never mix with AtomicAdd on one cell)


class WaitCmp(enum.IntEnum):
    """Comparison ``pld.system.wait`` / ``defer_wait`` blocks on."""
    Eq = 0  #: until cell == expected
    Ge = 1  #: until cell >= expected (the one to use for counters)


class AtomicType(enum.IntEnum):
    """Whether a remote write overwrites or accumulates into the peer's region."""
    None_ = 0  #: plain store
    Add = 1    #: peer_region += src (fp32/bf16/fp16/int32/int16/int8; bf16 on A2/A3 only)
    NONE = 0   #: alias of None_ (also accepted by the parser)


class ReduceOp(enum.IntEnum):
    """Reduction of the collectives."""
    Sum = 0
    Max = 1
    Min = 2
    Prod = 3


PREFIXES = {
    NotifyOp: "pld.NotifyOp",
    WaitCmp: "pld.WaitCmp",
    AtomicType: "pld.AtomicType",
    ReduceOp: "pld.ReduceOp",
}
