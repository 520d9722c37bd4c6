"""``pld.tensor.*``: window allocation and views, tensor-level remote writes, bulk
put/get and the collectives. Documented stubs with upstream's signatures; compiled
from source, never executed (calling one from Python raises DSLUsageError)."""

from .._stub import dsl_op
from ._enums import AtomicType, ReduceOp


@dsl_op("pld.tensor.alloc_window_buffer")
def alloc_window_buffer(size, *, dtype=None, name=""):
    """Allocates a symmetric window buffer on every rank and returns its ``pl.Ptr``.
    ``size`` is in BYTES (or a shape list together with ``dtype=``). Host orchestrator
    only; must be the right-hand side of ``name = ...`` (the parser takes the name)."""


@dsl_op("pld.tensor.window")
def window(buf, shape, *, dtype):
    """A ``pld.DistributedTensor`` view of shape ``shape`` and ``dtype`` over a window
    buffer (several views may share one buffer)."""


@dsl_op("pld.tensor.remote_store")
def remote_store(src, target, peer, offsets, *, atomic=AtomicType.None_):
    """Writes tensor-level value ``src`` into ``target[offsets...]`` on rank ``peer``
    (``atomic=pld.AtomicType.Add`` accumulates). Lowered 1:1 to ``pld.tile.remote_store``."""


@dsl_op("pld.tensor.put")
def put(dst, peer, src, dst_offsets=None, src_offsets=None, shape=None, *,
        atomic=AtomicType.None_, chunk_rows=0, chunk_cols=0, pipeline=False):
    """GM-to-GM push (TPUT): copies local ``src`` (a Tensor or DistributedTensor) into
    window tensor ``dst`` on rank ``peer``. Region arguments go together; ``pipeline``
    needs both chunk sizes."""


@dsl_op("pld.tensor.get")
def get(dst, peer, src, dst_offsets=None, src_offsets=None, shape=None, *,
        chunk_rows=0, chunk_cols=0, pipeline=False):
    """GM-to-GM pull (TGET): copies window tensor ``src`` on rank ``peer`` into local
    ``dst`` (a Tensor or DistributedTensor)."""


@dsl_op("pld.tensor.allreduce")
def allreduce(target, signal=None, *, op=ReduceOp.Sum, mode="mesh", core_num=1):
    """Every rank's ``target`` becomes the element-wise reduction over ranks; returns the
    window. ``signal``: INT32 ``[NR, 1]`` (mesh) or ``[2*(NR-1), NR]`` (ring); may be
    left out only in the host orchestrator (mesh), where the compiler synthesises it."""


@dsl_op("pld.tensor.barrier")
def barrier(signal):
    """Synchronises all ranks through ``signal`` (self-clearing); returns the window."""


@dsl_op("pld.tensor.broadcast")
def broadcast(target, signal, *, root):
    """Every rank's ``target`` becomes rank ``root``'s; returns the window."""


@dsl_op("pld.tensor.allgather")
def allgather(local_data, target, signal):
    """``target[src, :]`` on every rank becomes rank ``src``'s ``local_data``."""


@dsl_op("pld.tensor.reduce_scatter")
def reduce_scatter(target, signal, *, op=ReduceOp.Sum):
    """Each rank stages NR chunks as rows; row ``my_rank`` becomes their sum over ranks."""


@dsl_op("pld.tensor.all_to_all")
def all_to_all(input, target, signal):
    """``target[src, :]`` on rank ``r`` becomes ``input[r, :]`` of rank ``src``."""


@dsl_op("pld.tensor.all_to_all_v")
def all_to_all_v(input, target, signal, send_counts, recv_counts, *, core_num=1):
    """Variable-size all-to-all: pushes ``clamp(send_counts[d], 0, MAX_RECV)`` rows to
    each rank ``d`` and publishes the count into ``recv_counts[my_rank, 0]`` there; rows
    past ``recv_counts[src]`` are undefined."""
