"""Helpers for DSL tests that need a real source file: write a module to a temp
directory and import it, so the decorators run exactly as they do for users and
reported positions name that file and its lines."""

import importlib.util
import itertools
import sys
import textwrap

_COUNTER = itertools.count()

KERNEL_TEMPLATE = '''\
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, src: pl.Tensor[[16, 64], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], counts: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], peer: pl.Scalar[pl.INT32]):
{body}
'''
KERNEL_PARAMS_LINE = 10  # the `def k(...)` line
KERNEL_BODY_LINE = 11    # first body line

HOST_TEMPLATE = '''\
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32]):
{body}
'''
HOST_BODY_LINE = 15


def write_module(tmp_path, source, name=None):
    """Writes `source` to tmp_path/<name>.py and returns the path."""
    name = name or f"dsl_mod_{next(_COUNTER)}"
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return path


def import_module(path):
    """Imports a module from a file (the decorators run during the import)."""
    name = path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.modules.pop(name, None)
    return mod


def kernel_source(body):
    return KERNEL_TEMPLATE.format(body=textwrap.indent(textwrap.dedent(body).strip("\n"),
                                                       " " * 8))


def host_source(body):
    return HOST_TEMPLATE.format(body=textwrap.indent(textwrap.dedent(body).strip("\n"),
                                                     " " * 8))


def body_text(printed, func):
    """The printed body lines of function `func` (dedented to 8 spaces)."""
    lines = printed.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"    def {func}("))
    out = []
    for ln in lines[start + 1:]:
        if ln and not ln.startswith("        "):
            break
        if not ln:
            break
        out.append(ln[8:])
    return "\n".join(out)
