// FoldIntExpr (see include/pypto/ir/int_expr_fold.h).
#include "pypto/ir/int_expr_fold.h"

#include "pypto/ir/casting.h"
#include "pypto/ir/type.h"

namespace pypto::ir {

std::optional<IntFoldOp> IntFoldOpOf(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return IntFoldOp::kAdd;
    case BinaryOp::kSub:
      return IntFoldOp::kSub;
    case BinaryOp::kMul:
      return IntFoldOp::kMul;
    case BinaryOp::kFloorDiv:
      return IntFoldOp::kFloorDiv;
    case BinaryOp::kFloorMod:
      return IntFoldOp::kFloorMod;
    case BinaryOp::kPow:
      return IntFoldOp::kPow;
    case BinaryOp::kMin:
      return IntFoldOp::kMin;
    case BinaryOp::kMax:
      return IntFoldOp::kMax;
    case BinaryOp::kBitAnd:
      return IntFoldOp::kBitAnd;
    case BinaryOp::kBitOr:
      return IntFoldOp::kBitOr;
    case BinaryOp::kBitXor:
      return IntFoldOp::kBitXor;
    case BinaryOp::kShl:
      return IntFoldOp::kShl;
    case BinaryOp::kShr:
      return IntFoldOp::kShr;
    default:
      return std::nullopt;
  }
}

namespace {

// Parser-built trees are at most 1000 operations deep; deeper (builder-made)
// trees are treated as not constant rather than risking the stack.
constexpr int kMaxFoldDepth = 2048;

const IntExprFold kNotConstant{IntFold::Fail(IntFoldError::kNone), nullptr};

std::optional<DataType> IntegerDType(const Expr* e) {
  const auto* st = As<ScalarType>(e->type);
  if (!st || !IsInteger(st->dtype)) return std::nullopt;
  return st->dtype;
}

bool FitsDType(int64_t v, DataType dt) {
  return IntFitsBits(v, DTypeBytes(dt) * 8, IsSignedInt(dt));
}

IntExprFold Fold(const Expr* e, int depth) {
  if (!e) return kNotConstant;
  if (const auto* c = As<ConstInt>(e)) return {IntFold::Ok(c->value), e};
  if (depth > kMaxFoldDepth) return kNotConstant;
  if (const auto* b = As<BinaryExpr>(e)) {
    auto dt = IntegerDType(e);
    auto op = IntFoldOpOf(b->op);
    if (!dt || !op) return kNotConstant;
    IntExprFold l = Fold(b->lhs, depth + 1);
    if (!l.constant()) return l;
    IntExprFold r = Fold(b->rhs, depth + 1);
    if (!r.constant()) return r;
    IntFold f = FoldIntBinary(*op, *l.fold.value, *r.fold.value);
    if (f.ok() && !FitsDType(*f.value, *dt)) f = IntFold::Fail(IntFoldError::kOverflow);
    return {f, e};
  }
  if (const auto* u = As<UnaryExpr>(e)) {
    auto dt = IntegerDType(e);
    if (!dt) return kNotConstant;
    IntExprFold x = Fold(u->operand, depth + 1);
    if (!x.constant()) return x;
    int64_t v = *x.fold.value;
    IntFold f;
    switch (u->op) {
      case UnaryOp::kNeg:
        f = FoldIntNeg(v);
        break;
      case UnaryOp::kAbs:
        f = FoldIntAbs(v);
        break;
      case UnaryOp::kBitNot:
        f = FoldIntBitNot(v);
        break;
      case UnaryOp::kCast:  // a narrowing cast that changes the value is not folded
        return FitsDType(v, *dt) ? IntExprFold{IntFold::Ok(v), e} : kNotConstant;
      default:
        return kNotConstant;
    }
    if (f.ok() && !FitsDType(*f.value, *dt)) f = IntFold::Fail(IntFoldError::kOverflow);
    return {f, e};
  }
  return kNotConstant;
}

}  // namespace

IntExprFold FoldIntExpr(const Expr* e) { return Fold(e, 0); }

}  // namespace pypto::ir
