// Core tile ops (pl.tile.*), part 2: tiles' lifetime and data movement —
// load / store between GM tensors and on-chip tiles, create, move between
// on-chip memory spaces, valid-shape and padding metadata, scalar element
// access, and the AIV sub-block index. Registered by RegisterTileOps.
//
// Valid regions: a tile's TileView.valid_shape (empty = full) says which part
// holds meaningful data. tile.load narrows it to the requested valid_shape and,
// where statically provable, to what the source tensor's valid region can
// supply at the given offsets; tile.store writes the tile's valid region.
//
// Flattened loads (upstream's contract after FlattenTileNdTo2D): tile.load keeps
// its tensor-rank window and, with tile_2d=True, yields the 2-D row-major form
// of the N-D tile; tile.store maps a 2-D tile back through its `shapes` argument.
#include <fmt/format.h>

#include <algorithm>

#include "deduce_checks.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/move_paths.h"
#include "register_op.h"
#include "tile_ops_internal.h"

namespace pypto::ir {

namespace {

// Reads an optional MemorySpace kwarg; rejects DDR. `ok` false after an error.
std::optional<MemorySpace> OnChipMemKwarg(DeduceContext& dc, const char* name, bool& ok) {
  ok = true;
  const Attr* a = dc.Kwarg(name);
  if (!a) return std::nullopt;
  auto m = static_cast<MemorySpace>(a->i);
  if (m == MemorySpace::kDDR) {
    dc.KwargError(name,
                  "pl.Mem.DDR is not an on-chip memory space; use pl.Mem.Vec, pl.Mem.Mat, "
                  "pl.Mem.Left, pl.Mem.Right, pl.Mem.Acc or pl.Mem.Bias");
    ok = false;
  }
  return m;
}

// Valid-extent tuple in argument `i`: `rank` entries, static ones in [0, bound].
const MakeTuple* ValidTuple(DeduceContext& dc, int i, const Shape& bound, const char* what) {
  const MakeTuple* t = ExpectIndexTuple(dc, i, bound.size(), fmt::format("'{}'", what));
  if (!t) return nullptr;
  for (size_t k = 0; k < bound.size(); ++k) {
    auto a = StaticInt(t->elements[k]), b = StaticInt(bound[k]);
    if (a && (*a < 0 || (b && *a > *b))) {
      dc.ErrorAt(i, fmt::format("dim {} is {}, outside [0, {}]", k, *a, DimStr(bound[k])));
      return nullptr;
    }
  }
  return t;
}

const Type* DeduceLoad(DeduceContext& dc) {
  const TensorType* in = ExpectTensor(dc, 0, /*allow_distributed=*/true);
  if (!in) return nullptr;
  size_t r = in->rank();
  const MakeTuple* off = ExpectIndexTuple(dc, 1, r, "'tensor'");
  if (!off) return nullptr;
  const MakeTuple* shp = ExpectIndexTuple(dc, 2, r, "'tensor'");
  if (!shp || !ExpectPositiveDims(dc, 2, shp->elements)) return nullptr;
  Shape valid = shp->elements;
  if (dc.args.size() >= 4) {
    const MakeTuple* vs = ValidTuple(dc, 3, shp->elements, "tensor");
    if (!vs) return nullptr;
    valid = vs->elements;
  }
  bool ok = true;
  auto mem = OnChipMemKwarg(dc, "target_memory", ok);
  if (!ok) return nullptr;
  if (dc.BoolKwarg("clamp", false)) {
    Shape zeros(r, dc.ctx.Int(0));
    if (!ExpectRegionInBounds(dc, 1, off->elements, zeros, in->shape, "'tensor'")) return nullptr;
  } else if (!ExpectRegionInBounds(dc, 1, off->elements, valid, in->shape, "'tensor'")) {
    return nullptr;
  }
  // Narrow to what the source's valid region supplies, where provable.
  Shape src_valid = ValidShapeOf(in);
  for (size_t k = 0; k < r; ++k) {
    auto v = StaticInt(valid[k]), tv = StaticInt(src_valid[k]), o = StaticInt(off->elements[k]);
    int64_t avail = 0;
    if (v && tv && o && !__builtin_sub_overflow(*tv, *o, &avail)) {
      avail = std::max<int64_t>(0, avail);
      if (avail < *v) valid[k] = dc.ctx.Int(avail);
    }
  }
  TileView view;
  view.valid_shape = valid;
  if (in->view && in->view->layout == TensorLayout::kDN) view.blayout = TileLayout::kColMajor;
  Shape tile_shape = shp->elements;
  if (dc.BoolKwarg("tile_2d", false) && r > 2) {
    // The window keeps the tensor's rank; the tile is its row-major 2-D form.
    if (!MergedValidContiguous(shp->elements, valid))
      return dc.KwargError(
          "tile_2d", fmt::format("cannot flatten the valid box {} of the {} window: it is not "
                                 "a run of whole rows of the 2-D tile (a merged inner dim "
                                 "is partly valid); load it as an N-D tile",
                                 ShapeStr(valid), ShapeStr(shp->elements)));
    tile_shape = MergeLeadingDims(dc.ctx, tile_shape);
    view.valid_shape = MergeLeadingDims(dc.ctx, valid);
  }
  return MakeTileType(dc.ctx, tile_shape, in->dtype, mem, view);
}

bool AtomicAddDTypeOk(DataType d) {
  return d == DataType::kFP32 || d == DataType::kBF16 || d == DataType::kFP16 ||
         d == DataType::kInt32 || d == DataType::kInt16 || d == DataType::kInt8;
}

const Type* DeduceStore(DeduceContext& dc) {
  const TileType* tile = ExpectTile(dc, 0);
  if (!tile) return nullptr;
  if (tile->memory_space && *tile->memory_space != MemorySpace::kVec &&
      *tile->memory_space != MemorySpace::kAcc)
    return dc.ErrorAt(0, "must be in pl.Mem.Vec or pl.Mem.Acc, got " + MemStr(*tile->memory_space));
  const TensorType* out = ExpectTensor(dc, 2, /*allow_distributed=*/true);
  if (!out) return nullptr;
  if (tile->dtype != out->dtype)
    return dc.ErrorAt(0, fmt::format("dtype {} does not match 'output_tensor' dtype {}",
                                     DTypeStr(tile->dtype), DTypeStr(out->dtype)));
  const MakeTuple* off = ExpectIndexTuple(dc, 1, out->rank(), "'output_tensor'");
  if (!off) return nullptr;
  Shape extents;
  if (dc.args.size() >= 4) {
    const MakeTuple* shp = ExpectIndexTuple(dc, 3, out->rank(), "'output_tensor'");
    if (!shp || !ExpectPositiveDims(dc, 3, shp->elements)) return nullptr;
    auto n_region = StaticNumel(shp->elements), n_tile = StaticNumel(tile->shape);
    if (n_region && n_tile && *n_region != *n_tile)
      return dc.ErrorAt(
          3, fmt::format("region {} has {} elements but 'tile' {} has {}", ShapeStr(shp->elements),
                         *n_region, ShapeStr(tile->shape), *n_tile));
    extents = shp->elements;
  } else {
    if (tile->rank() != out->rank())
      return dc.ErrorAt(0, fmt::format("has rank {} but 'output_tensor' has rank {}; pass "
                                       "'shapes' to map the tile onto a tensor region",
                                       tile->rank(), out->rank()));
    extents = ValidShapeOf(tile);
  }
  if (!ExpectRegionInBounds(dc, 1, off->elements, extents, out->shape, "'output_tensor'"))
    return nullptr;
  if (dc.IntKwarg("atomic", 0) == static_cast<int>(AtomicType::kAdd)) {
    if (!AtomicAddDTypeOk(out->dtype))
      return dc.KwargError("atomic", fmt::format("pld.AtomicType.Add requires a FP32, BF16, FP16, "
                                                 "INT32, INT16 or INT8 output, got {}",
                                                 DTypeStr(out->dtype)));
    if (out->dtype == DataType::kBF16 && dc.ctx.target_arch != "a2a3")
      return dc.KwargError("atomic", fmt::format("pld.AtomicType.Add on BF16 is only supported "
                                                 "on the a2a3 target (Ascend910B), not {}",
                                                 dc.ctx.target_arch));
  }
  return dc.args[2]->type;
}

const Type* DeduceSetValidShape(DeduceContext& dc) {
  const TileType* t = ExpectTile(dc, 0);
  if (!t) return nullptr;
  if (t->rank() != 2)
    return dc.ErrorAt(0, fmt::format("must be a 2-D tile, got rank {}", t->rank()));
  const char* names[2] = {"rows", "cols"};
  for (int k = 0; k < 2; ++k) {
    if (!ExpectIntegerScalar(dc, k + 1)) return nullptr;
    auto v = StaticInt(dc.args[k + 1]), b = StaticInt(t->shape[k]);
    if (v && (*v < 0 || (b && *v > *b)))
      return dc.ErrorAt(k + 1, fmt::format("is {}, outside [0, {}] (the tile's {})", *v,
                                           DimStr(t->shape[k]), names[k]));
  }
  TileView v = t->view.value_or(TileView{});
  v.valid_shape = {dc.args[1], dc.args[2]};
  return MakeTileType(dc.ctx, t->shape, t->dtype, t->memory_space, v);
}

const Type* DeduceFillPad(DeduceContext& dc) {
  const TileType* t = ExpectTile(dc, 0);
  if (!t) return nullptr;
  if (t->memory_space && *t->memory_space != MemorySpace::kVec)
    return dc.ErrorAt(0, "must be in pl.Mem.Vec, got " + MemStr(*t->memory_space));
  auto pad = static_cast<PadValue>(dc.IntKwarg("pad_value", static_cast<int>(PadValue::kZero)));
  if (pad == PadValue::kNull)
    return dc.KwargError("pad_value",
                         "pl.PadValue.null fills nothing; use pl.PadValue.zero, "
                         "pl.PadValue.max or pl.PadValue.min");
  TileView v = t->view.value_or(TileView{});
  v.valid_shape.clear();  // every element now holds data
  v.pad = pad;
  return MakeTileType(dc.ctx, t->shape, t->dtype, t->memory_space, v);
}

const Type* DeduceMove(DeduceContext& dc) {
  const TileType* t = ExpectTile(dc, 0);
  if (!t) return nullptr;
  bool ok = true;
  auto mem = OnChipMemKwarg(dc, "target_memory", ok);
  if (!ok) return nullptr;
  MemorySpace to = mem.value_or(MemorySpace::kVec);
  if (t->memory_space && !ops::IsMovePath(*t->memory_space, to))
    return dc.Error(ops::NoMovePathMessage(*t->memory_space, to));
  TileView v = t->view.value_or(TileView{});
  if (const Attr* b = dc.Kwarg("blayout")) v.blayout = static_cast<TileLayout>(b->i);
  if (const Attr* s = dc.Kwarg("slayout")) v.slayout = static_cast<TileLayout>(s->i);
  return MakeTileType(dc.ctx, t->shape, t->dtype, to, v);
}

const Type* DeduceSubblockIdx(DeduceContext& dc) { return dc.ctx.Scalar(DataType::kIndex); }

const TileType* TileAndIndices(DeduceContext& dc) {
  const TileType* t = ExpectTile(dc, 0);
  if (!t) return nullptr;
  const MakeTuple* idx = ExpectIndexTuple(dc, 1, t->rank(), "'tile'");
  if (!idx) return nullptr;
  Shape ones(t->rank(), dc.ctx.Int(1));
  if (!ExpectRegionInBounds(dc, 1, idx->elements, ones, t->shape, "'tile'")) return nullptr;
  return t;
}

const Type* DeduceTileRead(DeduceContext& dc) {
  const TileType* t = TileAndIndices(dc);
  return t ? dc.ctx.Scalar(t->dtype) : nullptr;
}

const Type* DeduceTileWrite(DeduceContext& dc) {
  const TileType* t = TileAndIndices(dc);
  if (!t) return nullptr;
  if (!ExpectScalar(dc, 2)) return nullptr;
  if (!ScalarAssignable(dc.args[2], t->dtype))
    return dc.ErrorAt(2, fmt::format("must be a pl.Scalar[{}] (the tile's dtype), got {}",
                                     DTypeStr(t->dtype), TypeStr(dc.args[2]->type)));
  return dc.args[0]->type;
}

}  // namespace

const Type* DeduceCreate(DeduceContext& dc) {
  const MakeTuple* shape = ExpectIndexTuple(dc, 0);
  if (!shape) return nullptr;
  if (shape->elements.empty()) return dc.ErrorAt(0, "must have at least one dimension");
  if (!ExpectPositiveDims(dc, 0, shape->elements)) return nullptr;
  DataType dt = dc.Kwarg("dtype")->dtype;
  if (dt == DataType::kIndex)
    return dc.KwargError("dtype", "pl.INDEX is not a storage dtype; use pl.INT64");
  bool ok = true;
  auto mem = OnChipMemKwarg(dc, "target_memory", ok);
  if (!ok) return nullptr;
  return MakeTileType(dc.ctx, shape->elements, dt, mem);
}

void RegisterTileMemoryOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kTileLoad)
      .Doc(
          "Load the region [offsets, offsets + shapes) of a GM tensor into an on-chip tile. "
          "valid_shape (default: shapes) marks the meaningful part; it is narrowed to what "
          "the tensor's valid region supplies where statically known. target_memory sets the "
          "tile's memory space (unset = inferred later). clamp=True clamps the region to the "
          "tensor instead of requiring it to be in bounds.")
      .Category("TileOp")
      .Arg("tensor", "pl.Tensor or pld.DistributedTensor")
      .Arg("offsets", "region start, one per tensor dim")
      .Arg("shapes", "tile shape (region extents), one per tensor dim")
      .OptionalArg("valid_shape", "valid extents, one per tensor dim, each <= shapes")
      .EnumKwarg("target_memory", EnumKind::kMemorySpace, "on-chip memory space of the tile")
      .Kwarg("clamp", KwargType::kBool, "clamp the region to the tensor bounds", Attr::Bool(false))
      .Kwarg("tile_2d", KwargType::kBool,
             "internal (set by flatten-tile-nd-to-2d): the tile of an N-D window is its 2-D "
             "row-major form [prod(leading shapes), last]; the window keeps the tensor's rank")
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceLoad);

  ops::RegisterOp(r, ops::kTileStore)
      .Doc(
          "Store a tile's valid region into a GM tensor at offsets; returns the output tensor "
          "(out = pl.tile.store(t, offsets, out)). shapes maps a tile onto a tensor region of "
          "a different rank (same element count). atomic=pld.AtomicType.Add accumulates "
          "(FP32/BF16/FP16/INT32/INT16/INT8; BF16 on a2a3 only).")
      .Category("TileOp")
      .Arg("tile", "pl.Tile in pl.Mem.Vec or pl.Mem.Acc")
      .Arg("offsets", "region start, one per output_tensor dim")
      .Arg("output_tensor", "pl.Tensor or pld.DistributedTensor (written)")
      .OptionalArg("shapes", "region extents, one per output_tensor dim")
      .EnumKwarg("atomic", EnumKind::kAtomicType, "overwrite (None_) or accumulate (Add)",
                 static_cast<int>(AtomicType::kNone))
      .Effect(2,
              [](const AttrList& kw) {
                const Attr* a = FindAttr(kw, "atomic");
                return a && a->i == static_cast<int>(AtomicType::kAdd) ? ArgEffect::kReadWrite
                                                                       : ArgEffect::kWrite;
              })
      .InputMemory(0, {MemorySpace::kVec, MemorySpace::kAcc})
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceStore);

  ops::RegisterOp(r, ops::kTileCreate)
      .Doc("Allocate an uninitialised on-chip tile of the given shape and dtype.")
      .Category("TileOp")
      .Arg("shape", "tuple of positive dims")
      .RequiredKwarg("dtype", KwargType::kDType, "element dtype")
      .EnumKwarg("target_memory", EnumKind::kMemorySpace, "on-chip memory space (unset = inferred)")
      .Affinity(CoreAffinity::kShared)
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceCreate);

  ops::RegisterOp(r, ops::kTileSetValidshape)
      .Doc(
          "The same 2-D tile with its valid region set to [valid_rows, valid_cols] (metadata "
          "only; no data moves).")
      .Category("TileOp")
      .Arg("tile", "2-D pl.Tile")
      .Arg("valid_rows", "integer scalar in [0, rows]")
      .Arg("valid_cols", "integer scalar in [0, cols]")
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceSetValidShape);

  ops::RegisterOp(r, ops::kTileFillpadInplace)
      .Doc(
          "Fill the elements outside a Vec tile's valid region with pad_value (default zero), "
          "in place; the result is the same tile, now fully valid.")
      .Category("TileOp")
      .Arg("tile", "pl.Tile in pl.Mem.Vec (read and written)")
      .EnumKwarg("pad_value", EnumKind::kPadValue, "zero, max or min",
                 static_cast<int>(PadValue::kZero))
      .Affinity(CoreAffinity::kVector)
      .Effect(0, ArgEffect::kReadWrite)
      .InputMemory(0, {MemorySpace::kVec})
      .OutputMemory(MemorySpace::kVec)
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceFillPad);

  ops::RegisterOp(r, ops::kTileMove)
      .Doc(
          "Copy a tile to another on-chip memory space (default pl.Mem.Vec), optionally "
          "changing its block/scatter layout. The paths: Vec -> Vec | Mat, Mat -> Left | "
          "Right | Bias, Acc -> Mat | Vec. Crossing between cube spaces (Mat, Left, Right, "
          "Acc, Bias) and Vec makes the call MIXED (see ClassifyCallAffinity).")
      .Category("TileOp")
      .Arg("tile", "pl.Tile")
      .EnumKwarg("target_memory", EnumKind::kMemorySpace, "destination space",
                 static_cast<int>(MemorySpace::kVec))
      .EnumKwarg("blayout", EnumKind::kTileLayout, "block layout of the result")
      .EnumKwarg("slayout", EnumKind::kTileLayout, "scatter layout of the result")
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceMove);

  ops::RegisterOp(r, ops::kTileGetSubblockIdx)
      .Doc("Index (0 or 1) of the AIV sub-block (vector lane) executing the call.")
      .Category("TileOp")
      .Affinity(CoreAffinity::kVector)
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceSubblockIdx);

  ops::RegisterOp(r, ops::kTileRead)
      .Doc("Read one element of a tile.")
      .Category("TileOp")
      .Arg("tile", "pl.Tile")
      .Arg("indices", "one index per tile dim")
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceTileRead);

  ops::RegisterOp(r, ops::kTileWrite)
      .Doc("Write one element of a tile; returns the tile, for chaining.")
      .Category("TileOp")
      .Arg("tile", "pl.Tile (written)")
      .Arg("indices", "one index per tile dim")
      .Arg("value", "scalar of the tile's dtype (literals convert)")
      .Effect(0, ArgEffect::kWrite)
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceTileWrite);
}

}  // namespace pypto::ir
