"""DSL operation stubs.

Bodies of ``@pl.program`` methods and ``@pl.jit`` functions are compiled by the
C++ front end from their source text; Python never executes them. The Python
functions named like the ops (``pl.tile.load``, ``pld.system.notify``, ...) exist so
names resolve, ``help()`` shows the op's documentation and IDEs can complete
signatures. Calling one from ordinary Python raises :class:`DSLUsageError`.

Two kinds of stub:
* explicit ones (``@dsl_op("pld.system.notify")`` on a Python ``def`` with the
  upstream signature) — the distributed family and the short forms;
* registry-driven ones, made on first attribute access for every op the C++ op
  registry knows (``pl.tile.*``, ``pl.tensor.*``, ``pl.system.*``), with the
  registry's documentation and argument names.
"""

import functools
import inspect


class DSLUsageError(RuntimeError):
    """A DSL operation was called as ordinary Python."""


def outside(name):
    raise DSLUsageError(
        f"{name}: DSL operation called from ordinary Python; it is only meaningful inside the "
        "body of a @pl.program method or a @pl.jit function, which pypto compiles from source "
        "(those bodies are never executed by Python)")


def dsl_op(printed_name, registry_name=None):
    """Marks ``fn`` (a documented signature) as the stub of a DSL operation."""

    def deco(fn):
        @functools.wraps(fn)
        def stub(*args, **kwargs):
            outside(printed_name)

        stub.__pypto_op__ = registry_name or printed_name
        stub.__pypto_printed__ = printed_name
        return stub

    return deco


def _core():
    from .. import _core as c
    return c


def registry_stub(registry_name, printed_name):
    """A stub for a registered op, documented from the C++ registry."""
    info = _core().op_info(registry_name)
    params = []
    for i, (arg, _doc) in enumerate(info["args"]):
        default = inspect.Parameter.empty if i < info["min_args"] else None
        params.append(inspect.Parameter(arg, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=default))
    for kw in info["kwargs"]:
        default = inspect.Parameter.empty if kw["required"] else None
        params.append(inspect.Parameter(kw["name"], inspect.Parameter.KEYWORD_ONLY,
                                        default=default))

    def stub(*args, **kwargs):
        outside(printed_name)

    short = printed_name.rsplit(".", 1)[-1]
    stub.__name__ = short
    stub.__qualname__ = short
    lines = [info["doc"] or f"The {printed_name} operation."]
    if info["args"]:
        lines.append("")
        lines.append("Arguments:")
        for arg, doc in info["args"]:
            lines.append(f"    {arg}: {doc}" if doc else f"    {arg}")
    if info["kwargs"]:
        lines.append("")
        lines.append("Keyword arguments:")
        for kw in info["kwargs"]:
            kind = kw["enum"] or kw["type"]
            req = ", required" if kw["required"] else ""
            lines.append(f"    {kw['name']} ({kind}{req}): {kw['doc']}".rstrip(": "))
    if info["internal_only"]:
        lines.append("")
        lines.append("Compiler output only: accepted when parsing printed IR, not in user code.")
    stub.__doc__ = "\n".join(lines)
    stub.__signature__ = inspect.Signature(params)
    stub.__pypto_op__ = registry_name
    stub.__pypto_printed__ = printed_name
    return stub


def make_namespace_getattr(module_globals, registry_prefix, printed_prefix):
    """Module ``__getattr__``/``__dir__`` resolving ``<ns>.<op>`` through the registry."""
    cache = {}

    def names():
        pre = registry_prefix + "."
        return sorted(n[len(pre):] for n in _core().op_names() if n.startswith(pre)
                      and "." not in n[len(pre):])

    def __getattr__(attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        if attr not in cache:
            reg = f"{registry_prefix}.{attr}"
            try:
                cache[attr] = registry_stub(reg, f"{printed_prefix}.{attr}")
            except KeyError:
                raise AttributeError(
                    f"module '{module_globals['__name__']}' has no operation '{attr}' "
                    f"(no op '{reg}' is registered)") from None
        return cache[attr]

    def __dir__():
        return sorted(set(module_globals) | set(names()))

    return __getattr__, __dir__
