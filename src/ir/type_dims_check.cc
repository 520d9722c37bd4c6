// CheckTypeDims (see include/pypto/ir/type_dims_check.h).
#include "pypto/ir/type_dims_check.h"

#include <fmt/format.h>

#include "pypto/core/checked_int.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/int_expr_fold.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"

namespace pypto::ir {

namespace {

enum class DimRule { kPositive, kNonNegative, kAny };

// " (written 1 - 1)" when the dim is arithmetic, so the user sees both.
std::string Written(const Expr* d) {
  if (Isa<ConstInt>(d)) return "";
  return fmt::format(" (written {})", PrintExpr(d));
}

// From the leftmost to the rightmost leaf of `e` (a BinaryExpr's own span is
// its operator), so the caret underlines the whole dim.
Span WholeSpan(const Expr* e) {
  const Expr* l = e;
  while (const auto* b = As<BinaryExpr>(l)) l = b->lhs;
  const Expr* r = e;
  for (;;) {
    if (const auto* b = As<BinaryExpr>(r))
      r = b->rhs;
    else if (const auto* u = As<UnaryExpr>(r))
      r = u->operand;
    else
      break;
  }
  Span s = l->span.IsKnown() ? l->span : e->span;
  if (r->span.IsKnown() && r->span.file == s.file && r->span.line == s.line &&
      r->span.col + r->span.length > s.col)
    s.length = r->span.col + r->span.length - s.col;
  return s;
}

int CheckList(const std::vector<const Expr*>& dims, const char* what, const Type* t, DimRule rule,
              const std::function<void(Span, std::string)>& report) {
  int n = 0;
  for (size_t k = 0; k < dims.size(); ++k) {
    const Expr* d = dims[k];
    if (!d) continue;
    std::string where = fmt::format("{} {} of {}", what, k, TypeStr(t));
    auto dt = ScalarDType(d);
    if (!dt || !IsInteger(*dt)) {
      report(WholeSpan(d), fmt::format("{} is {}, a {} value; dimensions must be integers", where,
                                       DimStr(d), dt ? DTypeStr(*dt) : TypeStr(d->type)));
      ++n;
      continue;
    }
    IntExprFold f = FoldIntExpr(d);
    if (f.failed()) {
      report(WholeSpan(f.at ? f.at : d),
             fmt::format("{}: {} in {}", where, IntFoldErrorText(f.fold.error),
                         PrintExpr(f.at ? f.at : d)));
      ++n;
      continue;
    }
    if (!f.constant()) continue;
    int64_t v = *f.fold.value;
    if (rule == DimRule::kPositive && v <= 0) {
      report(WholeSpan(d),
             fmt::format("{} is {}{}; static dimensions must be positive", where, v, Written(d)));
      ++n;
    } else if (rule == DimRule::kNonNegative && v < 0) {
      report(WholeSpan(d),
             fmt::format("{} is {}{}; valid extents must not be negative", where, v, Written(d)));
      ++n;
    }
  }
  return n;
}

// A shape whose static dims are all known must have a byte size that fits in
// int64 (lowerings and the executor compute element offsets and byte sizes).
int CheckSize(const std::vector<const Expr*>& shape, DataType dt, const Type* t,
              const std::function<void(Span, std::string)>& report) {
  std::vector<int64_t> dims;
  for (const Expr* d : shape) {
    auto v = d ? StaticInt(d) : std::nullopt;
    if (!v || *v <= 0) return 0;  // dynamic, or reported as a bad dim
    dims.push_back(*v);
  }
  if (dims.empty() || CheckedProduct(dims, DTypeBytes(dt))) return 0;
  report(WholeSpan(shape.front()),
         fmt::format("the size of {} overflows: its {} bytes per element times the product of "
                     "its dimensions do not fit in a 64-bit integer",
                     TypeStr(t), DTypeBytes(dt)));
  return 1;
}

}  // namespace

int CheckTypeDims(const Type* t, const std::function<void(Span, std::string)>& report) {
  if (!t) return 0;
  if (const auto* tt = AsTensorTypeLike(t)) {
    int n = CheckList(tt->shape, "dimension", t, DimRule::kPositive, report);
    if (!n) n = CheckSize(tt->shape, tt->dtype, t, report);
    if (tt->view) {
      n += CheckList(tt->view->stride, "stride", t, DimRule::kAny, report);
      n += CheckList(tt->view->valid_shape, "valid_shape dimension", t, DimRule::kNonNegative,
                     report);
    }
    return n;
  }
  if (const auto* tl = As<TileType>(t)) {
    int n = CheckList(tl->shape, "dimension", t, DimRule::kPositive, report);
    if (!n) n = CheckSize(tl->shape, tl->dtype, t, report);
    if (tl->view)
      n += CheckList(tl->view->valid_shape, "valid_shape dimension", t, DimRule::kNonNegative,
                     report);
    return n;
  }
  if (const auto* tu = As<TupleType>(t)) {
    int n = 0;
    for (const Type* x : tu->types) n += CheckTypeDims(x, report);
    return n;
  }
  return 0;
}

}  // namespace pypto::ir
