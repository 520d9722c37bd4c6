// IRVisitor: read-only traversal of IR with one overridable hook per node kind.
//
// Dispatch is generated from node_kinds.def: VisitExpr/VisitStmt/VisitType switch
// on the node's kind and call `Visit_<Kind>(const <Kind>*)`. Every default hook
// recurses into the node's children in evaluation order, so an analysis overrides
// only the kinds it cares about and calls the base hook to keep descending.
//
// Binding sites (function params, AssignStmt LHS, loop vars, iter args, return
// vars, the split_aiv index) are NOT visited as expressions: they go to
// VisitVarDef, so Visit_Var / Visit_IterArg see only *uses*. An IterArg's `init`
// is visited (as a use) by its For/While before the loop's definitions.
//
// Types are not walked unless `visit_types_` is set; then the types of binding
// sites, Call results and function return types are visited, and the default type
// hooks descend into shape / view expressions (symbolic dims are uses).
#pragma once

#include "pypto/ir/function.h"
#include "pypto/ir/program.h"
#include "pypto/ir/stmt.h"

namespace pypto::ir {

class IRVisitor {
 public:
  virtual ~IRVisitor() = default;

  virtual void VisitProgram(const Program& p) {
    for (const Function* f : p.functions) VisitFunction(*f);
  }
  virtual void VisitFunction(const Function& f) {
    for (const Var* v : f.params) VisitVarDef(v);
    if (visit_types_)
      for (const Type* t : f.return_types) VisitType(t);
    VisitStmt(f.body);
  }

  // Dispatchers; null is ignored (If without else, optional fields).
  virtual void VisitExpr(const Expr* e) {
    if (!e) return;
    switch (e->kind) {
#define PYPTO_EXPR(N)                    \
  case NodeKind::k##N:                   \
    Visit_##N(static_cast<const N*>(e)); \
    break;
#include "pypto/ir/node_kinds.def"
      default:
        break;
    }
  }
  virtual void VisitStmt(const Stmt* s) {
    if (!s) return;
    switch (s->kind) {
#define PYPTO_STMT(N)                    \
  case NodeKind::k##N:                   \
    Visit_##N(static_cast<const N*>(s)); \
    break;
#include "pypto/ir/node_kinds.def"
      default:
        break;
    }
  }
  virtual void VisitType(const Type* t) {
    if (!t) return;
    switch (t->kind) {
#define PYPTO_TYPE(N)                    \
  case NodeKind::k##N:                   \
    Visit_##N(static_cast<const N*>(t)); \
    break;
#include "pypto/ir/node_kinds.def"
      default:
        break;
    }
  }

  // A binding occurrence of `v` (Var or IterArg).
  virtual void VisitVarDef(const Var* v) {
    if (visit_types_) VisitType(v->type);
  }

  // ---- expressions (uses) ----
  virtual void Visit_Var(const Var*) {}
  virtual void Visit_IterArg(const IterArg*) {}
  virtual void Visit_ConstInt(const ConstInt*) {}
  virtual void Visit_ConstFloat(const ConstFloat*) {}
  virtual void Visit_ConstBool(const ConstBool*) {}
  virtual void Visit_BinaryExpr(const BinaryExpr* e) {
    VisitExpr(e->lhs);
    VisitExpr(e->rhs);
  }
  virtual void Visit_UnaryExpr(const UnaryExpr* e) { VisitExpr(e->operand); }
  virtual void Visit_Call(const Call* c) {
    for (const Expr* a : c->args) VisitExpr(a);
    for (const NamedAttr& a : c->kwargs) VisitAttr(a.value);
    for (const NamedAttr& a : c->attrs) VisitAttr(a.value);
    if (visit_types_) VisitType(c->type);
  }
  virtual void Visit_MakeTuple(const MakeTuple* e) {
    for (const Expr* x : e->elements) VisitExpr(x);
  }
  virtual void Visit_TupleGetItem(const TupleGetItem* e) { VisitExpr(e->tuple); }

  // Expressions stored inside kwarg/attr values (Attr::Kind::kExpr, also in lists).
  virtual void VisitAttr(const Attr& a) {
    if (a.kind == Attr::Kind::kExpr) VisitExpr(a.expr);
    for (const Attr& x : a.list) VisitAttr(x);
  }

