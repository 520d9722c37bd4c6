"""``pld.system.*``: rank queries and the signal primitives (notify / wait /
defer_wait). Documented stubs with upstream's signatures; compiled from source,
never executed (calling one from Python raises DSLUsageError)."""

from .._stub import dsl_op


@dsl_op("pld.system.world_size")
def world_size():
    """Number of ranks (``Scalar[INT64]``). Host orchestrator only: use it for dispatch
    loop bounds, window sizes and window shapes."""


@dsl_op("pld.system.get_comm_ctx")
def get_comm_ctx(dist_tensor):
    """The communication context (``pld.CommCtx``) of a window-bound tensor."""


@dsl_op("pld.system.rank")
def rank(ctx):
    """This rank's index (``Scalar[INT32]``) from a comm context. Kernels only."""


@dsl_op("pld.system.nranks")
def nranks(ctx):
    """The number of ranks (``Scalar[INT32]``) from a comm context. Kernels only."""


@dsl_op("pld.system.notify")
def notify(target, peer, offsets, value, *, op):
    """Writes ``value`` into signal cell ``target[offsets]`` on rank ``peer``
    (``op=pld.NotifyOp.AtomicAdd`` adds atomically, ``Set`` stores). ``target`` is an
    INT32 ``pld.DistributedTensor``. Side effect only (TNOTIFY)."""


@dsl_op("pld.system.wait")
def wait(signal, offsets, expected, *, cmp):
    """Blocks until this rank's cell ``signal[offsets]`` compares to ``expected``
    (``cmp=pld.WaitCmp.Eq`` or ``Ge``). Side effect only (TWAIT)."""


@dsl_op("pld.system.defer_wait")
def defer_wait(signal, offsets, expected, *, cmp):
    """Defers this task's completion until ``signal[offsets] >= expected`` without
    blocking the core (``cmp`` must be ``Ge``). Alone in a ``pl.at(CORE_GROUP)`` task."""
