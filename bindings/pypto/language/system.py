"""``pl.system.*``: core synchronisation and system operations (fences, barriers).

Every op registered as ``system.<name>`` in the C++ op registry resolves here to a
documented stub (see :mod:`pypto.language._stub`); ``dir(pl.system)`` lists them.
"""

from ._stub import make_namespace_getattr

__getattr__, __dir__ = make_namespace_getattr(globals(), "system", "pl.system")
