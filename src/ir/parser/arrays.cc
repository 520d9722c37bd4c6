// Element access on kernel-local arrays (pl.Array, see src/ops/array_ops.cc),
// written as Python subscripts in upstream's DSL:
//   v = a[i]     ->  v = pl.array.get_element(a, i)
//   a[i] = v     ->  a = pl.array.update_element(a, i, v)
// The write rebinds the array's name (functional update; before ConvertToSSA a
// re-assignment of the same type reuses the Var, so loops carry the array like
// any other value). An integer literal value takes the array's dtype, so
// `a[i] = 0` prints as `pl.const(0, pl.INT32)` for an INT32 array.
#include <fmt/format.h>

#include "lower.h"
#include "pypto/ir/op_utils.h"

namespace pypto::ir::parser {

namespace {

constexpr const char* kOneIndex = "a pl.Array subscript takes exactly one integer index, e.g. a[i]";

// The single index of an array subscript, or null when it has several or a slice.
const PyExpr* SingleIndex(const PyExpr* sub) {
  const PyExpr* b = sub->b;
  if ((b->kind == EK::kTuple && !b->parenthesized) || b->kind == EK::kSlice) return nullptr;
  return b;
}

}  // namespace

const Expr* Lowerer::LowerArrayElement(const Expr* base, const PyExpr* e) {
  const PyExpr* ix = SingleIndex(e);
  if (!ix) {
    Error(e->b->span, kOneIndex);
    return nullptr;
  }
  const Expr* i = LowerScalar(ix, "index");
  if (!i) return nullptr;
  const OpDef* op = OpRegistry::Global().Find("array.get_element");
  return MakeOpCall(ctx_, *op, {base, i}, {}, {}, e->span, diag_, {UseSpan(e->a), UseSpan(ix)});
}

bool Lowerer::LowerArrayElementAssign(const PyStmt* s, std::vector<const Stmt*>* out) {
  const PyExpr* t = s->target;
  if (t->a->kind != EK::kName) return false;
  const Var* arr = LookupVar(t->a->str);
  if (!arr || !Isa<ArrayType>(arr->type)) return false;
  const PyExpr* ix = SingleIndex(t);
  if (!ix) {
    Error(t->b->span, kOneIndex);
    return true;
  }
  const Expr* i = LowerScalar(ix, "index");
  const Expr* v = LowerExpr(s->value);
  if (!i || !v) return true;
  DataType dt = Cast<ArrayType>(arr->type)->dtype;
  if (const auto* c = As<ConstInt>(v); c && c->dtype() == DataType::kIndex && dt != DataType::kBool)
    v = ctx_.Int(c->value, dt, c->span);
  const OpDef* op = OpRegistry::Global().Find("array.update_element");
  const Call* call = MakeOpCall(ctx_, *op, {arr, i, v}, {}, {}, t->span, diag_,
                                {UseSpan(t->a), UseSpan(ix), UseSpan(s->value)});
  if (!call) return true;
  BindAssign(t->a->str, t->a->span, nullptr, call, s->span, out);
  return true;
}

}  // namespace pypto::ir::parser
