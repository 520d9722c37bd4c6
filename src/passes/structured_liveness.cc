// Structured backward liveness (see structured_liveness.h).
#include "structured_liveness.h"

#include "ir_walk.h"

namespace pypto::passes {

using namespace ir;

namespace {

// Adds every Var read by the statement's own expressions (types included).
void AddUses(const Stmt* s, std::unordered_set<const Var*>& live) {
  walk::ForEachOwnExpr(s, [&](const Expr* root) {
    walk::ForEachExpr(
        root,
        [&](const Expr* e) {
          if (const Var* v = AsVarLike(e)) live.insert(v);
        },
        /*types=*/true);
  });
}

void AddTypeUses(const Type* t, std::unordered_set<const Var*>& live) {
  walk::ForEachExprInType(t, [&](const Expr* e) {
    walk::ForEachExpr(
        e,
        [&](const Expr* x) {
          if (const Var* v = AsVarLike(x)) live.insert(v);
        },
        /*types=*/true);
  });
}

}  // namespace

StructuredLiveness::StructuredLiveness(const Stmt* body, const std::vector<const Var*>& exit_live)
    : exit_(exit_live.begin(), exit_live.end()) {
  VarSet live = exit_;
  VarSet none;
  Live(body, live, &none, &none, /*record=*/true);
}

bool StructuredLiveness::LiveAt(const Stmt* s, const Var* v) const {
  auto it = at_.find(s);
  return it != at_.end() && it->second.count(v) > 0;
}

void StructuredLiveness::Record(const Stmt* s, const VarSet& live, const Stmt* b1, const Stmt* b2) {
  VarSet& out = at_[s];
  for (const Stmt* b : {b1, b2})
    walk::ForEachStmt(b, [&](const Stmt* x) {
      if (auto* a = As<AssignStmt>(x); a && live.count(a->var)) out.insert(a->var);
    });
}

const StructuredLiveness::VarSet& StructuredLiveness::Upward(const Stmt* loop) {
  auto it = upward_.find(loop);
  if (it != upward_.end()) return it->second;
  VarSet u, none;
  if (auto* f = As<ForStmt>(loop)) {
    Live(f->body, u, &none, &none, /*record=*/false);
    u.erase(f->loop_var);
    for (const IterArg* ia : f->iter_args) u.erase(ia);
  } else {
    auto* w = Cast<WhileStmt>(loop);
    Live(w->body, u, &none, &none, /*record=*/false);
    // The condition is evaluated at the head of every iteration.
    walk::ForEachExpr(
        w->cond,
        [&](const Expr* e) {
          if (const Var* v = AsVarLike(e)) u.insert(v);
        },
        /*types=*/true);
    for (const IterArg* ia : w->iter_args) u.erase(ia);
  }
  return upward_[loop] = std::move(u);
}

void StructuredLiveness::Live(const Stmt* s, VarSet& live, const VarSet* brk, const VarSet* cont,
                              bool record) {
  if (!s) return;
  switch (s->kind) {
    case NodeKind::kSeqStmt: {
      const auto& st = Cast<SeqStmt>(s)->stmts;
      for (size_t i = st.size(); i-- > 0;) Live(st[i], live, brk, cont, record);
      return;
    }
    case NodeKind::kAssignStmt: {
      auto* a = Cast<AssignStmt>(s);
      live.erase(a->var);
      AddTypeUses(a->var->type, live);
      AddUses(s, live);
      return;
    }
    case NodeKind::kReturnStmt:
      live = exit_;
      AddUses(s, live);
      return;
    case NodeKind::kBreakStmt:
      live = *brk;
      return;
    case NodeKind::kContinueStmt:
      live = *cont;
      return;
    case NodeKind::kIfStmt: {
      auto* i = Cast<IfStmt>(s);
      for (const Var* rv : i->return_vars) live.erase(rv);
      if (record) Record(s, live, i->then_body, i->else_body);
      VarSet other = live;
      Live(i->then_body, live, brk, cont, record);
      Live(i->else_body, other, brk, cont, record);
      live.insert(other.begin(), other.end());
      AddUses(s, live);
      return;
    }
    case NodeKind::kForStmt:
    case NodeKind::kWhileStmt: {
      auto* f = As<ForStmt>(s);
      auto* w = As<WhileStmt>(s);
      const auto& rvs = f ? f->return_vars : w->return_vars;
      const Stmt* body = f ? f->body : w->body;
      for (const Var* rv : rvs) live.erase(rv);
      VarSet after = live;  // live after the loop (a break's target)
      const VarSet& up = Upward(s);
      live.insert(up.begin(), up.end());  // now: live at the loop head
      if (record) {
        Record(s, live, body, nullptr);
        VarSet head = live;
        Live(body, head, &after, &live, /*record=*/true);
      }
      AddUses(s, live);
      return;
    }
    default:
      if (auto* sc = As<ScopeStmt>(s)) {
        Live(sc->body, live, brk, cont, record);
        walk::ForEachOwnDef(s, [&](const Var* v) { live.erase(v); });
        AddUses(s, live);
        return;
      }
      // EvalStmt, YieldStmt: reads only.
      AddUses(s, live);
      return;
  }
}

}  // namespace pypto::passes
