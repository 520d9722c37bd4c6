"""``pl.tensor.*``: core tensor (GM) operations.

Every op registered as ``tensor.<name>`` in the C++ op registry resolves here to a
documented stub (see :mod:`pypto.language._stub`); ``dir(pl.tensor)`` lists them.
"""

from ._stub import make_namespace_getattr

__getattr__, __dir__ = make_namespace_getattr(globals(), "tensor", "pl.tensor")
