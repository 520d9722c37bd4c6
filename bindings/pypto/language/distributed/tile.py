"""``pld.tile.*``: tile-level remote load/store, and the staged put/get that
ConvertTensorToTileOps produces (those two appear in compiler output only).
Documented stubs with upstream's signatures; compiled from source, never executed."""

from .._stub import dsl_op
from ._enums import AtomicType


@dsl_op("pld.tile.remote_load")
def remote_load(target, peer, offsets, shape, valid_shape=None, *,
                allow_physical_tail_padding=False, target_memory=None, tile_2d=False):
    """Reads ``target[offsets...]`` of shape ``shape`` from rank ``peer`` into a local tile
    (TLOAD); ``valid_shape`` limits the valid region (ragged tails).
    ``allow_physical_tail_padding`` (FP16 ring tails), ``target_memory`` (set by
    infer-tile-memory-space) and ``tile_2d`` (set by flatten-tile-nd-to-2d: the tile of
    an N-D window is its 2-D row-major form) appear in compiler output only."""


@dsl_op("pld.tile.remote_store")
def remote_store(src_tile, target, peer, offsets, *, atomic=AtomicType.None_):
    """Writes a local tile into ``target[offsets...]`` on rank ``peer`` (TSTORE;
    ``atomic=pld.AtomicType.Add`` accumulates)."""


@dsl_op("pld.tile.put")
def put(dst, peer, src, stage, stage2=None, dst_offsets=None, src_offsets=None, shape=None, *,
        atomic=AtomicType.None_):
    """Staged push through a Vec tile (compiler output of ``pld.tensor.put``)."""


@dsl_op("pld.tile.get")
def get(dst, peer, src, stage, stage2=None, dst_offsets=None, src_offsets=None, shape=None):
    """Staged pull through a Vec tile (compiler output of ``pld.tensor.get``)."""