  // ---- statements ----
  virtual void Visit_AssignStmt(const AssignStmt* s) {
    VisitExpr(s->value);
    VisitVarDef(s->var);
  }
  virtual void Visit_EvalStmt(const EvalStmt* s) { VisitExpr(s->expr); }
  virtual void Visit_ReturnStmt(const ReturnStmt* s) {
    for (const Expr* v : s->values) VisitExpr(v);
  }
  virtual void Visit_YieldStmt(const YieldStmt* s) {
    for (const Expr* v : s->values) VisitExpr(v);
  }
  virtual void Visit_IfStmt(const IfStmt* s) {
    VisitExpr(s->cond);
    VisitStmt(s->then_body);
    VisitStmt(s->else_body);
    for (const Var* v : s->return_vars) VisitVarDef(v);
  }
  virtual void Visit_ForStmt(const ForStmt* s) {
    VisitExpr(s->start);
    VisitExpr(s->stop);
    VisitExpr(s->step);
    for (const IterArg* ia : s->iter_args) VisitExpr(ia->init);
    for (const NamedAttr& a : s->attrs) VisitAttr(a.value);
    VisitVarDef(s->loop_var);
    for (const IterArg* ia : s->iter_args) VisitVarDef(ia);
    VisitStmt(s->body);
    for (const Var* v : s->return_vars) VisitVarDef(v);
  }
  virtual void Visit_WhileStmt(const WhileStmt* s) {
    for (const IterArg* ia : s->iter_args) VisitExpr(ia->init);
    for (const IterArg* ia : s->iter_args) VisitVarDef(ia);
    VisitExpr(s->cond);
    VisitStmt(s->body);
    for (const Var* v : s->return_vars) VisitVarDef(v);
  }
  virtual void Visit_SeqStmt(const SeqStmt* s) {
    for (const Stmt* x : s->stmts) VisitStmt(x);
  }
  virtual void Visit_BreakStmt(const BreakStmt*) {}
  virtual void Visit_ContinueStmt(const ContinueStmt*) {}
  virtual void Visit_InCoreScopeStmt(const InCoreScopeStmt* s) { VisitScope(s); }
  virtual void Visit_HierarchyScopeStmt(const HierarchyScopeStmt* s) { VisitScope(s); }
  virtual void Visit_SpmdScopeStmt(const SpmdScopeStmt* s) {
    VisitExpr(s->core_num);
    VisitScope(s);
  }
  virtual void Visit_SplitAivScopeStmt(const SplitAivScopeStmt* s) {
    VisitVarDef(s->var);
    VisitScope(s);
  }
  virtual void Visit_CommDomainScopeStmt(const CommDomainScopeStmt* s) { VisitScope(s); }
  virtual void Visit_ManualScopeStmt(const ManualScopeStmt* s) { VisitScope(s); }
  // Shared tail of every scope: its attrs, then its body.
  virtual void VisitScope(const ScopeStmt* s) {
    for (const NamedAttr& a : s->attrs) VisitAttr(a.value);
    VisitStmt(s->body);
  }

  // ---- types (reached only through VisitType) ----
  virtual void Visit_UnknownType(const UnknownType*) {}
  virtual void Visit_ScalarType(const ScalarType*) {}
  virtual void Visit_TensorType(const TensorType* t) { VisitTensorLike(t); }
  virtual void Visit_DistributedTensorType(const DistributedTensorType* t) { VisitTensorLike(t); }
  virtual void Visit_TileType(const TileType* t) {
    for (const Expr* d : t->shape) VisitExpr(d);
    if (t->view)
      for (const Expr* d : t->view->valid_shape) VisitExpr(d);
  }
  virtual void Visit_TupleType(const TupleType* t) {
    for (const Type* x : t->types) VisitType(x);
  }
  virtual void Visit_ArrayType(const ArrayType*) {}
  virtual void Visit_PtrType(const PtrType*) {}
  virtual void Visit_CommCtxType(const CommCtxType*) {}
  virtual void Visit_WindowBufferType(const WindowBufferType*) {}
  void VisitTensorLike(const TensorType* t) {
    for (const Expr* d : t->shape) VisitExpr(d);
    if (t->view) {
      for (const Expr* d : t->view->stride) VisitExpr(d);
      for (const Expr* d : t->view->valid_shape) VisitExpr(d);
    }
  }

 protected:
  bool visit_types_ = false;
};

}  // namespace pypto::ir
