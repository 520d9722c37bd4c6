// Assignment to a subscript of a name — upstream's write-back sugar:
//   x[a:b, c:d] = v   v a tensor  ->  x = pl.tensor.assemble(x, v, [a, c])
//                     v a tile    ->  x = pl.tile.store(v, [a, c], x)
//   x[i, j] = s       s a scalar  ->  x = pl.tensor.write(x, [i, j], s)   (tile x: tile.write)
// The name is re-bound to the result, as `x = pl.store(t, offs, x)` re-binds it,
// so a later `return x` returns the written tensor. The region is the one the
// same subscript reads (integer index: extent 1; `lo:hi`: extent hi - lo; a
// missing trailing index: the whole dim). v's static shape must equal the
// region's extents, either with every dim or without the integer-indexed ones
// (`x[i, 0:W] = row` with a [W] row: a tensor is reshaped by pl.tensor.view, a
// tile stored with the region as `shapes`). Anything else keeps the message
// "assignment to a subscript is not supported; use pl.write(...)".
#include <fmt/format.h>

#include "lower.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"
#include "text_names.h"

namespace pypto::ir::parser {

namespace {

const char* const kUnsupported = "assignment to a subscript is not supported; use pl.write(...)";

std::string DimsStr(const std::vector<const Expr*>& dims) { return ShapeStr(dims); }

}  // namespace

void Lowerer::LowerSubscriptAssign(const PyStmt* s, std::vector<const Stmt*>* out) {
  const PyExpr* t = s->target;
  const PyExpr* name = t->a;
  if (name->kind != EK::kName) {
    Error(t->span, kUnsupported);
    return;
  }
  const Expr* base = LowerExpr(name);
  const Expr* value = LowerArg(s->value);
  if (!base || !value) return;
  const TensorType* tt = AsTensorTypeLike(base->type);
  const TileType* tile = As<TileType>(base->type);
  if (!tt && !tile) {
    Error(name->span,
          fmt::format("{} ('{}' has type {})", kUnsupported, name->str, TypeToString(base->type)));
    return;
  }
  size_t rank = tt ? tt->rank() : tile->rank();
  std::vector<const PyExpr*> idx;
  if (t->b->kind == EK::kTuple && !t->b->parenthesized)
    idx.assign(t->b->items.begin(), t->b->items.end());
  else
    idx.push_back(t->b);
  if (idx.size() > rank) {
    Error(t->b->span, fmt::format("too many indices: {} for a rank-{} value", idx.size(), rank));
    return;
  }
  bool any_slice = false;
  std::vector<const Expr*> ix;
  for (const PyExpr* x : idx) {
    if (x->kind == EK::kSlice) {
      any_slice = true;
      ix.push_back(nullptr);
      continue;
    }
    const Expr* v = LowerScalar(x, "index");
    if (!v) return;
    ix.push_back(v);
  }
  auto tuple_of = [&](std::vector<const Expr*> v) -> const Expr* {
    std::vector<const Type*> ts;
    for (const Expr* x : v) ts.push_back(x->type);
    return ctx_.Make<MakeTuple>(std::move(v), ctx_.Make<TupleType>(std::move(ts)), t->b->span);
  };
  auto bind = [&](const char* opname, std::vector<const Expr*> args, std::vector<Span> spans) {
    const OpDef* op = FindOpOrReport(text::PrintedOpName(opname), s->span);
    if (!op) return;
    const Expr* call =
        MakeOpCall(ctx_, *op, std::move(args), {}, {}, s->span, diag_, std::move(spans));
    if (!call) return;
    BindAssign(name->str, name->span, nullptr, call, s->span, out);
  };
  Span base_span = UseSpan(name), idx_span = UseSpan(t->b), val_span = UseSpan(s->value);

  // Element assignment: every dim indexed by an integer and a scalar value.
  if (!any_slice && idx.size() == rank && Isa<ScalarType>(value->type)) {
    bind(tt ? "tensor.write" : "tile.write", {base, tuple_of(ix), value},
         {base_span, idx_span, val_span});
    return;
  }
  if (tile) {
    Error(t->span,
          "assignment to a region of a tile is not supported; only an element "
          "(t[i, j] = scalar) can be assigned");
    return;
  }
  SubscriptRegion reg;
  if (!LowerSubscriptRegion(idx, ix, tt->shape, &reg)) return;
  const Expr* offsets = tuple_of(reg.offset);

  const TileType* vtile = As<TileType>(value->type);
  const TensorType* vtensor = AsTensorTypeLike(value->type);
  if (!vtile && !vtensor) {
    Error(s->value->span,
          fmt::format("assignment to the region {} of '{}': the value must be a tensor or a "
                      "tile, got {}; filling a region with a scalar is not supported",
                      DimsStr(reg.shape), name->str, TypeToString(value->type)));
    return;
  }
  // The region without its integer-indexed dims (what `x[...]` would read).
  std::vector<const Expr*> reduced;
  for (size_t d = 0; d < rank; ++d) {
    bool dropped = d < ix.size() && ix[d];
    if (!dropped) reduced.push_back(reg.shape[d]);
  }
  const std::vector<const Expr*>& vshape = vtile ? vtile->shape : vtensor->shape;
  auto matches = [&](const std::vector<const Expr*>& want) {
    if (want.size() != vshape.size()) return false;
    for (size_t k = 0; k < want.size(); ++k) {
      auto* a = As<ConstInt>(want[k]);
      auto* b = As<ConstInt>(vshape[k]);
      if (a && b ? a->value != b->value : !ExprEq(want[k], vshape[k])) return false;
    }
    return true;
  };
  bool full = matches(reg.shape);
  if (!full && !matches(reduced)) {
    Error(s->value->span,
          fmt::format("assignment to the region {} of '{}': the value has shape {}; it must "
                      "have the region's shape{}",
                      DimsStr(reg.shape), name->str, DimsStr(vshape),
                      reduced.size() != reg.shape.size() ? " (or " + DimsStr(reduced) + ")" : ""));
    return;
  }
  if (vtile) {
    std::vector<const Expr*> args = {value, offsets, base};
    std::vector<Span> spans = {val_span, idx_span, base_span};
    if (!full) {
      args.push_back(tuple_of(reg.shape));
      spans.push_back(idx_span);
    }
    bind("tile.store", std::move(args), std::move(spans));
    return;
  }
  if (!full) {  // reshape the value to the full-rank region
    const OpDef* view = FindOpOrReport("pl.tensor.view", s->span);
    if (!view) return;
    value = MakeOpCall(ctx_, *view, {value, tuple_of(reg.shape)}, {}, {}, s->value->span, diag_,
                       {val_span, idx_span});
    if (!value) return;
  }
  bind("tensor.assemble", {base, value, offsets}, {base_span, val_span, idx_span});
}

}  // namespace pypto::ir::parser
