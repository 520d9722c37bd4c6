// Core tile ops (pl.tile.*), part 3: ops that give a tile's elements a new
// shape — the row reduction pl.tile.row_sum (a [rows, cols] tile to its
// [rows, 1] column of row sums, PTO TROWSUM) and pl.tile.reshape (the same
// elements in row-major order under a new static shape, PTO TRESHAPE).
// Registered by RegisterTileOps.
//
// Contracts (upstream's, restated):
//  * row_sum(tile, tmp): `tmp` is the hardware's scratch tile: same dtype and
//    rank as `tile`, at least as large in every dim. The result is a Vec tile
//    [rows, 1] in column-major block layout whose valid rows are the input's.
//  * reshape(tile, shape): same element count (1-D or 2-D); the result keeps the memory
//    space, is fully valid (the input must be too: a partly valid tile has no
//    meaningful row-major element order), and takes the block layout of its
//    shape (column-major for a [N, 1] column with N > 1, else row-major).
#include <fmt/format.h>

#include "deduce_checks.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_utils.h"
#include "register_op.h"
#include "tile_ops_internal.h"

namespace pypto::ir {

namespace {

bool RowSumDTypeOk(DataType d) {
  return d == DataType::kFP32 || d == DataType::kFP16 || d == DataType::kInt32 ||
         d == DataType::kInt16;
}

const Type* DeduceRowSum(DeduceContext& dc) {
  const TileType* t = ExpectTile(dc, 0);
  if (!t) return nullptr;
  if (t->memory_space && *t->memory_space != MemorySpace::kVec)
    return dc.ErrorAt(0, "must be in pl.Mem.Vec, got " + MemStr(*t->memory_space));
  if (t->rank() != 2)
    return dc.ErrorAt(0, fmt::format("must be a 2-D tile, got rank {}", t->rank()));
  if (!RowSumDTypeOk(t->dtype))
    return dc.ErrorAt(0, fmt::format("dtype {} is not supported; TROWSUM takes FP32, FP16, "
                                     "INT32 or INT16",
                                     DTypeStr(t->dtype)));
  const TileType* tmp = ExpectTile(dc, 1);
  if (!tmp) return nullptr;
  if (tmp->memory_space && *tmp->memory_space != MemorySpace::kVec)
    return dc.ErrorAt(1, "must be in pl.Mem.Vec, got " + MemStr(*tmp->memory_space));
  if (tmp->dtype != t->dtype)
    return dc.ErrorAt(1, fmt::format("dtype {} does not match 'tile' dtype {}",
                                     DTypeStr(tmp->dtype), DTypeStr(t->dtype)));
  if (tmp->rank() != t->rank())
    return dc.ErrorAt(1, fmt::format("has rank {} but 'tile' has rank {}", tmp->rank(), t->rank()));
  for (size_t k = 0; k < t->rank(); ++k) {
    auto need = StaticInt(t->shape[k]), have = StaticInt(tmp->shape[k]);
    if (need && have && *have < *need)
      return dc.ErrorAt(1, fmt::format("shape {} is smaller than 'tile' shape {} in dim {}; the "
                                       "scratch tile must be at least as large as the input",
                                       ShapeStr(tmp->shape), ShapeStr(t->shape), k));
  }
  Shape valid = ValidShapeOf(t);
  TileView v;
  v.blayout = TileLayout::kColMajor;
  v.valid_shape = {valid[0], dc.ctx.Int(1)};
  return MakeTileType(dc.ctx, {t->shape[0], dc.ctx.Int(1)}, t->dtype, MemorySpace::kVec, v);
}

const Type* DeduceReshape(DeduceContext& dc) {
  const TileType* t = ExpectTile(dc, 0);
  if (!t) return nullptr;
  const MakeTuple* shp = ExpectIndexTuple(dc, 1);
  if (!shp) return nullptr;
  if (shp->elements.empty() || shp->elements.size() > 2)
    return dc.ErrorAt(1, fmt::format("must have 1 or 2 dimensions, got {}; N-D tiles are "
                                     "flattened to 2-D by flatten-tile-nd-to-2d",
                                     shp->elements.size()));
  if (!ExpectPositiveDims(dc, 1, shp->elements)) return nullptr;
  auto n_new = StaticNumel(shp->elements), n_old = StaticNumel(t->shape);
  if (!n_new || !n_old)
    return dc.ErrorAt(n_new ? 0 : 1, fmt::format("shape {} is not static; pl.tile.reshape needs "
                                                 "static shapes",
                                                 ShapeStr(n_new ? t->shape : shp->elements)));
  if (*n_new != *n_old)
    return dc.ErrorAt(1, fmt::format("{} has {} elements but 'tile' {} has {}",
                                     ShapeStr(shp->elements), *n_new, ShapeStr(t->shape), *n_old));
  if (!SameShape(ValidShapeOf(t), t->shape))
    return dc.ErrorAt(0, fmt::format("is only partly valid (valid shape {} of {}); reshape a fully "
                                     "valid tile (fill it with pl.tile.fillpad_inplace first)",
                                     ShapeStr(ValidShapeOf(t)), ShapeStr(t->shape)));
  TileView v;
  if (shp->elements.size() == 2 && *StaticInt(shp->elements[1]) == 1 &&
      *StaticInt(shp->elements[0]) > 1)
    v.blayout = TileLayout::kColMajor;
  return MakeTileType(dc.ctx, shp->elements, t->dtype, t->memory_space, v);
}

}  // namespace

void RegisterTileShapeOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kTileRowSum)
      .Doc(
          "Row sums of a 2-D Vec tile: [rows, cols] -> [rows, 1] (column-major block layout; "
          "the valid rows are the input's, each summing its valid columns left to right in the "
          "tile dtype). tmp_tile is the TROWSUM scratch tile: same dtype and rank, at least as "
          "large as the input. FP32, FP16, INT32, INT16.")
      .Category("TileOp")
      .Arg("tile", "2-D pl.Tile in pl.Mem.Vec")
      .Arg("tmp_tile", "scratch pl.Tile in pl.Mem.Vec, same dtype, >= the input in every dim")
      .Affinity(CoreAffinity::kVector)
      .NoArgWrites()
      .InputMemory(0, {MemorySpace::kVec})
      .InputMemory(1, {MemorySpace::kVec})
      .OutputMemory(MemorySpace::kVec)
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceRowSum);

  ops::RegisterOp(r, ops::kTileReshape)
      .Doc(
          "The same elements, in row-major order, under a new static shape with the same "
          "element count; same memory space. The input must be fully valid. The result's "
          "block layout follows its shape (column-major for [N, 1], N > 1).")
      .Category("TileOp")
      .Arg("tile", "fully valid pl.Tile with a static shape")
      .Arg("shape", "new static shape, same element count")
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceReshape);
}

}  // namespace pypto::ir
