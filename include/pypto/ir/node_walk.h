// Allocation-free child walks of one node, generated from the field lists of
// node_kinds.def (node_fields.h), for analyses that drive their own recursion
// (liveness, interval building, alias tracking) instead of subclassing
// IRVisitor. Each helper visits one level only, in the node's declared field
// order, so a new node kind is walked without touching its callers:
//
//   ForEachChildStmt(s, f)  f(const Stmt*) for every nested statement (non-null)
//   ForEachOwnExpr(s, f)    f(const Expr*) for every expression root the statement
//                           itself evaluates: operands, iter-arg inits, and Exprs
//                           inside its attrs (also inside list attrs)
//   ForEachOwnDef(s, f)     f(const Var*) for every var the statement binds
//   ForEachChildExpr(e, f, t)  f(const Expr*) for every operand of expression `e`
//                           (kwarg / attr Exprs included), t(const Type*) for a
//                           Call's result type
//   ForEachTypeChild(t, f, g)  f(const Expr*) for every expression inside type `t`
//                           (shape dims, view strides / valid shapes), g(const
//                           Type*) for every element type (a tuple's)
#pragma once

#include "pypto/ir/node_fields.h"

namespace pypto::ir {
namespace node_walk {

// Calls f for every Expr inside an attribute value, nested lists included.
template <class F>
void AttrExprs(const Attr& a, F& f) {
  if (a.kind == Attr::Kind::kExpr && a.expr) f(a.expr);
  for (const Attr& x : a.list) AttrExprs(x, f);
}

// One walker for all four helpers; each field kind forwards to the callable it
// belongs to (a no-op lambda for the others).
template <class N, class StmtF, class ExprF, class DefF, class TypeF>
struct Walk {
  const N* x;
  StmtF& on_stmt;
  ExprF& on_expr;
  DefF& on_def;
  TypeF& on_type;

  template <class M, class C>
  void Val(M C::*, const char*) {}
  template <class M, class C>
  void OwnType(M C::*) {}
  template <class M, class C>
  void ResultType(M C::*m) {
    on_type(x->*m);
  }
  template <class M, class C>
  void Use(M C::*m) {
    on_expr(x->*m);
  }
  template <class M, class C>
  void Uses(M C::*m, const char*) {
    for (const Expr* e : x->*m) on_expr(e);
  }
  template <class M, class C>
  void Attrs(M C::*m, const char*) {
    for (const NamedAttr& a : x->*m) AttrExprs(a.value, on_expr);
  }
  template <class M, class C>
  void Def(M C::*m) {
    if (x->*m) on_def(x->*m);
  }
  template <class M, class C>
  void AssignDef(M C::*m) {
    Def(m);
  }
  template <class M, class C>
  void Defs(M C::*m, const char*) {
    for (const Var* v : x->*m) on_def(v);
  }
  template <class M, class C>
  void Inits(M C::*m) {
    for (const IterArg* ia : x->*m) on_expr(ia->init);
  }
  template <class M, class C>
  void IterDefs(M C::*m) {
    for (const IterArg* ia : x->*m) on_def(ia);
  }
  template <class M, class C>
  void OptBody(M C::*m) {
    if (x->*m) on_stmt(x->*m);
  }
  template <class M, class C>
  void Body(M C::*m) {
    OptBody(m);
  }
  template <class M, class C>
  void Stmts(M C::*m, const char*) {
    for (const Stmt* s : x->*m) on_stmt(s);
  }
  template <class M, class C>
  void View(M C::*m, const char*) {
    if (!(x->*m)) return;
    Walk<typename M::value_type, StmtF, ExprF, DefF, TypeF> w{&*(x->*m), on_stmt, on_expr, on_def,
                                                              on_type};
    EachField(w.x, w);
  }
  template <class M, class C>
  void Types(M C::*m, const char*) {
    for (const Type* t : x->*m) on_type(t);
  }
};

template <class StmtF, class ExprF, class DefF, class TypeF>
void Stmt1(const Stmt* s, StmtF&& on_stmt, ExprF&& on_expr, DefF&& on_def, TypeF&& on_type) {
  DispatchStmt(s, [&](const auto* x) {
    using N = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
    Walk<N, StmtF, ExprF, DefF, TypeF> w{x, on_stmt, on_expr, on_def, on_type};
    EachField(x, w);
  });
}

inline constexpr auto kNone = [](const auto*) {};

}  // namespace node_walk

template <class F>
void ForEachChildStmt(const Stmt* s, F&& f) {
  auto none = node_walk::kNone;
  node_walk::Stmt1(s, f, none, none, none);
}

template <class F>
void ForEachOwnExpr(const Stmt* s, F&& f) {
  auto none = node_walk::kNone;
  node_walk::Stmt1(s, none, f, none, none);
}

template <class F>
void ForEachOwnDef(const Stmt* s, F&& f) {
  auto none = node_walk::kNone;
  node_walk::Stmt1(s, none, none, f, none);
}

template <class F, class T>
void ForEachChildExpr(const Expr* e, F&& f, T&& on_type) {
  auto none = node_walk::kNone;
  DispatchExpr(e, [&](const auto* x) {
    using N = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
    node_walk::Walk<N, decltype(none), F, decltype(none), T> w{x, none, f, none, on_type};
    EachField(x, w);
  });
}

template <class F, class T>
void ForEachTypeChild(const Type* t, F&& f, T&& on_type) {
  auto none = node_walk::kNone;
  DispatchType(t, [&](const auto* x) {
    using N = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
    node_walk::Walk<N, decltype(none), F, decltype(none), T> w{x, none, f, none, on_type};
    EachField(x, w);
  });
}

}  // namespace pypto::ir
