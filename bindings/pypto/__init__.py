"""pypto-dist: a compiler and multi-rank simulator for PyPTO distributed programs.

* :mod:`pypto.language` (``pl``) and :mod:`pypto.language.distributed` (``pld``):
  the DSL, with upstream PyPTO's names;
* :mod:`pypto.ir`: parse / print / verify / run passes / emit PTO MLIR;
* :mod:`pypto.sim`: run a program on P simulated ranks (numpy in and out);
* :mod:`pypto.runtime`: upstream's run surface (``DistributedConfig``,
  ``RunConfig``, ``compiled(x, y)``, ``prepare(persistent=True)``) on it.

Errors in a user's program raise :class:`PyptoError` subclasses whose message is
the rendered compiler diagnostics (``file:line:col: error: ...``).
"""

import os as _os

# A build other than ./build (see CMakeLists.txt) writes its extension module to
# its own directory and points PYPTO_CORE_DIR at it; look there first.
if _os.environ.get("PYPTO_CORE_DIR"):
    __path__.insert(0, _os.environ["PYPTO_CORE_DIR"])

from . import _core
from ._core import (ArgumentError, EmitError, InternalError, ParseError, PassError, Program,
                    PyptoError, SimError, VerifyError)

__all__ = ["Program", "PyptoError", "ParseError", "VerifyError", "PassError", "EmitError",
           "SimError", "ArgumentError", "InternalError", "ir", "language", "runtime", "sim"]


def __getattr__(name):
    # Submodules load on first use so `import pypto` stays cheap.
    if name in ("ir", "language", "runtime", "sim"):
        import importlib
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'pypto' has no attribute '{name}'")
