"""Annotation objects evaluate (Python runs annotations at definition time) and
print in the DSL spelling; pl.dynamic symbols support shape arithmetic."""

import pytest

import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


def test_annotation_reprs():
    assert repr(pl.Tensor[[16, 64], pl.FP32]) == "pl.Tensor[[16, 64], pl.FP32]"
    assert repr(pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]) == \
        "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]"
    assert repr(pl.Scalar[pl.INT32]) == "pl.Scalar[pl.INT32]"
    assert repr(pld.DistributedTensor[[NR, 1], pl.INT32]) == \
        "pld.DistributedTensor[[NR, 1], pl.INT32]"
    assert repr(pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]) == \
        "pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]"
    assert repr(pl.Out[pl.Tensor[[NR * 64], pl.FP16]]) == "pl.Out[pl.Tensor[[NR * 64], pl.FP16]]"
    assert repr(pl.Tensor[[2 * (NR - 1), NR], pl.INT32]) == \
        "pl.Tensor[[2 * (NR - 1), NR], pl.INT32]"


def test_dynamic_symbols():
    assert NR.name == "NR"
    assert repr(NR) == 'pl.dynamic("NR")'
    with pytest.raises(ValueError, match="identifier"):
        pl.dynamic("not a name")


def test_annotations_cannot_be_instantiated():
    with pytest.raises(TypeError, match="type annotation"):
        pl.Tensor()
    with pytest.raises(TypeError, match="at least 2"):
        pl.Tensor[[16]]
