"""Upstream's import path for ``DistributedConfig``
(``from pypto.ir.distributed_compiled_program import DistributedConfig``), so
upstream programs run with their imports unchanged. The class lives in
:mod:`pypto.runtime`."""

from ..runtime import CompiledProgram as DistributedCompiledProgram
from ..runtime import DistributedConfig

__all__ = ["DistributedConfig", "DistributedCompiledProgram"]
