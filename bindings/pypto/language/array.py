"""``pl.array.*``: kernel-local scalar arrays (``pl.Array[extent, dtype]``).

``a = pl.array.create(16, pl.INT32)``, then ``v = a[i]`` and ``a[i] = v`` in a
decorated body (``array.get_element`` / the functional ``array.update_element``).
Every op registered as ``array.<name>`` resolves here to a documented stub (see
:mod:`pypto.language._stub`); ``dir(pl.array)`` lists them.
"""

from ._stub import make_namespace_getattr

__getattr__, __dir__ = make_namespace_getattr(globals(), "array", "pl.array")
