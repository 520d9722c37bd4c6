// Read-only IR traversal helpers (see ir_walk.h).
#include "ir_walk.h"

namespace pypto::passes::walk {

using namespace ir;

void ForEachStmt(const Stmt* s, const std::function<void(const Stmt*)>& f) {
  if (!s) return;
  f(s);
  switch (s->kind) {
    case NodeKind::kSeqStmt:
      for (const Stmt* c : Cast<SeqStmt>(s)->stmts) ForEachStmt(c, f);
      break;
    case NodeKind::kIfStmt: {
      auto* i = Cast<IfStmt>(s);
      ForEachStmt(i->then_body, f);
      ForEachStmt(i->else_body, f);
      break;
    }
    case NodeKind::kForStmt:
      ForEachStmt(Cast<ForStmt>(s)->body, f);
      break;
    case NodeKind::kWhileStmt:
      ForEachStmt(Cast<WhileStmt>(s)->body, f);
      break;
    default:
      if (auto* sc = As<ScopeStmt>(s)) ForEachStmt(sc->body, f);
      break;
  }
}

void ForEachExprInType(const Type* t, const std::function<void(const Expr*)>& f) {
  if (!t) return;
  if (auto* tt = AsTensorTypeLike(t)) {
    for (const Expr* d : tt->shape) ForEachExpr(d, f);
    if (tt->view) {
      for (const Expr* d : tt->view->stride) ForEachExpr(d, f);
      for (const Expr* d : tt->view->valid_shape) ForEachExpr(d, f);
    }
  } else if (auto* tl = As<TileType>(t)) {
    for (const Expr* d : tl->shape) ForEachExpr(d, f);
    if (tl->view)
      for (const Expr* d : tl->view->valid_shape) ForEachExpr(d, f);
  } else if (auto* tu = As<TupleType>(t)) {
    for (const Type* e : tu->types) ForEachExprInType(e, f);
  }
}

static void VisitAttrExprs(const AttrList& l, const std::function<void(const Expr*)>& f,
                           bool types);
static void VisitAttr(const Attr& a, const std::function<void(const Expr*)>& f, bool types) {
  if (a.kind == Attr::Kind::kExpr && a.expr) ForEachExpr(a.expr, f, types);
  for (const Attr& x : a.list) VisitAttr(x, f, types);
}
static void VisitAttrExprs(const AttrList& l, const std::function<void(const Expr*)>& f,
                           bool types) {
  for (const auto& na : l) VisitAttr(na.value, f, types);
}

void ForEachExpr(const Expr* e, const std::function<void(const Expr*)>& f, bool types) {
  if (!e) return;
  f(e);
  switch (e->kind) {
    case NodeKind::kVar:
      if (types) ForEachExprInType(e->type, f);
      break;
    case NodeKind::kIterArg:
      if (types) ForEachExprInType(e->type, f);
      break;
    case NodeKind::kBinaryExpr: {
      auto* b = Cast<BinaryExpr>(e);
      ForEachExpr(b->lhs, f, types);
      ForEachExpr(b->rhs, f, types);
      break;
    }
    case NodeKind::kUnaryExpr:
      ForEachExpr(Cast<UnaryExpr>(e)->operand, f, types);
      break;
    case NodeKind::kCall: {
      auto* c = Cast<Call>(e);
      for (const Expr* a : c->args) ForEachExpr(a, f, types);
      VisitAttrExprs(c->kwargs, f, types);
      VisitAttrExprs(c->attrs, f, types);
      if (types) ForEachExprInType(c->type, f);
      break;
    }
    case NodeKind::kMakeTuple:
      for (const Expr* a : Cast<MakeTuple>(e)->elements) ForEachExpr(a, f, types);
      break;
    case NodeKind::kTupleGetItem:
      ForEachExpr(Cast<TupleGetItem>(e)->tuple, f, types);
      break;
    default:
      break;
  }
}

void ForEachOwnExpr(const Stmt* s, const std::function<void(const Expr*)>& f) {
  switch (s->kind) {
    case NodeKind::kAssignStmt:
      f(Cast<AssignStmt>(s)->value);
      break;
    case NodeKind::kEvalStmt:
      f(Cast<EvalStmt>(s)->expr);
      break;
    case NodeKind::kReturnStmt:
      for (const Expr* v : Cast<ReturnStmt>(s)->values) f(v);
      break;
    case NodeKind::kYieldStmt:
      for (const Expr* v : Cast<YieldStmt>(s)->values) f(v);
      break;
    case NodeKind::kIfStmt:
      f(Cast<IfStmt>(s)->cond);
      break;
    case NodeKind::kForStmt: {
      auto* fo = Cast<ForStmt>(s);
      f(fo->start);
      f(fo->stop);
      f(fo->step);
      for (const IterArg* ia : fo->iter_args) f(ia->init);
      for (const auto& na : fo->attrs)
        if (na.value.kind == Attr::Kind::kExpr && na.value.expr) f(na.value.expr);
      break;
    }
    case NodeKind::kWhileStmt: {
      auto* w = Cast<WhileStmt>(s);
      f(w->cond);
      for (const IterArg* ia : w->iter_args) f(ia->init);
      break;
    }
    case NodeKind::kSpmdScopeStmt:
      f(Cast<SpmdScopeStmt>(s)->core_num);
      break;
    default:
      break;
  }
  if (auto* sc = As<ScopeStmt>(s))
    for (const auto& na : sc->attrs)
      if (na.value.kind == Attr::Kind::kExpr && na.value.expr) f(na.value.expr);
}

void ForEachOwnDef(const Stmt* s, const std::function<void(const Var*)>& f) {
  switch (s->kind) {
    case NodeKind::kAssignStmt:
      f(Cast<AssignStmt>(s)->var);
      break;
    case NodeKind::kIfStmt:
      for (const Var* v : Cast<IfStmt>(s)->return_vars) f(v);
      break;
    case NodeKind::kForStmt: {
      auto* fo = Cast<ForStmt>(s);
      f(fo->loop_var);
      for (const IterArg* ia : fo->iter_args) f(ia);
      for (const Var* v : fo->return_vars) f(v);
      break;
    }
    case NodeKind::kWhileStmt: {
      auto* w = Cast<WhileStmt>(s);
      for (const IterArg* ia : w->iter_args) f(ia);
      for (const Var* v : w->return_vars) f(v);
      break;
    }
    case NodeKind::kSplitAivScopeStmt:
      if (auto* v = Cast<SplitAivScopeStmt>(s)->var) f(v);
      break;
    default:
      break;
  }
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
