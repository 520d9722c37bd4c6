"""Control flow, scopes and short-form operations of ``pl``.

``pl.range``/``pl.parallel``/``pl.unroll`` loops (with ``init_values=`` and
``pl.yield_``), ``pl.while_``/``pl.cond``, ``pl.at``/``pl.spmd``/``pl.split_aiv``
scopes, ``pl.const`` and upstream's unified short forms (``pl.load``, ``pl.add``,
``pl.min``...), which the parser dispatches on operand kind (a tile, a tensor or
a scalar). Like every DSL op they are compiled from source; calling them from
ordinary Python raises DSLUsageError.
"""

from ._enums import SplitMode
from ._stub import dsl_op


# --- loops and SSA control flow -------------------------------------------------

@dsl_op("pl.range")
def range(*args, init_values=None):
    """Sequential loop: ``for i in pl.range(stop)``, ``pl.range(start, stop, step)``.
    With loop-carried values: ``for i, (acc,) in pl.range(0, n, 1, init_values=(a0,)):``
    and end the body with ``acc_out = pl.yield_(next)``."""


@dsl_op("pl.parallel")
def parallel(*args, init_values=None):
    """Loop whose iterations are independent tasks (same forms as ``pl.range``)."""


@dsl_op("pl.unroll")
def unroll(*args, init_values=None):
    """Loop unrolled at compile time (same forms as ``pl.range``)."""


@dsl_op("pl.while_")
def while_(*, init_values):
    """SSA while loop: ``for (x,) in pl.while_(init_values=(x0,)):`` whose first
    statement is ``pl.cond(x < n)`` and whose body ends with ``x_next = pl.yield_(...)``."""


@dsl_op("pl.cond")
def cond(condition):
    """Loop condition of a ``pl.while_`` loop (its first statement)."""


@dsl_op("pl.yield_")
def yield_(*values):
    """Yields the loop-carried (or if/else) values of the enclosing region."""


@dsl_op("pl.const")
def const(value, dtype):
    """A literal of an explicit dtype: ``pl.const(1, pl.INT32)``."""


# --- scopes ----------------------------------------------------------------------

@dsl_op("pl.at")
def at(*, level, role=None, name_hint=None, deps=None, allow_early_resolve=None):
    """Scope at a hierarchy level: ``with pl.at(level=pl.Level.CORE_GROUP):`` is outlined
    into an InCore kernel; ``with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):``
    into a chip orchestration."""


@dsl_op("pl.spmd")
def spmd(n):
    """``with pl.spmd(n):`` runs the enclosed kernel body on ``n`` blocks."""


@dsl_op("pl.split_aiv")
def split_aiv(n, *, mode=SplitMode.NONE):
    """``for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):`` splits the enclosed
    vector work over the two AIV lanes of a mixed kernel."""


@dsl_op("pl.manual_scope")
def manual_scope():
    """Explicit-dependency region (``with pl.manual_scope():``)."""


# --- short forms (dispatch on operand kind in the parser) -------------------------

@dsl_op("pl.load")
def load(tensor, offsets, shapes, valid_shapes=None, *, target_memory=None):
    """Loads a tensor region into a tile (``pl.tile.load``)."""


@dsl_op("pl.store")
def store(tile, offsets, output_tensor):
    """Stores a tile into a tensor region (``pl.tile.store``)."""


@dsl_op("pl.read")
def read(src, offsets):
    """Reads one element of a tensor or tile as a scalar."""


@dsl_op("pl.write")
def write(dst, offsets, value):
    """Writes one scalar element of a tensor or tile."""


@dsl_op("pl.assemble")
def assemble(target, source, offset):
    """Writes tensor ``source`` into the region of ``target`` at ``offset`` and returns the
    written target (``pl.tensor.assemble``); a tile ``source`` is stored there
    (``pl.tile.store(source, offset, target)``)."""


@dsl_op("pl.add")
def add(lhs, rhs):
    """Element-wise add of tiles or tensors, of a tile or tensor and a scalar
    (``pl.tile.adds`` / ``pl.tensor.adds``), or scalar addition."""


@dsl_op("pl.sub")
def sub(lhs, rhs):
    """Element-wise subtract of tiles or tensors, of a tile or tensor and a scalar
    (``pl.tile.subs`` / ``pl.tensor.subs``), or scalar subtraction."""


@dsl_op("pl.mul")
def mul(lhs, rhs):
    """Element-wise multiply of tiles or tensors, of a tile or tensor and a scalar
    (``pl.tile.muls`` / ``pl.tensor.muls``), or scalar multiplication."""


@dsl_op("pl.div")
def div(lhs, rhs):
    """Element-wise divide of tiles or tensors, of a tile or tensor by a scalar
    (``pl.tile.divs`` / ``pl.tensor.divs``), or scalar division."""


@dsl_op("pl.maximum")
def maximum(lhs, rhs):
    """Element-wise maximum of tiles or tensors."""


@dsl_op("pl.minimum")
def minimum(lhs, rhs):
    """Element-wise minimum of tiles or tensors."""


@dsl_op("pl.min")
def min(lhs, rhs):
    """Minimum of two scalars."""


@dsl_op("pl.max")
def max(lhs, rhs):
    """Maximum of two scalars."""
