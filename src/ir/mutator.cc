// IRMutator defaults: rebuild a node (type, expression or statement) only when
// a child changed (generated from the field lists of node_kinds.def), apply the
// Var substitution map to uses, re-deduce op call types through MakeOpCall.
#include "pypto/ir/mutator.h"

#include <optional>

#include "pypto/core/check.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/node_fields.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

// ---------------------------------------------------------------- dispatch

const Expr* IRMutator::MutateExpr(const Expr* e) {
  if (!e) return nullptr;
  switch (e->kind) {
#define PYPTO_EXPR(N, ...) \
  case NodeKind::k##N:     \
    return Mutate_##N(static_cast<const N*>(e));
#include "pypto/ir/node_kinds.def"
    default:
      PYPTO_CHECK(false, "MutateExpr: not an expression kind");
  }
  return e;
}

const Stmt* IRMutator::MutateStmt(const Stmt* s) {
  if (!s) return nullptr;
  switch (s->kind) {
#define PYPTO_STMT(N, ...) \
  case NodeKind::k##N:     \
    return Mutate_##N(static_cast<const N*>(s));
#include "pypto/ir/node_kinds.def"
    default:
      PYPTO_CHECK(false, "MutateStmt: not a statement kind");
  }
  return s;
}

const Var* IRMutator::MutateVarDef(const Var* v) {
  if (!v) return nullptr;
  if (const Expr* s = Substitution(v))
    if (const Var* nv = AsVarLike(s)) return nv;
  const Type* t = MutateType(v->type);
  if (t == v->type) return v;
  const Var* nv = ctx_.Make<Var>(v->name_hint, t, ctx_.NextVarId(), v->span);
  Substitute(v, nv);
  return nv;
}

// ---------------------------------------------------------------- helpers

std::vector<const Expr*> IRMutator::MutateExprs(const std::vector<const Expr*>& v, bool* changed) {
  std::vector<const Expr*> out;
  out.reserve(v.size());
  for (const Expr* e : v) {
    out.push_back(MutateExpr(e));
    if (out.back() != e) *changed = true;
  }
  return out;
}

std::vector<const Var*> IRMutator::MutateVarDefs(const std::vector<const Var*>& v, bool* changed) {
  std::vector<const Var*> out;
  out.reserve(v.size());
  for (const Var* x : v) {
    out.push_back(MutateVarDef(x));
    if (out.back() != x) *changed = true;
  }
  return out;
}

std::vector<const IterArg*> IRMutator::MutateIterArgs(const std::vector<const IterArg*>& v,
                                                      bool* changed) {
  std::vector<const IterArg*> out;
  out.reserve(v.size());
  for (const IterArg* ia : v) {
    const Expr* init = MutateExpr(ia->init);
    const Type* t = MutateType(ia->type);
    const IterArg* renamed = nullptr;
    if (const Expr* s = Substitution(ia)) renamed = As<IterArg>(s);
    if (renamed && renamed->init == init && renamed->type == t) {
      out.push_back(renamed);
    } else if (init != ia->init || t != ia->type || renamed) {
      const IterArg* n = ctx_.NewIterArg(ia->name_hint, t, init, ia->span);
      Substitute(ia, n);
      out.push_back(n);
    } else {
      out.push_back(ia);
    }
    if (out.back() != ia) *changed = true;
  }
  return out;
}

Attr IRMutator::MutateAttr(const Attr& a, bool* changed) {
  if (a.kind == Attr::Kind::kExpr) {
    const Expr* e = MutateExpr(a.expr);
    if (e == a.expr) return a;
    *changed = true;
    return Attr::Of(e);
  }
  if (a.kind == Attr::Kind::kList) {
    bool c = false;
    std::vector<Attr> l;
    l.reserve(a.list.size());
    for (const Attr& x : a.list) l.push_back(MutateAttr(x, &c));
    if (!c) return a;
    *changed = true;
    Attr r = a;
    r.list = std::move(l);
    return r;
  }
  return a;
}

AttrList IRMutator::MutateAttrs(const AttrList& l, bool* changed) {
  AttrList out;
  out.reserve(l.size());
  for (const NamedAttr& a : l) out.push_back({a.name, MutateAttr(a.value, changed)});
  return out;
}

const Call* IRMutator::RebuildOpCall(const Call* c, std::vector<const Expr*> args, AttrList kwargs,
                                     AttrList attrs) {
  DiagnosticEngine diag(&ctx_.sources());
  const Call* n =
      MakeOpCall(ctx_, *c->op, std::move(args), std::move(kwargs), std::move(attrs), c->span, diag);
  PYPTO_CHECK(n != nullptr, "IRMutator: rebuilt call of " + c->op->name +
                                " no longer type-checks:\n" + diag.Render());
  return n;
}

