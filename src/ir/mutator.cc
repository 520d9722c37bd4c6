// IRMutator defaults: rebuild a node only when a child changed, apply the Var
// substitution map to uses, re-deduce op call types through MakeOpCall.
#include "pypto/ir/mutator.h"

#include "pypto/core/check.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

// ---------------------------------------------------------------- dispatch

const Expr* IRMutator::MutateExpr(const Expr* e) {
  if (!e) return nullptr;
  switch (e->kind) {
#define PYPTO_EXPR(N)  \
  case NodeKind::k##N: \
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
#define PYPTO_STMT(N)  \
  case NodeKind::k##N: \
    return Mutate_##N(static_cast<const N*>(s));
#include "pypto/ir/node_kinds.def"
    default:
      PYPTO_CHECK(false, "MutateStmt: not a statement kind");
  }
  return s;
}

const Type* IRMutator::MutateTensorLike(const TensorType* t) {
  bool changed = false;
  std::vector<const Expr*> shape = MutateExprs(t->shape, &changed);
  std::optional<TensorView> view = t->view;
  if (view) {
    view->stride = MutateExprs(t->view->stride, &changed);
    view->valid_shape = MutateExprs(t->view->valid_shape, &changed);
  }
  if (!changed) return t;
  if (const auto* d = As<DistributedTensorType>(t))
    return ctx_.Make<DistributedTensorType>(std::move(shape), d->dtype, std::move(view),
                                            d->window_buffer);
  return ctx_.Make<TensorType>(std::move(shape), t->dtype, std::move(view));
}

