"""The DSL enums: upstream member names, the C++ ABI values (pinned here as
literals), and agreement with the C++ spelling table (pypto._core.enum_table)."""

import pypto
import pypto.language as pl
import pypto.language.distributed as pld
from pypto.language._enums import PREFIXES as PL_PREFIXES
from pypto.language.distributed._enums import PREFIXES as PLD_PREFIXES


def test_abi_enum_values_are_pinned():
    assert int(pld.NotifyOp.AtomicAdd) == 0
    assert int(pld.NotifyOp.Set) == 1
    assert int(pld.WaitCmp.Eq) == 0
    assert int(pld.WaitCmp.Ge) == 1
    assert int(pld.AtomicType.None_) == 0
    assert int(pld.AtomicType.Add) == 1
    assert int(pld.ReduceOp.Sum) == 0
    assert int(pld.ReduceOp.Max) == 1
    assert int(pld.ReduceOp.Min) == 2
    assert int(pld.ReduceOp.Prod) == 3
    assert [m.name for m in pld.ReduceOp] == ["Sum", "Max", "Min", "Prod"]


def test_core_enum_values():
    assert int(pl.FunctionType.InCore) == 2
    assert int(pl.FunctionType.Orchestration) == 1
    assert int(pl.Level.HOST) == 5
    assert pl.Level.NODE is pl.Level.HOST
    assert int(pl.Role.Orchestrator) == 0
    assert pl.Mem is pl.MemorySpace
    assert int(pl.Mem.Vec) == 1
    assert int(pl.SplitMode.UP_DOWN) == 1


def test_python_enums_match_the_cpp_table():
    table = {e["prefix"]: e for e in pypto._core.enum_table()}
    checked = 0
    for cls, prefix in list(PL_PREFIXES.items()) + list(PLD_PREFIXES.items()):
        entry = table[prefix]
        canonical = {name: int(m) for name, m in cls.__members__.items() if m.name == name}
        assert canonical == dict(entry["members"]), prefix
        for alias, value in entry["aliases"]:
            if alias.isidentifier() and alias not in ("None",):
                assert int(getattr(cls, alias)) == value, f"{prefix}.{alias}"
        checked += 1
    assert checked == 12


def test_dtypes_match_the_cpp_table():
    names = {d.name: d.get_byte() for d in pl.DTYPES}
    assert names == dict(pypto._core.dtypes())
    assert pl.FP32.get_byte() == 4 and pl.BF16.get_byte() == 2 and pl.INDEX.get_byte() == 8
    assert repr(pl.INT32) == "pl.INT32"