// ---------------------------------------------------------------- generated

// The mutator's reading of each field kind (see node_fields.h): mutate the
// field's children in declared order; the first change copies the node (span
// and plain values included) into `out` and later changes are written into the
// copy, which is allocated once every child is done (as the hand-written hooks
// did, so allocation order is unchanged).
template <class N>
struct IRMutator::RebuildWalk {
  IRMutator& m;
  const N* x;
  std::optional<N> out;

  N& Out() {
    if (!out) out.emplace(*x);
    return *out;
  }
  template <class M, class C, class V>
  void SetIf(M C::*f, bool changed, V&& v) {
    if (changed) Out().*f = std::forward<V>(v);
  }
  template <class M, class C>
  void Val(M C::*, const char*) {}
  template <class M, class C>
  void OwnType(M C::*) {}
  template <class M, class C>
  void Use(M C::*f) {
    const Expr* e = m.MutateExpr(x->*f);
    SetIf(f, e != x->*f, e);
  }
  template <class M, class C>
  void Uses(M C::*f, const char*) {
    bool c = false;
    std::vector<const Expr*> v = m.MutateExprs(x->*f, &c);
    SetIf(f, c, std::move(v));
  }
  template <class M, class C>
  void Attrs(M C::*f, const char*) {
    bool c = false;
    AttrList l = m.MutateAttrs(x->*f, &c);
    SetIf(f, c, std::move(l));
  }
  template <class M, class C>
  void Def(M C::*f) {
    const Var* v = m.MutateVarDef(x->*f);
    SetIf(f, v != x->*f, v);
  }
  template <class M, class C>
  void AssignDef(M C::*f) {
    Def(f);
  }
  template <class M, class C>
  void Defs(M C::*f, const char*) {
    bool c = false;
    std::vector<const Var*> v = m.MutateVarDefs(x->*f, &c);
    SetIf(f, c, std::move(v));
  }
  template <class M, class C>
  void Inits(M C::*) {}  // mutated with their IterArgs (MutateIterArgs)
  template <class M, class C>
  void IterDefs(M C::*f) {
    bool c = false;
    std::vector<const IterArg*> v = m.MutateIterArgs(x->*f, &c);
    SetIf(f, c, std::move(v));
  }
  template <class M, class C>
  void OptBody(M C::*f) {
    const Stmt* b = m.MutateStmt(x->*f);
    SetIf(f, b != x->*f, b);
  }
  template <class M, class C>
  void Body(M C::*f) {
    const Stmt* b = m.MutateStmt(x->*f);
    if (!b && x->*f) b = m.ctx_.Make<SeqStmt>(std::vector<const Stmt*>{}, x->span);
    SetIf(f, b != x->*f, b);
  }
  // A type's optional view: its own fields, rebuilt the same way.
  template <class M, class C>
  void View(M C::*f, const char*) {
    if (!(x->*f)) return;
    using V = typename M::value_type;
    RebuildWalk<V> w{m, &*(x->*f), std::nullopt};
    EachField(w.x, w);
    if (w.out) Out().*f = std::move(*w.out);
  }
  template <class M, class C>
  void Types(M C::*f, const char*) {
    bool c = false;
    std::vector<const Type*> v;
    v.reserve((x->*f).size());
    for (const Type* t : x->*f) {
      v.push_back(m.MutateType(t));
      c |= v.back() != t;
    }
    SetIf(f, c, std::move(v));
  }
};

template <class N>
const N* IRMutator::Rebuild(const N* x) {
  RebuildWalk<N> w{*this, x, std::nullopt};
  EachField(x, w);
  return w.out ? ctx_.Make<N>(std::move(*w.out)) : x;
}

#define PYPTO_EXPR(N, ...) \
  const Expr* IRMutator::Mutate_##N(const N* e) { return Rebuild(e); }
#define PYPTO_STMT(N, ...) \
  const Stmt* IRMutator::Mutate_##N(const N* s) { return Rebuild(s); }
#include "pypto/ir/node_kinds.def"

// Types: the generated rebuild (above) remakes a changed type through
// Context::Make, which hash-conses TileTypes.
const Type* IRMutator::MutateType(const Type* t) {
  if (!t) return nullptr;
  switch (t->kind) {
#define PYPTO_TYPE(N, ...) \
  case NodeKind::k##N:     \
    return Rebuild(static_cast<const N*>(t));
#include "pypto/ir/node_kinds.def"
    default:
      PYPTO_CHECK(false, "MutateType: not a type kind");
  }
  return t;
}

