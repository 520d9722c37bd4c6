"""HOST SubWorker functions in ``@pl.program`` classes.

``@pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)`` marks host code
that the host orchestrator calls between device dispatches, as upstream's
runtime does. Its body is ordinary Python (numpy, torch, ``raise``...), not DSL:
the parser only sees its signature (the body becomes ``...``, line numbers
kept), and the Python function itself is kept on the program
(``program._pypto_subworkers``) for :mod:`pypto.runtime` / :func:`pypto.sim.run`
to call. ``self`` is optional, as upstream writes these functions without it.
"""

import ast
import inspect

from ._enums import Level, Role


def is_subworker(fn):
    """True for a function marked HOST SubWorker by ``@pl.function``."""
    mark = getattr(fn, "__pypto_function__", None)
    return bool(mark) and mark.get("level") == Level.HOST and mark.get("role") == Role.SubWorker


def subworkers_of(cls):
    """{method name: function} of the HOST SubWorker methods of a program class."""
    return {name: fn for name, fn in cls.__dict__.items()
            if inspect.isfunction(fn) and is_subworker(fn)}


def blank_bodies(lines, names):
    """`lines` (dedented source of a class or function) with the body of every
    function def named in `names` replaced by `...` and blank lines, so the
    parser sees only the signatures and every other line keeps its number."""
    if not names:
        return lines
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return lines  # the parser reports it
    out = list(lines)
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name not in names:
            continue
        first = node.body[0]
        if first.lineno == node.lineno:  # `def f(x): return x` on one line
            head = out[node.lineno - 1]
            colon = _body_colon(head, first.col_offset)
            out[node.lineno - 1] = head[:colon + 1] + " ..."
            for i in range(node.lineno, node.end_lineno):
                out[i] = ""
            continue
        indent = out[first.lineno - 1][:first.col_offset]
        for i in range(first.lineno - 1, node.end_lineno):
            out[i] = ""
        out[first.lineno - 1] = indent + "..."
    return out


def _body_colon(head, body_col):
    """Index of the ':' that ends a one-line def's signature (the last one
    before the body starts)."""
    return head.rfind(":", 0, body_col)


def call_python(fn, args):
    """Calls a SubWorker's Python function with the arguments the host
    orchestrator passed (a leading ``self`` gets None)."""
    params = list(inspect.signature(fn).parameters)
    if params and params[0] == "self":
        return fn(None, *args)
    return fn(*args)


def make_dispatcher(subworkers, convert=None):
    """The ``subworker`` callback of ``pypto._core.run_program`` / ``Session.run``:
    ``dispatch(name, args)`` calls the Python function of HOST SubWorker `name`
    with `args` (numpy arrays and scalars; ``convert`` maps each array to the
    caller's kind, e.g. a torch tensor sharing its memory) and returns None or
    [(index of the argument it returned, or -1, array or None), ...]."""
    import numpy as np

    def dispatch(name, args):
        fn = subworkers.get(name)
        if fn is None:
            raise LookupError(f"HOST SubWorker '{name}' has no Python function bound (the program "
                              "was not built by @pl.program from Python source)")
        call_args = list(args)
        if convert is not None:
            call_args = [convert(a) if isinstance(a, np.ndarray) else a for a in args]
        ret = call_python(fn, call_args)
        if ret is None:
            return None
        rets = list(ret) if isinstance(ret, tuple) else [ret]
        out = []
        for r in rets:
            idx = next((i for i, a in enumerate(call_args) if r is a), -1)
            if idx < 0:
                idx = next((i for i, a in enumerate(args) if r is a), -1)
            out.append((idx, None if idx >= 0 else _as_numpy(r)))
        return out

    return dispatch


def _as_numpy(value):
    import numpy as np
    if hasattr(value, "detach") and hasattr(value, "numpy"):  # a torch tensor
        value = value.detach().cpu()
        if str(value.dtype) == "torch.bfloat16":
            value = value.float()
        return value.numpy()
    return np.asarray(value)
