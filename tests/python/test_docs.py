"""Every public function and class of the Python surface has a docstring, and the
package imports the way the README says (`import pypto.language.distributed as pld`)."""

import importlib
import inspect
import os
import subprocess
import sys

import pytest

MODULES = ["pypto", "pypto._core", "pypto.ir", "pypto.sim", "pypto.runtime", "pypto.language",
           "pypto.language.distributed", "pypto.language.tile", "pypto.language.tensor",
           "pypto.language.system", "pypto.language.array", "pypto.language.distributed.system",
           "pypto.language.distributed.tensor", "pypto.language.distributed.tile"]


@pytest.mark.parametrize("name", MODULES)
def test_public_callables_are_documented(name):
    mod = importlib.import_module(name)
    assert (mod.__doc__ or "").strip(), name
    undocumented = []
    for attr in dir(mod):
        if attr.startswith("_"):
            continue
        obj = getattr(mod, attr)
        if (inspect.isroutine(obj) or inspect.isclass(obj)) and not (obj.__doc__ or "").strip():
            undocumented.append(attr)
    assert undocumented == []


def test_fresh_interpreter_imports():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "bindings"))
    code = ("import pypto\nimport pypto.language as pl\n"
            "import pypto.language.distributed as pld\n"
            "print(pld.NotifyOp.Set.value, pl.FP32, pypto.ir.python_print.__name__)")
    res = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=root),
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "1 pl.FP32 python_print"
