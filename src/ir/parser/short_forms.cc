// Upstream's short/user call forms (design §5), resolved here to canonical ops or
// scalar expressions by the kind of their operands:
//   pl.const(v, dt)            -> ConstInt / ConstFloat / ConstBool of dtype dt
//   pl.cast(x, dt)             -> UnaryExpr kCast (scalar) | tensor.cast | tile.cast
//   pl.min / pl.max / pl.abs   -> scalar Min / Max / Abs
//   pl.<element-wise op> (pl.add, pl.maximum, ...: the registry's OpFamily::
//                              kElementwise) -> tile.* | tensor.* | the scalar
//                              BinaryExpr the op declares; pl.add(tile or tensor,
//                              scalar) -> its declared scalar twin tile.adds |
//                              tensor.adds (a literal scalar takes the tile's /
//                              tensor's dtype)
//   pl.assemble(target, src, offset) -> tensor.assemble; a tile src is
//                              tile.store(src, offset, target)
//   pl.load/pl.store           -> tile.load / tile.store (a lower-rank tile gets `shapes`)
//   pl.read/pl.write           -> tile.read|write or tensor.read|write
//   pl.create_tensor           -> tensor.create
//   pl.array.create(n, dt)     -> array.create(n, dtype=dt)
//   pld.remote_store           -> pld.tile.remote_store (tile src) | pld.tensor.remote_store
//   pld.tensor.allgather(d, s) -> pld.tensor.allgather(d, d, s) (in place, pre-staged rows)
//   other two-segment names (pld.window, pld.world_size, pl.exp, ...) -> the first
//   registered of <family>.<name> for the operand kind (tile / tensor / system).
#include <fmt/format.h>

#include "lower.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"
#include "text_names.h"

