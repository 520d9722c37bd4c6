// Private read-only traversal helpers for the passes layer: visit every
// statement / expression (including expressions inside types: shapes, valid
// shapes, strides) of a function in program order. Kept tiny and allocation-free
// so property detectors and analyses can run after every pass.
#pragma once

#include <functional>

#include "pypto/ir/casting.h"
#include "pypto/ir/function.h"

namespace pypto::passes::walk {

// Calls f(stmt) for `s` and every nested statement, pre-order.
void ForEachStmt(const ir::Stmt* s, const std::function<void(const ir::Stmt*)>& f);

// Calls f(expr) for every expression reachable from `e` (pre-order, including
// sub-expressions, IterArg inits and expressions inside the type of each Var /
// Call result when `types` is set).
void ForEachExpr(const ir::Expr* e, const std::function<void(const ir::Expr*)>& f,
                 bool types = false);
void ForEachExprInType(const ir::Type* t, const std::function<void(const ir::Expr*)>& f);

// Every expression directly owned by statement `s` (not by nested statements):
// assignment values, conditions, loop bounds, iter-arg inits, yields, returns,
// scope expressions, Exprs inside the statement's attrs (nested lists too).
void ForEachOwnExpr(const ir::Stmt* s, const std::function<void(const ir::Expr*)>& f);

// Every Var bound by statement `s` itself (assign LHS, loop var, iter args,
// return vars, split-aiv var).
void ForEachOwnDef(const ir::Stmt* s, const std::function<void(const ir::Var*)>& f);

// Every Call in the function body (pre-order), with the statement owning it.
void ForEachCall(const ir::Stmt* body,
                 const std::function<void(const ir::Call*, const ir::Stmt*)>& f);

}  // namespace pypto::passes::walk