// ---------------------------------------------------------------- exprs

const Expr* IRMutator::Rebuild(const Var* e) {
  const Expr* s = Substitution(e);
  return s ? s : e;
}
const Expr* IRMutator::Rebuild(const IterArg* e) {
  const Expr* s = Substitution(e);
  return s ? s : e;
}

const Expr* IRMutator::Rebuild(const Call* c) {
  bool args_changed = false, kw_changed = false, at_changed = false;
  std::vector<const Expr*> args = MutateExprs(c->args, &args_changed);
  AttrList kwargs = MutateAttrs(c->kwargs, &kw_changed);
  AttrList attrs = MutateAttrs(c->attrs, &at_changed);
  if (c->op) {
    if (args_changed || kw_changed)
      return RebuildOpCall(c, std::move(args), std::move(kwargs), std::move(attrs));
    if (!at_changed) return c;
    return ctx_.Make<Call>(c->op, std::string(), c->args, c->kwargs, std::move(attrs), c->type,
                           c->span);
  }
  const Type* t = MutateType(c->type);
  if (!args_changed && !kw_changed && !at_changed && t == c->type) return c;
  return ctx_.Make<Call>(nullptr, c->callee, std::move(args), std::move(kwargs), std::move(attrs),
                         t, c->span);
}

const Expr* IRMutator::Rebuild(const MakeTuple* e) {
  bool changed = false;
  std::vector<const Expr*> el = MutateExprs(e->elements, &changed);
  if (!changed) return e;
  std::vector<const Type*> types;
  types.reserve(el.size());
  for (const Expr* x : el) types.push_back(x->type);
  return ctx_.Make<MakeTuple>(std::move(el), ctx_.Make<TupleType>(std::move(types)), e->span);
}

const Expr* IRMutator::Rebuild(const TupleGetItem* e) {
  const Expr* t = MutateExpr(e->tuple);
  if (t == e->tuple) return e;
  const Type* ty = e->type;
  if (const auto* tt = As<TupleType>(t->type))
    if (e->index >= 0 && static_cast<size_t>(e->index) < tt->types.size()) ty = tt->types[e->index];
  return ctx_.Make<TupleGetItem>(t, e->index, ty, e->span);
}

// ---------------------------------------------------------------- stmts

const Stmt* IRMutator::Rebuild(const SeqStmt* s) {
  bool changed = false;
  std::vector<const Stmt*> out;
  out.reserve(s->stmts.size());
  for (const Stmt* x : s->stmts) {
    const Stmt* n = MutateStmt(x);
    if (n == x) {
      out.push_back(x);
      continue;
    }
    changed = true;
    if (!n) continue;  // deleted
    if (const auto* seq = As<SeqStmt>(n))
      out.insert(out.end(), seq->stmts.begin(), seq->stmts.end());  // splice
    else
      out.push_back(n);
  }
  return changed ? ctx_.Make<SeqStmt>(std::move(out), s->span) : s;
}

// ---------------------------------------------------------------- units

const Function* IRMutator::MutateFunction(const Function& f) {
  bool changed = false;
  std::vector<const Var*> params = MutateVarDefs(f.params, &changed);
  std::vector<const Type*> rts;
  rts.reserve(f.return_types.size());
  for (const Type* t : f.return_types) {
    rts.push_back(MutateType(t));
    changed |= rts.back() != t;
  }
  const Stmt* body = MutateStmt(f.body);
  if (!body) body = ctx_.Make<SeqStmt>(std::vector<const Stmt*>{}, f.span);
  changed |= body != f.body;
  bool at_changed = false;
  AttrList attrs = MutateAttrs(f.attrs, &at_changed);
  if (!changed && !at_changed) return &f;
  Function* n = ctx_.Make<Function>(f);
  n->params = std::move(params);
  n->return_types = std::move(rts);
  n->body = body;
  n->attrs = std::move(attrs);
  return n;
}

const Program* IRMutator::MutateProgram(const Program& p) {
  bool changed = false;
  std::vector<const Var*> dims = MutateVarDefs(p.dynamic_dims, &changed);
  std::vector<const Function*> fns;
  fns.reserve(p.functions.size());
  for (const Function* f : p.functions) {
    fns.push_back(MutateFunction(*f));
    changed |= fns.back() != f;
  }
  if (!changed) return &p;
  Program* n = ctx_.Make<Program>(p);
  n->functions = std::move(fns);
  n->dynamic_dims = std::move(dims);
  return n;
}

}  // namespace pypto::ir
