"""Annotation types of the distributed family: ``pld.DistributedTensor[[shape],
dtype]`` (a per-rank slice of a symmetric window — every cross-rank op requires
it on its window side) and ``pld.CommCtx`` (what ``pld.get_comm_ctx`` returns)."""

from .._types import _TypeForm


class DistributedTensor(_TypeForm):
    """Window-bound tensor: ``pld.DistributedTensor[[shape...], dtype(, layout)]``."""
    _dsl_name = "pld.DistributedTensor"
    _min_args = 2


class CommCtx(_TypeForm):
    """Per-rank communication context handle (rank id, rank count, window bases)."""
    _dsl_name = "pld.CommCtx"
    _min_args = 0


CommCtxType = CommCtx
