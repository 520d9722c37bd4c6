// The static value of an integer expression tree: ConstInt leaves combined by
// integer BinaryExprs (+ - * // % ** min max & | ^ << >>) and UnaryExprs (-,
// abs, ~, a cast to an integer dtype that keeps the value), folded with the
// checked Python-semantics arithmetic of pypto/core/int_fold.h. StaticInt (and
// so every deducer check of a dim, offset or extent), the verifier and
// `simplify` see `1 - 1`, `~2` and `2 + 2` as the values 0, -3 and 4, so a
// value that folds out of range is a diagnostic wherever it is checked, never an
// internal error after a pass folds it. A fold that fails (overflow, // 0, a
// negative shift count or exponent) says why and where.
#pragma once

#include <optional>

#include "pypto/core/int_fold.h"
#include "pypto/ir/expr.h"

namespace pypto::ir {

struct IntExprFold {
  // value set: the tree is constant and folds to it. Otherwise error == kNone
  // means "not a constant" (a Var, a call, a float, ...); any other error means
  // the constant tree cannot be folded and `at` is the innermost node whose
  // operands fold but which does not (its span is where to report it).
  IntFold fold;
  const Expr* at = nullptr;
  bool constant() const { return fold.ok(); }
  bool failed() const { return !fold.ok() && fold.error != IntFoldError::kNone; }
};

// Folds `e` (see the file comment). Integer results must also fit the node's
// dtype (INT8 ... INT32, UINT*): 2147483647 + 1 typed INT32 is an overflow.
IntExprFold FoldIntExpr(const Expr* e);

// The IntFoldOp of an integer BinaryOp; nullopt for true division, comparisons
// and logic.
std::optional<IntFoldOp> IntFoldOpOf(BinaryOp op);

}  // namespace pypto::ir
