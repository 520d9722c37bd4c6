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
// hooks descend into shape / view expressions (symbolic dims are uses) and a
// tuple's element types, all generated from node_kinds.def.
#pragma once

#include "pypto/ir/function.h"
#include "pypto/ir/node_fields.h"
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
#define PYPTO_EXPR(N, ...)               \
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
#define PYPTO_STMT(N, ...)               \
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
#define PYPTO_TYPE(N, ...)               \
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

  // Expressions stored inside kwarg/attr values (Attr::Kind::kExpr, also in lists).
  virtual void VisitAttr(const Attr& a) {
    if (a.kind == Attr::Kind::kExpr) VisitExpr(a.expr);
    for (const Attr& x : a.list) VisitAttr(x);
  }

  // ---- expressions (uses) and statements: defaults generated from the field
  // lists of node_kinds.def (VisitChildren, below) ----
#define PYPTO_EXPR(N, ...) \
  virtual void Visit_##N(const N* e) { VisitChildren(e); }
#define PYPTO_STMT(N, ...) \
  virtual void Visit_##N(const N* s) { VisitChildren(s); }
#include "pypto/ir/node_kinds.def"

  // Visits the children of `x` in its declared field order: operands and attr
  // Exprs through VisitExpr / VisitAttr, bodies through VisitStmt, binding
  // sites through VisitVarDef, a Call's result type when types are visited.
  template <class N>
  void VisitChildren(const N* x);

  // ---- types (reached only through VisitType): defaults generated too; they
  // visit shape and view dims as uses and a tuple's element types ----
#define PYPTO_TYPE(N, ...) \
  virtual void Visit_##N(const N* t) { VisitChildren(t); }
#include "pypto/ir/node_kinds.def"

 protected:
  bool visit_types_ = false;
};

// The visitor's reading of each field kind (see node_fields.h).
template <class N>
struct VisitorWalk {
  IRVisitor& v;
  const N* x;
  bool types;
  template <class M, class C>
  void Val(M C::*, const char*) {}
  template <class M, class C>
  void OwnType(M C::*) {}
  template <class M, class C>
  void ResultType(M C::*m) {
    if (types) v.VisitType(x->*m);
  }
  template <class M, class C>
  void Use(M C::*m) {
    v.VisitExpr(x->*m);
  }
  template <class M, class C>
  void Uses(M C::*m, const char*) {
    for (const Expr* e : x->*m) v.VisitExpr(e);
  }
  template <class M, class C>
  void Attrs(M C::*m, const char*) {
    for (const NamedAttr& a : x->*m) v.VisitAttr(a.value);
  }
  template <class M, class C>
  void Def(M C::*m) {
    v.VisitVarDef(x->*m);
  }
  template <class M, class C>
  void AssignDef(M C::*m) {
    v.VisitVarDef(x->*m);
  }
  template <class M, class C>
  void Defs(M C::*m, const char*) {
    for (const Var* d : x->*m) v.VisitVarDef(d);
  }
  template <class M, class C>
  void Inits(M C::*m) {
    for (const IterArg* ia : x->*m) v.VisitExpr(ia->init);
  }
  template <class M, class C>
  void IterDefs(M C::*m) {
    for (const IterArg* ia : x->*m) v.VisitVarDef(ia);
  }
  template <class M, class C>
  void OptBody(M C::*m) {
    v.VisitStmt(x->*m);
  }
  template <class M, class C>
  void Body(M C::*m) {
    v.VisitStmt(x->*m);
  }
  template <class M, class C>
  void Stmts(M C::*m, const char*) {
    for (const Stmt* s : x->*m) v.VisitStmt(s);
  }
  template <class M, class C>
  void View(M C::*m, const char*) {
    if (!(x->*m)) return;
    using V = typename M::value_type;
    VisitorWalk<V> w{v, &*(x->*m), types};
    EachField(w.x, w);
  }
  template <class M, class C>
  void Types(M C::*m, const char*) {
    for (const Type* t : x->*m) v.VisitType(t);
  }
};

template <class N>
void IRVisitor::VisitChildren(const N* x) {
  VisitorWalk<N> w{*this, x, visit_types_};
  EachField(x, w);
}

}  // namespace pypto::ir
