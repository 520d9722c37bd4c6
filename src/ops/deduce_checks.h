// Private to src/ops: the argument checks op deducers share (Expect*). Each
// reports through DeduceContext::ErrorAt (message prefix
// "<op>: argument '<name>' ") and returns nullptr/false after reporting, so all
// ops word the same mistake the same way. They take a DeduceContext, so they
// belong to the ops layer; the generic type/shape helpers they build on are
// the IR layer's (pypto/ir/op_utils.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/type.h"

namespace pypto::ir {

// Argument `i` must be a MakeTuple of integer scalars; with `rank`, of exactly
// that many elements. Diagnostics:
//   "must be a tuple of index expressions ([a, b, ...]), got <TypeStr>"
//   "must have <rank> elements (one per dimension of <what>), got <n>"
//   "element <k> must be an integer scalar, got <TypeStr>"
// `what` names the thing the rank comes from, e.g. "'tensor'".
const MakeTuple* ExpectIndexTuple(DeduceContext& dc, int i, std::optional<size_t> rank = {},
                                  const std::string& what = {});
// Argument `i` must be a plain TensorType ("must be a pl.Tensor, got X"), or
// with allow_distributed also a DistributedTensorType ("must be a pl.Tensor or
// pld.DistributedTensor, got X").
const TensorType* ExpectTensor(DeduceContext& dc, int i, bool allow_distributed = false);
// Argument `i` must be a pl.Tile ("must be a pl.Tile, got X").
const TileType* ExpectTile(DeduceContext& dc, int i);
// Argument `i` must be a scalar of integer dtype ("must be an integer scalar, got X").
bool ExpectIntegerScalar(DeduceContext& dc, int i);
// Argument `i` must be a scalar ("must be a scalar, got X").
bool ExpectScalar(DeduceContext& dc, int i);
// Arg `i`'s shape must be compatible with `expected`:
//   "shape <ShapeStr(actual)> does not match <what> <ShapeStr(expected)> (dim <k>)"
//   or "... (rank <a> vs <b>)" when the ranks differ.
bool ExpectShapeCompatible(DeduceContext& dc, int i, const Shape& actual, const Shape& expected,
                           std::string_view what);

// Static dims of `shape` (the tuple in argument `i`) must be > 0:
//   "dim <k> must be positive, got <v>".
bool ExpectPositiveDims(DeduceContext& dc, int i, const Shape& shape);
// Region [offsets, offsets + extents) must lie inside `dims`, checked per dim
// only where all three are ConstInt. Errors are reported at argument `i`:
//   "offset <o> in dim <k> is negative"
//   "region exceeds <what> in dim <k>: offset <o> + extent <e> > <d>".
bool ExpectRegionInBounds(DeduceContext& dc, int i, const Shape& offsets, const Shape& extents,
                          const Shape& dims, const std::string& what);

}  // namespace pypto::ir
