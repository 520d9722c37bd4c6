// PTO emission of core tile ops: GM <-> UB movement (tile.load / tile.store via
// partition views + pto.tload / pto.tstore), allocation (tile.create), in-place
// tile updates (set_validshape, fillpad_inplace), row sums, reshape and
// elementwise compute, all in the destination-passing form
// `pto.tadd ins(%a, %b : Ta, Tb) outs(%r : Tr)`.
// Every tile result gets its own UB buffer from PtoFunctionEmitter::AllocTile.
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/ops.h"

namespace pypto::codegen {

using namespace pypto::ir;

namespace {

std::string ResultHint(const Var* result, std::string_view fallback) {
  return result ? result->name_hint : std::string(fallback);
}

int64_t IntKwarg(const Call* c, std::string_view name, int64_t def) {
  const Attr* a = FindAttr(c->kwargs, name);
  return a && (a->kind == Attr::Kind::kInt || a->kind == Attr::Kind::kEnum) ? a->i : def;
}

bool TileLoad(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  const TileType* rt = As<TileType>(c->type);
  if (!rt)
    return fe.Error(c->span,
                    fmt::format("{}: expected a tile result", PtoFunctionEmitter::OpName(c)));
  const PtoBinding* tile = fe.AllocTile(result, c);
  if (!tile) return false;
  auto offs = fe.IndexList(c->args[1], c->span);
  if (!offs) return false;
  // Partition extent: the requested valid region when given, else the shape.
  const Expr* ext = c->args.size() > 3 && c->args[3] ? c->args[3] : c->args[2];
  auto sizes = fe.DimList(ext, c->span);
  if (!sizes) return false;
  auto pv = fe.PartitionView(t->view, t->view_type, t->type->dtype, *offs, *sizes,
                             ResultHint(result, "load") + "_pview");
  fe.Op(fmt::format("pto.tload ins({} : {}) outs({} : {})", pv.name, pv.type, tile->value.name,
                    tile->value.type));
  return true;
}

// Partition extents for storing a flattened 2-D tile into the N-D region
// `shapes` (flatten-tile-nd-to-2d's tile.store form): the region with its last
// extent replaced by the tile's valid columns and its leading extents by the
// un-merged valid rows. A dynamic row count is un-merged structurally: it must
// be `v0 * shapes[1] * ... * shapes[r-2]` (as MergeLeadingDims builds it).
std::optional<std::vector<PtoDim>> UnmergedExtent(PtoFunctionEmitter& fe, const Call* c,
                                                  const TileType* tile, const MakeTuple* shapes) {
  const auto& ext = shapes->elements;
  size_t r = ext.size();
  if (!tile->view || tile->view->valid_shape.empty()) return fe.DimList(ext, c->span);
  const Expr* vrows = tile->view->valid_shape[0];
  if (!DimEqual(ext.back(), tile->shape[1])) {
    fe.Error(c->span, fmt::format("{}: a partly valid {} tile stored through the {} "
                                  "region (a different last extent) is not supported by the PTO "
                                  "backend; store through a region ending in {}",
                                  PtoFunctionEmitter::OpName(c), ShapeStr(tile->shape),
                                  ShapeStr(ext), DimStr(tile->shape[1])));
    return std::nullopt;
  }
  std::vector<const Expr*> dims = ext;
  dims.back() = tile->view->valid_shape[1];
  auto rows = StaticInt(vrows);
  auto full_rows = StaticInt(tile->shape[0]);
  if (rows && full_rows && *rows == *full_rows) return fe.DimList(dims, c->span);
  bool ok = true;
  if (rows) {
    // Static: innermost leading dims are whole while the count divides.
    int64_t vs = *rows;
    for (size_t k = r - 1; k-- > 0;) {
      auto e = StaticInt(ext[k]);
      if (k == 0 || (e && vs < *e)) {
        dims[k] = fe.ctx().Int(vs);
        for (size_t j = 0; j < k; ++j) dims[j] = fe.ctx().Int(vs == 0 ? 0 : 1);
        break;
      }
      if (!e || vs % *e != 0) {
        ok = false;
        break;
      }
      vs /= *e;
    }
  } else {
    // Dynamic: peel `* shapes[k]` factors off the row expression.
    const Expr* e = vrows;
    for (size_t k = r - 1; k-- > 1 && ok;) {
      if (StaticInt(ext[k]) == 1) continue;  // `x * 1` was folded to x
      auto* b = As<BinaryExpr>(e);
      if (b && b->op == BinaryOp::kMul && DimEqual(b->rhs, ext[k])) {
        e = b->lhs;
      } else {
        ok = false;
      }
    }
    dims[0] = e;
  }
  if (!ok) {
    fe.Error(c->span, fmt::format("{}: the valid rows ({}) of the flattened tile are not "
                                  "whole rows of the {} region, which is not supported by the PTO "
                                  "backend; store a valid box of whole rows",
                                  PtoFunctionEmitter::OpName(c), DimStr(vrows), ShapeStr(ext)));
    return std::nullopt;
  }
  return fe.DimList(dims, c->span);
}

bool TileStore(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* tile = fe.TileArg(c, 0);
  const PtoTensor* t = fe.TensorArg(c, 2);
  if (!tile || !t) return false;
  auto offs = fe.IndexList(c->args[1], c->span);
  if (!offs) return false;
  std::optional<std::vector<PtoDim>> sizes;
  const TileType* tt = Cast<TileType>(c->args[0]->type);
  const MakeTuple* shapes = c->args.size() > 3 ? AsTuple(c->args[3]) : nullptr;
  if (shapes && tt->rank() == 2 && shapes->elements.size() > 2) {
    sizes = UnmergedExtent(fe, c, tt, shapes);
  } else if (c->args.size() > 3 && c->args[3]) {
    sizes = fe.DimList(c->args[3], c->span);
  } else {
    sizes = fe.TileExtent(Cast<TileType>(c->args[0]->type), t->type->shape.size(), c->span);
  }
  if (!sizes) return false;
  auto pv =
      fe.PartitionView(t->view, t->view_type, t->type->dtype, *offs, *sizes, t->name + "_pview");
  bool atomic = IntKwarg(c, "atomic", 0) == static_cast<int>(AtomicType::kAdd);
  fe.Op(fmt::format("pto.tstore ins({} : {}) outs({} : {}){}", tile->value.name, tile->value.type,
                    pv.name, pv.type,
                    atomic ? " {atomicType = #pto<atomic_type atomic_add>}" : ""));
  if (result) {
    PtoBinding b;
    b.kind = PtoBinding::Kind::kTensor;
    b.tensor = t;
    fe.Bind(result, b);
  }
  return true;
}

bool TileCreate(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  return fe.AllocTile(result, c) != nullptr;
}

bool TileSetValidShape(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* tile = fe.TileArg(c, 0);
  if (!tile) return false;
  // set_validshape needs a dynamic-valid tile: a static-valid one is first
  // retyped to v_row=?, v_col=? at its current extents.
  auto dyn = fe.TileBufType(Cast<TileType>(c->args[0]->type), c->span, /*dynamic_valid=*/true);
  if (!dyn) return false;
  std::string r = fe.AsIndex(c->args[1]), col = fe.AsIndex(c->args[2]);
  if (r.empty() || col.empty()) return false;
  if (!tile->carried) {
    auto b = fe.RetypeTile(*tile, *dyn, c->span);
    if (!b) return false;
    fe.Op(fmt::format("pto.set_validshape {}, {}, {} : {}", b->value.name, r, col, b->value.type));
    if (result) fe.Bind(result, *b);
    return true;
  }
  // ptoas resizes only a locally bound tile: a loop result is re-bound at its
  // group's one buffer (ub_allocator.h, Coalescing), already at the new extent.
  if (tile->addr.empty()) {
    fe.Error(c->span,
             "tile.set_validshape: the tile it resizes is a loop or if result that is not one "
             "buffer on every path, and the PTO backend can resize only a buffer it allocated; "
             "resize the tile before it is yielded instead (a loop result is one buffer when "
             "the loop's init is not read after the body writes the next value)");
    return false;
  }
  PtoBinding a = *tile;
  a.carried = false;
  a.value = {fe.Named(tile->value.name.substr(1) + "_as"), *dyn};
  fe.Op(fmt::format("{} = pto.alloc_tile addr = {} valid_row = {} valid_col = {} : {}",
                    a.value.name, a.addr, r, col, a.value.type));
  if (result) fe.Bind(result, a);
  return true;
}

bool TileFillPadInplace(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* tile = fe.TileArg(c, 0);
  if (!tile) return false;
  // The destination is the same buffer typed as the result: fully valid, with the
  // pad value (ptoas reads it from the destination type; it rejects pad=null).
  auto dst_type = fe.TileBufType(Cast<TileType>(c->type), c->span);
  if (!dst_type) return false;
  auto dst = fe.RetypeTile(*tile, *dst_type, c->span);
  if (!dst) return false;
  fe.Op(fmt::format("pto.tfillpad ins({} : {}) outs({} : {})", tile->value.name, tile->value.type,
                    dst->value.name, dst->value.type));
  if (result) fe.Bind(result, *dst);
  return true;
}

bool TileBinary(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  std::string_view op = PtoSpelling(c);
  const PtoBinding* a = fe.TileArg(c, 0);
  const PtoBinding* b = fe.TileArg(c, 1);
  if (!a || !b) return false;
  const PtoBinding* r = fe.AllocTile(result, c);
  if (!r) return false;
  fe.Op(fmt::format("{} ins({}, {} : {}, {}) outs({} : {})", op, a->value.name, b->value.name,
                    a->value.type, b->value.type, r->value.name, r->value.type));
  return true;
}

bool TileScalar(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  std::string_view op = PtoSpelling(c);
  const PtoBinding* a = fe.TileArg(c, 0);
  if (!a) return false;
  const TileType* tt = Cast<TileType>(c->args[0]->type);
  PtoValue s = fe.CastTo(fe.Value(c->args[1]), PtoFunctionEmitter::MlirScalarType(tt->dtype));
  if (!s.ok()) return false;
  const PtoBinding* r = fe.AllocTile(result, c);
  if (!r) return false;
  fe.Op(fmt::format("{} ins({}, {} : {}, {}) outs({} : {})", op, a->value.name, s.name,
                    a->value.type, s.type, r->value.name, r->value.type));
  return true;
}

bool TileUnary(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  std::string_view op = PtoSpelling(c);
  const PtoBinding* a = fe.TileArg(c, 0);
  if (!a) return false;
  const PtoBinding* r = fe.AllocTile(result, c);
  if (!r) return false;
  fe.Op(fmt::format("{} ins({} : {}) outs({} : {})", op, a->value.name, a->value.type,
                    r->value.name, r->value.type));
  return true;
}

// tile.move is `pto.tmov ins(%src : Ts) outs(%dst : Td)` on every path the op
// allows except Vec -> Mat on a2a3: there the vector and cube cores are apart
// and no tmov joins them (ptoas: "expects a supported tmov address-space pair").
bool TileMove(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  auto from = MemOf(c->args[0]->type), to = MemOf(c->type);
  if (fe.target_arch() == "a2a3" && from == MemorySpace::kVec && to == MemorySpace::kMat)
    return fe.Error(c->span,
                    "tile.move: a pl.Mem.Vec -> pl.Mem.Mat move hands data from the vector core "
                    "to the cube core, which the a2a3 target cannot do with one tmov (a5 can); "
                    "store the tile to GM and pl.load it with target_memory=pl.Mem.Mat");
  return TileUnary(fe, c, result);
}

// Row sums: `pto.trowsum ins(%src, %tmp : Ts, Tt) outs(%dst : Td)` (TROWSUM
// with its scratch tile); the [rows, 1] result is a column-major tile.
bool TileRowSum(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* a = fe.TileArg(c, 0);
  const PtoBinding* tmp = fe.TileArg(c, 1);
  if (!a || !tmp) return false;
  const PtoBinding* r = fe.AllocTile(result, c);
  if (!r) return false;
  fe.Op(fmt::format("pto.trowsum ins({}, {} : {}, {}) outs({} : {})", a->value.name,
                    tmp->value.name, a->value.type, tmp->value.type, r->value.name, r->value.type));
  return true;
}

// Reshape: `%dst = pto.treshape %src : Ts -> Td`, the same buffer under new
// tile metadata (TRESHAPE reinterprets the bytes; ptoas takes it in this SSA
// form, as it does alloc_tile, and the UB allocator gives it no buffer of its own).
bool TileReshape(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* a = fe.TileArg(c, 0);
  if (!a) return false;
  auto type = fe.TileBufType(Cast<TileType>(c->type), c->span);
  if (!type) return false;
  PtoBinding r = *a;
  r.value = {fe.Named(result ? result->name_hint : "reshaped"), *type};
  fe.Op(fmt::format("{} = pto.treshape {} : {} -> {}", r.value.name, a->value.name, a->value.type,
                    r.value.type));
  if (result) fe.Bind(result, r);
  return true;
}

// tile.get_subblock_idx: which vector lane (sub-block) of its core runs this
// split_aiv kernel, 0 or 1 (pto.get_subblock_idx, an i64), as the index the
// halved offsets are computed in.
bool TileGetSubblockIdx(PtoFunctionEmitter& fe, const Call*, const Var* result) {
  if (!result) return true;
  std::string raw = fe.Temp();
  fe.Op(fmt::format("{} = pto.get_subblock_idx", raw));
  fe.BindScalar(result, fe.CastTo({raw, "i64"}, "index"));
  return true;
}

// The element-wise family's PTO spellings, one entry per tile op: the op's
// declared family (tile x tile, or its tile x scalar twin) picks the emitter.
constexpr std::pair<OpHandle, std::string_view> kElementwise[] = {
    {ops::kTileAdd, "pto.tadd"},   {ops::kTileSub, "pto.tsub"},     {ops::kTileMul, "pto.tmul"},
    {ops::kTileDiv, "pto.tdiv"},   {ops::kTileMaximum, "pto.tmax"}, {ops::kTileMinimum, "pto.tmin"},
    {ops::kTileAdds, "pto.tadds"}, {ops::kTileSubs, "pto.tsubs"},   {ops::kTileMuls, "pto.tmuls"},
    {ops::kTileDivs, "pto.tdivs"},
};
// Tile -> tile ops spelled by TileUnary.
constexpr std::pair<OpHandle, std::string_view> kUnary[] = {
    {ops::kTileCast, "pto.tcvt"},
};

}  // namespace

void RegisterPtoTileOps(PtoOpTable& t) {
  t.Emit(ops::kTileLoad, TileLoad);
  t.Emit(ops::kTileStore, TileStore);
  t.Emit(ops::kTileCreate, TileCreate);
  t.Emit(ops::kTileSetValidshape, TileSetValidShape);
  t.Emit(ops::kTileFillpadInplace, TileFillPadInplace);
  t.Emit(ops::kTileRowSum, TileRowSum);
  t.Emit(ops::kTileReshape, TileReshape);
  t.Emit(ops::kTileGetSubblockIdx, TileGetSubblockIdx);
  for (const auto& [h, spelling] : kElementwise)
    t.Emit(h, ops::Get(h).family == OpFamily::kElementwiseScalar ? TileScalar : TileBinary,
           spelling);
  for (const auto& [h, spelling] : kUnary) t.Emit(h, TileUnary, spelling);
  t.Emit(ops::kTileMove, TileMove, "pto.tmov");
}

}  // namespace pypto::codegen
