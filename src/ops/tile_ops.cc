// Core tile ops (pl.tile.*), part 1: the RegisterTileOps entry point and the
// element-wise compute ops (add, sub, mul, div, maximum, minimum, cast, and the
// tile-scalar forms adds, subs, muls, divs). Memory and
// data-movement tile ops live in tile_memory_ops.cc.
//
// Element-wise tile ops take two tiles of the same shape and dtype in the vector
// unit's memory (pl.Mem.Vec, or not yet assigned) and produce a Vec tile whose
// valid region is the intersection of the operands' valid regions (computing
// outside a valid region is meaningless, so the result never claims more).
#include <fmt/format.h>

#include "deduce_checks.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_utils.h"
#include "register_op.h"
#include "tile_ops_internal.h"

namespace pypto::ir {

namespace {

const TileView kDefaultTileView{};

bool ExpectVecOrUnset(DeduceContext& dc, int i, const TileType* t) {
  if (!t->memory_space || *t->memory_space == MemorySpace::kVec) return true;
  dc.ErrorAt(i, "must be in pl.Mem.Vec, got " + MemStr(*t->memory_space));
  return false;
}

const Type* DeduceTileBinary(DeduceContext& dc) {
  const TileType* lhs = ExpectTile(dc, 0);
  if (!lhs) return nullptr;
  const TileType* rhs = ExpectTile(dc, 1);
  if (!rhs) return nullptr;
  if (!ExpectVecOrUnset(dc, 0, lhs) || !ExpectVecOrUnset(dc, 1, rhs)) return nullptr;
  if (rhs->dtype != lhs->dtype)
    return dc.ErrorAt(1, fmt::format("dtype {} does not match 'lhs' dtype {}", DTypeStr(rhs->dtype),
                                     DTypeStr(lhs->dtype)));
  if (!ExpectShapeCompatible(dc, 1, rhs->shape, lhs->shape, "'lhs' shape")) return nullptr;
  // Result shape: lhs's, a symbolic dim replaced by rhs's static one. Copied
  // only when some dim is replaced (the result type usually exists already).
  const Shape* shape = &lhs->shape;
  Shape replaced;
  for (size_t k = 0; k < lhs->shape.size(); ++k) {
    if (!StaticInt(lhs->shape[k]) && StaticInt(rhs->shape[k])) {
      if (shape != &replaced) replaced = lhs->shape;
      shape = &replaced;
      replaced[k] = rhs->shape[k];
    }
  }
  const TileView& lv = lhs->view ? *lhs->view : kDefaultTileView;
  const Shape& lvalid = *ValidShapeRef(lhs);
  const Shape& rvalid = *ValidShapeRef(rhs);
  // Common case: both operands fully valid and no layout to keep, so the
  // result has no view (MakeTileType would drop it); skip building one.
  if (&lvalid == &lhs->shape && &rvalid == &rhs->shape && lv.blayout == kDefaultTileView.blayout &&
      lv.slayout == kDefaultTileView.slayout && lv.fractal == kDefaultTileView.fractal &&
      SameShape(rhs->shape, *shape))
    return dc.ctx.InternTileType(*shape, lhs->dtype, MemorySpace::kVec, nullptr);
  TileView v = lv;
  v.valid_shape = IntersectValid(dc.ctx, lvalid, lhs->shape, rvalid, rhs->shape);
  v.pad = PadValue::kNull;
  return MakeTileType(dc.ctx, *shape, lhs->dtype, MemorySpace::kVec, v);
}

// tile ⊕ scalar (adds/subs/muls/divs): the scalar (a literal converts) must have
// the tile's dtype; the result is a Vec tile with the tile's shape and valid region.
const Type* DeduceTileBinaryScalar(DeduceContext& dc) {
  const TileType* lhs = ExpectTile(dc, 0);
  if (!lhs || !ExpectVecOrUnset(dc, 0, lhs)) return nullptr;
  const Expr* rhs = dc.args.size() > 1 ? dc.args[1] : nullptr;
  if (rhs && Isa<TileType>(rhs->type))
    return dc.ErrorAt(1, fmt::format("must be a scalar, got {}; for two tiles use pl.{}",
                                     TypeStr(rhs->type), ops::Get(dc.op.binary_twin).name));
  if (!ExpectScalar(dc, 1)) return nullptr;
  if (!ScalarAssignable(rhs, lhs->dtype))
    return dc.ErrorAt(1, fmt::format("scalar dtype {} does not match 'lhs' dtype {}",
                                     TypeStr(rhs->type), DTypeStr(lhs->dtype)));
  TileView v = lhs->view.value_or(TileView{});
  v.pad = PadValue::kNull;
  return MakeTileType(dc.ctx, lhs->shape, lhs->dtype, MemorySpace::kVec, v);
}

const Type* DeduceTileCast(DeduceContext& dc) {
  const TileType* t = ExpectTile(dc, 0);
  if (!t || !ExpectVecOrUnset(dc, 0, t)) return nullptr;
  DataType dt = dc.Kwarg("target_type")->dtype;
  if (dt == DataType::kIndex)
    return dc.KwargError("target_type", "pl.INDEX is not a storage dtype; use pl.INT64");
  TileView v = t->view.value_or(TileView{});
  v.pad = PadValue::kNull;
  return MakeTileType(dc.ctx, t->shape, dt, MemorySpace::kVec, v);
}

void RegisterBinary(OpRegistry& r, OpHandle h, OpHandle scalar, BinaryOp scalar_op,
                    const std::string& what) {
  ops::RegisterOp(r, h)
      .Doc("Element-wise " + what +
           " of two tiles of the same shape and dtype in pl.Mem.Vec. The result is a Vec "
           "tile whose valid region is the intersection of the operands' valid regions.")
      .Category("TileOp")
      .Arg("lhs", "pl.Tile in pl.Mem.Vec")
      .Arg("rhs", "pl.Tile in pl.Mem.Vec, same shape and dtype as lhs")
      .Affinity(CoreAffinity::kVector)
      .NoArgWrites()
      .InputMemory(0, {MemorySpace::kVec})
      .InputMemory(1, {MemorySpace::kVec})
      .OutputMemory(MemorySpace::kVec)
      .Placement(OpPlacement::kKernelOnly)
      .Family(OpFamily::kElementwise)
      .ScalarTwin(scalar)
      .ScalarOp(scalar_op)
      .Deduce(DeduceTileBinary);
}

void RegisterBinaryScalar(OpRegistry& r, OpHandle h, const std::string& what) {
  ops::RegisterOp(r, h)
      .Doc("Element-wise " + what +
           " of a tile in pl.Mem.Vec and a scalar (a literal takes the tile's dtype). The "
           "result is a Vec tile with the tile's shape and valid region.")
      .Category("TileOp")
      .Arg("lhs", "pl.Tile in pl.Mem.Vec")
      .Arg("rhs", "scalar of the lhs dtype")
      .Affinity(CoreAffinity::kVector)
      .NoArgWrites()
      .InputMemory(0, {MemorySpace::kVec})
      .OutputMemory(MemorySpace::kVec)
      .Placement(OpPlacement::kKernelOnly)
      .Family(OpFamily::kElementwiseScalar)
      .Deduce(DeduceTileBinaryScalar);
}

}  // namespace

void RegisterTileElementwiseOps(OpRegistry& r) {
  // The element-wise family, from op_list.def.
#define PYPTO_ELEMENTWISE(N, name, what, sop) \
  RegisterBinary(r, ops::kTile##N, ops::ScalarTwinOf(ops::kTile##N), BinaryOp::sop, what);
#define PYPTO_ELEMENTWISE_SCALAR(N, name, B, what) RegisterBinaryScalar(r, ops::kTile##N, what);
#include "pypto/ops/op_list.def"

  ops::RegisterOp(r, ops::kTileCast)
      .Doc("Convert every element of a Vec tile to target_type; same shape and valid region.")
      .Category("TileOp")
      .Arg("tile", "pl.Tile in pl.Mem.Vec")
      .RequiredKwarg("target_type", KwargType::kDType, "result element dtype")
      .Affinity(CoreAffinity::kVector)
      .NoArgWrites()
      .InputMemory(0, {MemorySpace::kVec})
      .OutputMemory(MemorySpace::kVec)
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceTileCast);
}

void RegisterTileOps(OpRegistry& r) {
  RegisterTileMemoryOps(r);
  RegisterTileElementwiseOps(r);
  RegisterTileShapeOps(r);
}

}  // namespace pypto::ir