namespace pypto::ir::parser {

namespace {

// The tile members of the element-wise family (those with a tensor twin).
const std::vector<const OpDef*>& ElementwiseTileOps() {
  static const std::vector<const OpDef*> ops = [] {
    std::vector<const OpDef*> out;
    for (const OpDef* d : OpRegistry::Global().All())
      if (d->family == OpFamily::kElementwise && d->tensor_twin.valid()) out.push_back(d);
    return out;
  }();
  return ops;
}

// What `pl.<base>(a, b)` means on two scalars: an element-wise op's declared
// scalar meaning, or pl.max / pl.min (scalar Max / Min, not element-wise ops).
std::optional<BinaryOp> ScalarOpFor(const std::string& base) {
  if (const OpDef* ew = Lowerer::ElementwiseByName(base)) return ew->scalar_op;
  if (base == "max") return BinaryOp::kMax;
  if (base == "min") return BinaryOp::kMin;
  return std::nullopt;
}

}  // namespace

const OpDef* Lowerer::ElementwiseByName(std::string_view base) {
  for (const OpDef* d : ElementwiseTileOps())
    if (d->ShortName() == base) return d;
  return nullptr;
}

const OpDef* Lowerer::ElementwiseByScalarOp(BinaryOp op) {
  for (const OpDef* d : ElementwiseTileOps())
    if (d->scalar_op == op) return d;
  return nullptr;
}

// A literal scalar operand of a tile/tensor op takes the element dtype
// (`pl.add(x_fp16, 1)` adds pl.const(1.0, pl.FP16)); other scalars are kept.
const Expr* Lowerer::LiteralAsDType(const Expr* e, DataType dt) {
  if (auto* ci = As<ConstInt>(e)) {
    if (ci->dtype() == dt || dt == DataType::kBool) return e;
    if (IsFloat(dt)) return ctx_.Float(double(ci->value), dt, e->span);
    return ctx_.Int(ci->value, dt, e->span);
  }
  if (auto* cf = As<ConstFloat>(e); cf && IsFloat(dt) && cf->dtype() != dt)
    return ctx_.Float(cf->value, dt, e->span);
  return e;
}

const Expr* Lowerer::DispatchByKind(const std::string& base, std::vector<const Expr*> args,
                                    const PyExpr* call, Span s, std::vector<Span> spans) {
  const Expr* first = args.empty() ? nullptr : args[0];
  std::string opname;
  // tile/tensor ⊕ scalar: the op's declared scalar twin (upstream's adds/subs/...).
  const OpDef* ew = ElementwiseByName(base);
  if (first && args.size() == 2 && args[1] && ew && ew->scalar_twin.valid() &&
      Isa<ScalarType>(args[1]->type) && !Isa<ScalarType>(first->type)) {
    if (const TensorType* tt = AsTensorTypeLike(first->type))
      args[1] = LiteralAsDType(args[1], tt->dtype);
    else if (const auto* tl = As<TileType>(first->type))
      args[1] = LiteralAsDType(args[1], tl->dtype);
    std::string twin(OpRegistry::Global().Get(ew->scalar_twin).ShortName());
    return DispatchByKind(twin, std::move(args), call, s, std::move(spans));
  }
  if (first && Isa<TileType>(first->type)) {
    opname = "tile." + base;
  } else if (first && AsTensorTypeLike(first->type)) {
    opname = "tensor." + base;
  } else if (first && Isa<ScalarType>(first->type)) {
    auto op = ScalarOpFor(base);
    if (!op || args.size() != 2 || (call && !call->kwargs.empty())) {
      Error(s, fmt::format("pl.{}: on scalars expected exactly two positional operands", base));
      return nullptr;
    }
    bool fold = pyconst_.count(args[0]) || pyconst_.count(args[1]);
    return MakeBinary(*op, args[0], args[1], s, fold);
  } else {
    Error(s, fmt::format("pl.{}: the first operand must be a tile, tensor or scalar; got {}", base,
                         first ? TypeToString(first->type) : std::string("nothing")));
    return nullptr;
  }
  const OpDef* op = OpRegistry::Global().Find(opname);
  if (!op) {
    Error(s, fmt::format("pl.{} on a {} is not supported ({} is not registered)", base,
                         opname.substr(0, opname.find('.')), text::PrintedOpName(opname)));
    return nullptr;
  }
  if (call) return BuildOpCall(*op, std::move(args), call);
  spans.resize(args.size(), s);
  return MakeOpCall(ctx_, *op, std::move(args), {}, {}, s, diag_, std::move(spans));
}

// `pl.store(tile, offsets, tensor)` of a tile with fewer dims than the tensor
// (upstream stores a [1, SIZE] row into a [1, NR, SIZE] output at [0, j, 0]):
// the tile's dims are the tensor's innermost ones and the missing leading ones
// are 1, spelled out as the `shapes` argument. Only for a fully valid tile with
// a static shape; anything else is left to tile.store's own rank check.
void Lowerer::ImplicitStoreShapes(const PyExpr* call, std::vector<const Expr*>* pos) {
  if (pos->size() != 3) return;
  for (const Keyword& kw : call->kwargs)
    if (kw.name == "shapes") return;
  auto* tile = As<TileType>((*pos)[0]->type);
  const TensorType* out = AsTensorTypeLike((*pos)[2]->type);
  if (!tile || !out || tile->rank() >= out->rank() ||
      (tile->view && !tile->view->valid_shape.empty()))
    return;
  std::vector<const Expr*> dims;
  for (size_t k = tile->rank(); k < out->rank(); ++k)
    dims.push_back(ctx_.Int(1, DataType::kIndex, call->span));
  for (const Expr* d : tile->shape) {
    auto v = StaticInt(d);
    if (!v) return;
    dims.push_back(ctx_.Int(*v, DataType::kIndex, call->span));
  }
  std::vector<const Type*> types;
  for (const Expr* d : dims) types.push_back(d->type);
  pos->push_back(
      ctx_.Make<MakeTuple>(std::move(dims), ctx_.Make<TupleType>(std::move(types)), call->span));
}

namespace {

// pl.const(value, dtype): a literal of the given dtype.
const Expr* LowerConst(Lowerer& lw, const PyExpr* call) {
  Span s = call->span;
  const PyExpr* val = call->items.size() > 0 ? call->items[0] : nullptr;
  const PyExpr* dte = call->items.size() > 1 ? call->items[1] : nullptr;
  for (const Keyword& kw : call->kwargs) {
    if (kw.name == "dtype" && !dte)
      dte = kw.value;
    else if (kw.name == "value" && !val)
      val = kw.value;
    else {
      lw.Error(kw.span, fmt::format("pl.const: unexpected keyword '{}'", kw.name));
      return nullptr;
    }
  }
  if (!val || !dte || call->items.size() > 2) {
    lw.Error(s, "pl.const: expected a literal value and a dtype, e.g. pl.const(1, pl.INT32)");
    return nullptr;
  }
  auto c = lw.EvalConst(val, true);
  auto dt = lw.DTypeOf(dte);
  if (!dt) lw.Error(dte->span, lw.ExpectedDType("pl.const", dte, "pl.INT32"));
  if (!c || !dt) return nullptr;
  Context& ctx = lw.ctx_;
  if (*dt == DataType::kBool && c->k == ConstVal::K::kBool) return ctx.Bool(c->b, s);
  if (c->k == ConstVal::K::kInt && IsFloat(*dt)) return ctx.Float(double(c->i), *dt, s);
  if (c->k == ConstVal::K::kInt && *dt != DataType::kBool) return ctx.Int(c->i, *dt, s);
  if (c->k == ConstVal::K::kFloat && IsFloat(*dt)) return ctx.Float(c->f, *dt, s);
  lw.Error(val->span, fmt::format("pl.const: value cannot be given dtype pl.{}", DTypeName(*dt)));
  return nullptr;
}

// Upstream's `pl.array.create(extent, dtype)` passes the dtype positionally;
// it is the dtype= keyword of array.create (always handled here, so neither
// spelling is cached as a plain op).
const Expr* LowerArrayCreate(Lowerer& lw, const std::string& name, const PyExpr* call) {
  const OpDef* op = lw.FindOpOrReport(name, call->span);
  if (!op) return nullptr;
  if (call->items.size() == 2 && lw.DTypeOf(call->items[1])) {
    const Expr* n = lw.LowerArg(call->items[0]);
    if (!n) return nullptr;
    return lw.BuildOpCall(*op, {n}, call, {},
                          {{"dtype", Attr::DType(*lw.DTypeOf(call->items[1]))}});
  }
  std::vector<const Expr*> pos;
  if (!lw.LowerPositional(call, &pos)) return nullptr;
  return lw.BuildOpCall(*op, std::move(pos), call);
}

// Upstream's HOST form `pld.tensor.allgather(data, signal)`: every rank's chunk
// is pre-staged in its own row of the [NR, SIZE] window `data`, gathered in
// place, i.e. the three-operand op with data as both input and target.
const Expr* LowerInPlaceAllgather(Lowerer& lw, const PyExpr* call) {
  std::vector<const Expr*> pos;
  if (!lw.LowerPositional(call, &pos)) return nullptr;
  pos.insert(pos.begin(), pos[0]);
  return lw.BuildOpCall(*OpRegistry::Global().Find("pld.tensor.allgather"), std::move(pos), call);
}

// pl.cast(x, dtype): a scalar cast, or tile.cast / tensor.cast by the operand.
const Expr* LowerCast(Lowerer& lw, const PyExpr* call) {
  Span s = call->span;
  const PyExpr* dte = call->items.size() > 1 ? call->items[1] : nullptr;
  for (const Keyword& kw : call->kwargs)
    if ((kw.name == "dtype" || kw.name == "target_type") && !dte) dte = kw.value;
  if (call->items.empty() || !dte || call->items.size() > 2) {
    lw.Error(s, "pl.cast: expected a value and a dtype, e.g. pl.cast(x, pl.INT32)");
    return nullptr;
  }
  auto dt = lw.DTypeOf(dte);
  if (!dt) {
    lw.Error(dte->span, lw.ExpectedDType("pl.cast", dte, "pl.INT32"));
    return nullptr;
  }
  const Expr* x = lw.LowerExpr(call->items[0]);
  if (!x) return nullptr;
  if (Isa<ScalarType>(x->type)) {
    for (const Keyword& kw : call->kwargs)
      if (kw.name != "dtype" && kw.name != "target_type") {
        lw.Error(kw.span, fmt::format("pl.cast: unexpected keyword '{}' for a scalar", kw.name));
        return nullptr;
      }
    return lw.ctx_.Make<UnaryExpr>(UnaryOp::kCast, x, lw.ctx_.Scalar(*dt), s);
  }
  std::string opname = Isa<TileType>(x->type) ? "tile.cast" : "tensor.cast";
  const OpDef* op = OpRegistry::Global().Find(opname);
  if (!op) {
    lw.Error(s, fmt::format("pl.cast of a {} is not supported ({} is not registered)",
                            TypeToString(x->type), text::PrintedOpName(opname)));
    return nullptr;
  }
  return lw.BuildOpCall(*op, {x}, call, {"dtype", "target_type"},
                        {{"target_type", Attr::DType(*dt)}});
}

// A short name that is another op's spelling (pl.load -> pl.tile.load, ...).
const Expr* LowerRenamed(Lowerer& lw, const std::string& name, const char* to, const PyExpr* call) {
  const OpDef* op = lw.FindOpOrReport(to, call->span);
  std::vector<const Expr*> pos;
  if (!op || !lw.LowerPositional(call, &pos)) return nullptr;
  if (name == "pl.store") lw.ImplicitStoreShapes(call, &pos);
  return lw.BuildOpCall(*op, std::move(pos), call);
}

// pl.min / pl.max / pl.abs / pl.read / pl.write / pld.remote_store: the op (or
// scalar expression) chosen by the first operand's kind.
const Expr* LowerByFirstOperand(Lowerer& lw, const std::string& name, const PyExpr* call) {
  Span s = call->span;
  std::vector<const Expr*> pos;
  if (!lw.LowerPositional(call, &pos)) return nullptr;
  const Expr* first = pos.empty() ? nullptr : pos[0];
  if (name == "pl.abs") {
    if (pos.size() == 1 && call->kwargs.empty() && Isa<ScalarType>(first->type))
      return lw.ctx_.Make<UnaryExpr>(UnaryOp::kAbs, first, first->type, s);
    return lw.DispatchByKind("abs", std::move(pos), call, s);
  }
  if (name == "pl.min" || name == "pl.max")
    return lw.DispatchByKind(name.substr(3), std::move(pos), call, s);
  if (name == "pld.remote_store") {
    bool tile = first && Isa<TileType>(first->type);
    for (const Keyword& kw : call->kwargs) tile |= !first && kw.name == "src_tile";
    const OpDef* op =
        lw.FindOpOrReport(tile ? "pld.tile.remote_store" : "pld.tensor.remote_store", s);
    return op ? lw.BuildOpCall(*op, std::move(pos), call) : nullptr;
  }
  if (!first) {
    lw.Error(s,
             fmt::format("{}: expected the tile or tensor as the first positional argument", name));
    return nullptr;
  }
  return lw.DispatchByKind(name.substr(3), std::move(pos), call, s);
}

// pl.assemble(target, source, offset): tensor.assemble; a tile source is
// stored into the region.
const Expr* LowerAssemble(Lowerer& lw, const PyExpr* call) {
  Span s = call->span;
  std::vector<const Expr*> pos;
  if (!lw.LowerPositional(call, &pos)) return nullptr;
  if (pos.size() >= 2 && Isa<TileType>(pos[1]->type)) {
    if (pos.size() != 3 || !call->kwargs.empty()) {
      lw.Error(s,
               "pl.assemble: with a tile source pass target, source and offset positionally "
               "(it becomes pl.tile.store(source, offset, target))");
      return nullptr;
    }
    const OpDef* op = lw.FindOpOrReport("pl.tile.store", s);
    if (!op) return nullptr;
    return MakeOpCall(lw.ctx_, *op, {pos[1], pos[2], pos[0]}, {}, {}, s, lw.diag_,
                      {Lowerer::UseSpan(call->items[1]), Lowerer::UseSpan(call->items[2]),
                       Lowerer::UseSpan(call->items[0])});
  }
  const OpDef* op = lw.FindOpOrReport("pl.tensor.assemble", s);
  return op ? lw.BuildOpCall(*op, std::move(pos), call) : nullptr;
}

// Two-segment names that are not ops themselves: pick the family by operand
// kind. Clears *handled (nothing reported) for a name this does not cover.
const Expr* LowerByFamily(Lowerer& lw, const std::string& name, const PyExpr* call, bool* handled) {
  bool pld = name.rfind("pld.", 0) == 0;
  std::string base = name.substr(pld ? 4 : 3);
  std::string canonical = pld ? name : name.substr(3);
  if (base.find('.') != std::string::npos || OpRegistry::Global().Find(canonical)) {
    *handled = false;
    return nullptr;
  }
  std::vector<const Expr*> pos;
  bool ok = lw.LowerPositional(call, &pos);
  const Expr* first = pos.empty() ? nullptr : pos[0];
  std::vector<std::string> fams;
  if (first && Isa<TileType>(first->type))
    fams = {"tile", "system", "tensor"};
  else if (first && AsTensorTypeLike(first->type))
    fams = {"tensor", "system", "tile"};
  else
    fams = {"system", "tensor", "tile"};
  for (const std::string& fam : fams) {
    std::string cand = (pld ? "pld." : "") + fam + "." + base;
    if (const OpDef* op = OpRegistry::Global().Find(cand)) {
      if (!ok) return nullptr;
      return lw.BuildOpCall(*op, std::move(pos), call);
    }
  }
  std::string hint = lw.SuggestOp(name);
  lw.Error(call->span, fmt::format("unknown op '{}'{}", name,
                                   hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
  return nullptr;
}

}  // namespace

const Expr* Lowerer::LowerShortForm(const std::string& name, const PyExpr* call, bool* handled) {
  *handled = true;
  if (name == "pl.const") return LowerConst(*this, call);
  if (name == "pl.array.create") return LowerArrayCreate(*this, name, call);
  if ((name == "pld.tensor.allgather" || name == "pld.allgather") && call->items.size() == 2 &&
      call->kwargs.empty())
    return LowerInPlaceAllgather(*this, call);
  if (name == "pl.cast") return LowerCast(*this, call);

  static const std::pair<const char*, const char*> kRenames[] = {
      {"pl.load", "pl.tile.load"},
      {"pl.store", "pl.tile.store"},
      {"pl.create_tensor", "pl.tensor.create"},
      {"pl.create_tile", "pl.tile.create"},
      {"pld.remote_load", "pld.tile.remote_load"},
  };
  for (const auto& [from, to] : kRenames)
    if (name == from) return LowerRenamed(*this, name, to, call);

  if (name == "pl.min" || name == "pl.max" || name == "pl.abs" || name == "pl.read" ||
      name == "pl.write" || name == "pld.remote_store")
    return LowerByFirstOperand(*this, name, call);

  if (name == "pl.assemble") return LowerAssemble(*this, call);

  // pl.<member> of the element-wise family (pl.add, pl.maximum, ...).
  if (name.rfind("pl.", 0) == 0) {
    if (const OpDef* ew = ElementwiseByName(std::string_view(name).substr(3))) {
      std::vector<const Expr*> pos;
      if (!LowerPositional(call, &pos)) return nullptr;
      return DispatchByKind(std::string(ew->ShortName()), std::move(pos), call, call->span);
    }
  }

  return LowerByFamily(*this, name, call, handled);
}

}  // namespace pypto::ir::parser
