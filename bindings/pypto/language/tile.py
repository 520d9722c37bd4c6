"""``pl.tile.*``: core tile operations (on-core SRAM regions).

Every op registered as ``tile.<name>`` in the C++ op registry resolves here to a
documented stub (see :mod:`pypto.language._stub`); ``dir(pl.tile)`` lists them.
"""

from ._stub import make_namespace_getattr

__getattr__, __dir__ = make_namespace_getattr(globals(), "tile", "pl.tile")
