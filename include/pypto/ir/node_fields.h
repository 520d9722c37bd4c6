// EachField(node, walker): the field lists of node_kinds.def as code. For every
// type, expression and statement kind N, and every type sub-record (the
// optional TensorView / TileView), it defines
//
//   template <class W> void EachField(const N*, W& w);
//
// which calls, in the node's declared walk order, one walker method per field
// with a pointer to the member: w.Val(&N::f, msg), w.Use(&N::f), w.Uses(&N::f,
// what), w.Attrs(...), w.Def(...), w.Defs(...), w.AssignDef(...), w.Inits(...),
// w.IterDefs(...), w.OptBody(...), w.Body(...), w.Stmts(...), w.OwnType(...),
// w.ResultType(...), and for types w.View(&N::f, what) (an optional sub-record:
// the walker recurses with EachField on its value) and w.Types(&N::f, msg).
// A walk (the visitor's default hooks, the mutator's
// rebuild, structural equality and hashing, node_walk.h) is one walker class
// that says what each field kind means to it; nothing else in the tree lists a
// node's children. Everything inlines: a generated walk costs what the
// hand-written switch did.
#pragma once

#include "pypto/core/check.h"
#include "pypto/ir/stmt.h"

namespace pypto::ir {

#define VAL(f, msg) w.Val(&T::f, msg);
#define TYPE() w.OwnType(&T::type);
#define RESULT_TYPE() w.ResultType(&T::type);
#define USE(f) w.Use(&T::f);
#define USES(f, what) w.Uses(&T::f, what);
#define ATTRS(f, what) w.Attrs(&T::f, what);
#define DEF(f) w.Def(&T::f);
#define DEFS(f, what) w.Defs(&T::f, what);
#define ASSIGN_DEF(f) w.AssignDef(&T::f);
#define INITS(f) w.Inits(&T::f);
#define ITER_DEFS(f) w.IterDefs(&T::f);
#define STMT(f) w.OptBody(&T::f);
#define BODY(f) w.Body(&T::f);
#define STMTS(f, what) w.Stmts(&T::f, what);
#define VIEW(f, what) w.View(&T::f, what);
#define TYPES(f, msg) w.Types(&T::f, msg);
#define PYPTO_EXPR(N, ...)                \
  template <class W>                      \
  inline void EachField(const N*, W& w) { \
    using T [[maybe_unused]] = N;         \
    (void)w;                              \
    __VA_ARGS__                           \
  }
#define PYPTO_STMT(N, ...) PYPTO_EXPR(N, __VA_ARGS__)
#define PYPTO_TYPE(N, ...) PYPTO_EXPR(N, __VA_ARGS__)
#define PYPTO_FIELDS(N, ...) PYPTO_EXPR(N, __VA_ARGS__)
#include "pypto/ir/node_kinds.def"
#undef VAL
#undef TYPE
#undef RESULT_TYPE
#undef USE
#undef USES
#undef ATTRS
#undef DEF
#undef DEFS
#undef ASSIGN_DEF
#undef INITS
#undef ITER_DEFS
#undef STMT
#undef BODY
#undef STMTS
#undef VIEW
#undef TYPES

// Calls f(static_cast<const N*>(s)) for the concrete kind of statement `s`.
template <class F>
decltype(auto) DispatchStmt(const Stmt* s, F&& f) {
  switch (s->kind) {
#define PYPTO_STMT(N, ...) \
  case NodeKind::k##N:     \
    return f(static_cast<const N*>(s));
#include "pypto/ir/node_kinds.def"
    default:
      break;
  }
  PYPTO_CHECK(false, "DispatchStmt: not a statement kind");
  __builtin_unreachable();
}

// Calls f(static_cast<const N*>(e)) for the concrete kind of expression `e`.
template <class F>
decltype(auto) DispatchExpr(const Expr* e, F&& f) {
  switch (e->kind) {
#define PYPTO_EXPR(N, ...) \
  case NodeKind::k##N:     \
    return f(static_cast<const N*>(e));
#include "pypto/ir/node_kinds.def"
    default:
      break;
  }
  PYPTO_CHECK(false, "DispatchExpr: not an expression kind");
  __builtin_unreachable();
}

// Calls f(static_cast<const N*>(t)) for the concrete kind of type `t`.
template <class F>
decltype(auto) DispatchType(const Type* t, F&& f) {
  switch (t->kind) {
#define PYPTO_TYPE(N, ...) \
  case NodeKind::k##N:     \
    return f(static_cast<const N*>(t));
#include "pypto/ir/node_kinds.def"
    default:
      break;
  }
  PYPTO_CHECK(false, "DispatchType: not a type kind");
  __builtin_unreachable();
}

}  // namespace pypto::ir
