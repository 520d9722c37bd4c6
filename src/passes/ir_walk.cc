// Read-only IR traversal helpers (see ir_walk.h). The per-node child lists
// come from node_kinds.def through pypto/ir/node_walk.h.
#include "ir_walk.h"

#include "pypto/ir/node_walk.h"

namespace pypto::passes::walk {

using namespace ir;

void ForEachStmt(const Stmt* s, const std::function<void(const Stmt*)>& f) {
  if (!s) return;
  f(s);
  ir::ForEachChildStmt(s, [&](const Stmt* c) { ForEachStmt(c, f); });
}

void ForEachExprInType(const Type* t, const std::function<void(const Expr*)>& f) {
  if (!t) return;
  ir::ForEachTypeChild(
      t, [&](const Expr* d) { ForEachExpr(d, f); },
      [&](const Type* e) { ForEachExprInType(e, f); });
}

void ForEachExpr(const Expr* e, const std::function<void(const Expr*)>& f, bool types) {
  if (!e) return;
  f(e);
  if (AsVarLike(e)) {
    if (types) ForEachExprInType(e->type, f);
    return;
  }
  ir::ForEachChildExpr(
      e, [&](const Expr* c) { ForEachExpr(c, f, types); },
      [&](const Type* t) {
        if (types) ForEachExprInType(t, f);
      });
}

void ForEachOwnExpr(const Stmt* s, const std::function<void(const Expr*)>& f) {
  ir::ForEachOwnExpr(s, f);
}

void ForEachOwnDef(const Stmt* s, const std::function<void(const Var*)>& f) {
  ir::ForEachOwnDef(s, f);
}

void ForEachCall(const Stmt* body, const std::function<void(const Call*, const Stmt*)>& f) {
  ForEachStmt(body, [&](const Stmt* s) {
    ForEachOwnExpr(s, [&](const Expr* root) {
      ForEachExpr(root, [&](const Expr* e) {
        if (auto* c = As<Call>(e)) f(c, s);
      });
    });
  });
}

}  // namespace pypto::passes::walk
