"""The Python op functions: every registered op resolves to a documented stub, the
explicit pld stubs carry the registry's argument and kwarg names (upstream's
signatures), and calling any of them from ordinary Python raises DSLUsageError
naming the op."""

import inspect

import pytest

import pypto
import pypto.language as pl
import pypto.language.distributed as pld

# Upstream's DSL spells these parameters differently from the C++ registry; the
# stub keeps upstream's name (reported to the op owners).
KNOWN_NAME_DIFFERENCES = {}


def _pld_ops():
    return [n for n in pypto._core.op_names() if n.startswith("pld.")]


def _stub_for(name):
    parts = name.split(".")
    root = pld if parts[0] == "pld" else pl
    ns = parts[1:-1] if parts[0] == "pld" else parts[:-1]
    obj = root
    for p in ns:
        obj = getattr(obj, p)
    return getattr(obj, parts[-1])


def test_every_registered_op_has_a_stub():
    missing = []
    for name in pypto._core.op_names(include_internal=False):
        try:
            stub = _stub_for(name)
        except AttributeError:
            missing.append(name)
            continue
        assert stub.__pypto_op__ == name
        assert stub.__doc__
    assert missing == []


@pytest.mark.parametrize("name", _pld_ops())
def test_pld_stub_signature_matches_registry(name):
    info = pypto._core.op_info(name)
    sig = inspect.signature(_stub_for(name))
    rename = KNOWN_NAME_DIFFERENCES.get(name, {})
    pos = [rename.get(p.name, p.name) for p in sig.parameters.values()
           if p.kind == p.POSITIONAL_OR_KEYWORD]
    kw = {p.name for p in sig.parameters.values() if p.kind == p.KEYWORD_ONLY}
    assert pos == [a for a, _ in info["args"]]
    assert kw == {k["name"] for k in info["kwargs"]}
    # Required kwargs have no default (upstream: `op: NotifyOp`); alloc_window_buffer's
    # `name` is required in IR but filled in by the parser from the assignment target.
    for k in info["kwargs"]:
        if (name, k["name"]) == ("pld.tensor.alloc_window_buffer", "name"):
            continue
        has_default = sig.parameters[k["name"]].default is not inspect.Parameter.empty
        assert has_default == (not k["required"]), k["name"]
    # Optional positional args are exactly the registry's optional tail.
    required = [p.name for p in sig.parameters.values()
                if p.kind == p.POSITIONAL_OR_KEYWORD and p.default is inspect.Parameter.empty]
    if name != "pld.tensor.allreduce":  # signal omissible in upstream's DSL (host synthesis)
        assert len(required) == info["min_args"]


def test_short_forms_exist():
    for short, full in [("world_size", pld.system.world_size),
                        ("get_comm_ctx", pld.system.get_comm_ctx),
                        ("rank", pld.system.rank), ("nranks", pld.system.nranks),
                        ("alloc_window_buffer", pld.tensor.alloc_window_buffer),
                        ("window", pld.tensor.window)]:
        assert getattr(pld, short) is full
    assert pld.remote_load.__pypto_op__ == "pld.tile.remote_load"
    assert callable(pld.remote_store)
    for n in ("notify", "wait", "defer_wait", "put", "get", "allreduce", "barrier"):
        assert not hasattr(pld, n), n  # upstream has no short form for these


def test_calling_a_stub_raises_naming_the_op():
    with pytest.raises(pl.DSLUsageError, match=r"^pld\.system\.notify: DSL operation called"):
        pld.system.notify(None, 0, [0, 0], 1, op=pld.NotifyOp.Set)
    with pytest.raises(pl.DSLUsageError, match=r"^pl\.tile\.load: DSL operation"):
        pl.tile.load(None, [0, 0], [16, 16])
    with pytest.raises(pl.DSLUsageError, match=r"^pl\.range: "):
        pl.range(4)
    with pytest.raises(pl.DSLUsageError, match=r"^pld\.remote_store: "):
        pld.remote_store(None, None, 0, [0, 0])


def test_registry_stub_is_documented():
    stub = pl.tile.load
    info = pypto._core.op_info("tile.load")
    assert stub.__doc__.split("\n")[0] == info["doc"].split("\n")[0]
    assert "\nArguments:\n" in stub.__doc__
    params = list(inspect.signature(stub).parameters)
    assert params[:len(info["args"])] == [a for a, _ in info["args"]]
    assert "load" in dir(pl.tile)
    with pytest.raises(AttributeError, match="no op 'tile.no_such_op' is registered"):
        pl.tile.no_such_op