const Type* IRMutator::MutateType(const Type* t) {
  if (!t) return nullptr;
  switch (t->kind) {
    case NodeKind::kTensorType:
    case NodeKind::kDistributedTensorType:
      return MutateTensorLike(static_cast<const TensorType*>(t));
    case NodeKind::kTileType: {
      const auto* tt = static_cast<const TileType*>(t);
      bool changed = false;
      std::vector<const Expr*> shape = MutateExprs(tt->shape, &changed);
      std::optional<TileView> view = tt->view;
      if (view) view->valid_shape = MutateExprs(tt->view->valid_shape, &changed);
      if (!changed) return t;
      return ctx_.Make<TileType>(std::move(shape), tt->dtype, tt->memory_space, std::move(view));
    }
    case NodeKind::kTupleType: {
      const auto* tt = static_cast<const TupleType*>(t);
      bool changed = false;
      std::vector<const Type*> types;
      types.reserve(tt->types.size());
      for (const Type* x : tt->types) {
        types.push_back(MutateType(x));
        changed |= types.back() != x;
      }
      return changed ? ctx_.Make<TupleType>(std::move(types)) : t;
    }
    default:
      return t;  // no expressions inside
  }
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

// ---------------------------------------------------------------- exprs

const Expr* IRMutator::Mutate_Var(const Var* e) {
  const Expr* s = Substitution(e);
  return s ? s : e;
}
const Expr* IRMutator::Mutate_IterArg(const IterArg* e) {
  const Expr* s = Substitution(e);
  return s ? s : e;
}
const Expr* IRMutator::Mutate_ConstInt(const ConstInt* e) { return e; }
const Expr* IRMutator::Mutate_ConstFloat(const ConstFloat* e) { return e; }
const Expr* IRMutator::Mutate_ConstBool(const ConstBool* e) { return e; }

const Expr* IRMutator::Mutate_BinaryExpr(const BinaryExpr* e) {
  const Expr* l = MutateExpr(e->lhs);
  const Expr* r = MutateExpr(e->rhs);
  if (l == e->lhs && r == e->rhs) return e;
  return ctx_.Make<BinaryExpr>(e->op, l, r, e->type, e->span);
}

const Expr* IRMutator::Mutate_UnaryExpr(const UnaryExpr* e) {
  const Expr* x = MutateExpr(e->operand);
  if (x == e->operand) return e;
  return ctx_.Make<UnaryExpr>(e->op, x, e->type, e->span);
}

const Expr* IRMutator::Mutate_Call(const Call* c) {
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

const Expr* IRMutator::Mutate_MakeTuple(const MakeTuple* e) {
  bool changed = false;
  std::vector<const Expr*> el = MutateExprs(e->elements, &changed);
  if (!changed) return e;
  std::vector<const Type*> types;
  types.reserve(el.size());
  for (const Expr* x : el) types.push_back(x->type);
  return ctx_.Make<MakeTuple>(std::move(el), ctx_.Make<TupleType>(std::move(types)), e->span);
}

const Expr* IRMutator::Mutate_TupleGetItem(const TupleGetItem* e) {
  const Expr* t = MutateExpr(e->tuple);
  if (t == e->tuple) return e;
  const Type* ty = e->type;
  if (const auto* tt = As<TupleType>(t->type))
    if (e->index >= 0 && static_cast<size_t>(e->index) < tt->types.size()) ty = tt->types[e->index];
  return ctx_.Make<TupleGetItem>(t, e->index, ty, e->span);
}

// ---------------------------------------------------------------- stmts

const Stmt* IRMutator::Mutate_AssignStmt(const AssignStmt* s) {
  const Expr* v = MutateExpr(s->value);
  const Var* var = MutateVarDef(s->var);
  if (v == s->value && var == s->var) return s;
  return ctx_.Make<AssignStmt>(var, v, s->span);
}

const Stmt* IRMutator::Mutate_EvalStmt(const EvalStmt* s) {
  const Expr* e = MutateExpr(s->expr);
  return e == s->expr ? s : ctx_.Make<EvalStmt>(e, s->span);
}

const Stmt* IRMutator::Mutate_ReturnStmt(const ReturnStmt* s) {
  bool changed = false;
  std::vector<const Expr*> v = MutateExprs(s->values, &changed);
  return changed ? ctx_.Make<ReturnStmt>(std::move(v), s->span) : s;
}

const Stmt* IRMutator::Mutate_YieldStmt(const YieldStmt* s) {
  bool changed = false;
  std::vector<const Expr*> v = MutateExprs(s->values, &changed);
  return changed ? ctx_.Make<YieldStmt>(std::move(v), s->span) : s;
}

const Stmt* IRMutator::Mutate_IfStmt(const IfStmt* s) {
  const Expr* c = MutateExpr(s->cond);
  const Stmt* t = MutateStmt(s->then_body);
  const Stmt* e = MutateStmt(s->else_body);
  bool changed = c != s->cond || t != s->then_body || e != s->else_body;
  std::vector<const Var*> rv = MutateVarDefs(s->return_vars, &changed);
  if (!changed) return s;
  if (!t) t = ctx_.Make<SeqStmt>(std::vector<const Stmt*>{}, s->span);
  return ctx_.Make<IfStmt>(c, t, e, std::move(rv), s->span);
}

const Stmt* IRMutator::Mutate_ForStmt(const ForStmt* s) {
  bool changed = false;
  const Expr* start = MutateExpr(s->start);
  const Expr* stop = MutateExpr(s->stop);
  const Expr* step = MutateExpr(s->step);
  changed = start != s->start || stop != s->stop || step != s->step;
  AttrList attrs = MutateAttrs(s->attrs, &changed);
  const Var* lv = MutateVarDef(s->loop_var);
  changed |= lv != s->loop_var;
  std::vector<const IterArg*> ia = MutateIterArgs(s->iter_args, &changed);
  const Stmt* body = MutateStmt(s->body);
  if (!body) body = ctx_.Make<SeqStmt>(std::vector<const Stmt*>{}, s->span);
  changed |= body != s->body;
  std::vector<const Var*> rv = MutateVarDefs(s->return_vars, &changed);
  if (!changed) return s;
  return ctx_.Make<ForStmt>(lv, start, stop, step, std::move(ia), body, std::move(rv), s->for_kind,
                            std::move(attrs), s->span);
}

const Stmt* IRMutator::Mutate_WhileStmt(const WhileStmt* s) {
  bool changed = false;
  std::vector<const IterArg*> ia = MutateIterArgs(s->iter_args, &changed);
  const Expr* c = MutateExpr(s->cond);
  const Stmt* body = MutateStmt(s->body);
  if (!body) body = ctx_.Make<SeqStmt>(std::vector<const Stmt*>{}, s->span);
  changed |= c != s->cond || body != s->body;
  std::vector<const Var*> rv = MutateVarDefs(s->return_vars, &changed);
  if (!changed) return s;
  return ctx_.Make<WhileStmt>(c, std::move(ia), body, std::move(rv), s->span);
}

const Stmt* IRMutator::Mutate_SeqStmt(const SeqStmt* s) {
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

const Stmt* IRMutator::Mutate_BreakStmt(const BreakStmt* s) { return s; }
const Stmt* IRMutator::Mutate_ContinueStmt(const ContinueStmt* s) { return s; }

namespace {
// Shared scope rebuild: mutated attrs + body; `make` builds the new node.
template <typename S, typename Make>
const Stmt* RebuildScope(IRMutator& m, Context& ctx, const S* s, bool extra_changed, Make make) {
  bool changed = extra_changed;
  AttrList attrs = m.MutateAttrs(s->attrs, &changed);
  const Stmt* body = m.MutateStmt(s->body);
  if (!body) body = ctx.Make<SeqStmt>(std::vector<const Stmt*>{}, s->span);
  changed |= body != s->body;
  if (!changed) return s;
  return make(body, std::move(attrs));
}
}  // namespace

const Stmt* IRMutator::Mutate_InCoreScopeStmt(const InCoreScopeStmt* s) {
  return RebuildScope(*this, ctx_, s, false, [&](const Stmt* b, AttrList a) {
    return ctx_.Make<InCoreScopeStmt>(b, s->split, std::move(a), s->span);
  });
}

const Stmt* IRMutator::Mutate_HierarchyScopeStmt(const HierarchyScopeStmt* s) {
  return RebuildScope(*this, ctx_, s, false, [&](const Stmt* b, AttrList a) {
    return ctx_.Make<HierarchyScopeStmt>(b, s->level, s->role, std::move(a), s->span);
  });
}

const Stmt* IRMutator::Mutate_SpmdScopeStmt(const SpmdScopeStmt* s) {
  const Expr* n = MutateExpr(s->core_num);
  return RebuildScope(*this, ctx_, s, n != s->core_num, [&](const Stmt* b, AttrList a) {
    return ctx_.Make<SpmdScopeStmt>(b, n, s->sync_start, std::move(a), s->span);
  });
}

const Stmt* IRMutator::Mutate_SplitAivScopeStmt(const SplitAivScopeStmt* s) {
  const Var* v = MutateVarDef(s->var);
  return RebuildScope(*this, ctx_, s, v != s->var, [&](const Stmt* b, AttrList a) {
    return ctx_.Make<SplitAivScopeStmt>(v, s->count, s->mode, b, std::move(a), s->span);
  });
}

const Stmt* IRMutator::Mutate_CommDomainScopeStmt(const CommDomainScopeStmt* s) {
  return RebuildScope(*this, ctx_, s, false, [&](const Stmt* b, AttrList a) {
    return ctx_.Make<CommDomainScopeStmt>(s->name, s->devices, s->slots, b, std::move(a), s->span);
  });
}

const Stmt* IRMutator::Mutate_ManualScopeStmt(const ManualScopeStmt* s) {
  return RebuildScope(*this, ctx_, s, false, [&](const Stmt* b, AttrList a) {
    return ctx_.Make<ManualScopeStmt>(b, std::move(a), s->span);
  });
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
