"""``pypto.language.distributed`` (imported as ``pld``): the N6 distributed op
family with upstream's names and signatures.

* ``pld.system``: ``world_size``, ``get_comm_ctx``, ``rank``, ``nranks``, ``notify``,
  ``wait``, ``defer_wait``;
* ``pld.tensor``: ``alloc_window_buffer``, ``window``, ``remote_store``, ``put``,
  ``get`` and the collectives ``allreduce``, ``barrier``, ``broadcast``,
  ``allgather``, ``reduce_scatter``, ``all_to_all``, ``all_to_all_v``;
* ``pld.tile``: ``remote_load``, ``remote_store``, ``put``, ``get``;
* short forms ``pld.world_size``, ``get_comm_ctx``, ``rank``, ``nranks``,
  ``alloc_window_buffer``, ``window``, ``remote_load``, ``remote_store`` (tile or
  tensor form chosen by the parser from ``src``);
* types ``pld.DistributedTensor``, ``pld.CommCtx``; ABI enums ``pld.NotifyOp``,
  ``pld.WaitCmp``, ``pld.AtomicType``, ``pld.ReduceOp``;
* ``pld.comm_domain(devices=[...], slots=[...])``, the scope the compiler wraps
  host code in after MaterializeCommDomainScopes (so printed IR re-parses).
"""

from ._enums import AtomicType, NotifyOp, ReduceOp, WaitCmp
from ._types import CommCtx, CommCtxType, DistributedTensor
from .._stub import dsl_op
from . import system, tensor, tile
from .system import get_comm_ctx, nranks, rank, world_size
from .tensor import alloc_window_buffer, window


@dsl_op("pld.remote_load", "pld.tile.remote_load")
def remote_load(target, peer, offsets, shape, valid_shape=None):
    """Short form of ``pld.tile.remote_load``."""


@dsl_op("pld.remote_store")
def remote_store(src, target, peer, offsets, *, atomic=AtomicType.None_):
    """Short form of ``pld.tile.remote_store`` (tile ``src``) or ``pld.tensor.remote_store``
    (tensor ``src``); the parser picks the form from the type of ``src``."""


@dsl_op("pld.comm_domain")
def comm_domain(*, devices, slots):
    """``with pld.comm_domain(devices=[0, 1], slots=["buf"]):`` — a communication domain
    scope (inserted by the compiler; accepted so printed IR round-trips)."""


__all__ = [
    "AtomicType", "NotifyOp", "ReduceOp", "WaitCmp", "CommCtx", "CommCtxType",
    "DistributedTensor", "system", "tensor", "tile", "get_comm_ctx", "nranks", "rank",
    "world_size", "alloc_window_buffer", "window", "remote_load", "remote_store",
    "comm_domain",
]
