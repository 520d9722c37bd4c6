// Control flow and scopes: `if`/`else` whose branches end in `x = pl.yield_(...)`
// (the names become the IfStmt's return vars), `for i, (a,) in pl.range(...,
// init_values=(a0,))` loops (iter args; the body's yield names become the return
// vars), `for (x,) in pl.while_(init_values=(x0,))` with a leading pl.cond(...),
// `for v in pl.split_aiv(n, mode=...)`, and the with-scopes pl.at (InCore when
// level is CORE_GROUP, else Hierarchy), pl.spmd and pld.comm_domain.
#include <fmt/format.h>

#include "lower.h"
#include "pypto/ir/printer.h"

namespace pypto::ir::parser {

namespace {

bool IsCallTo(const PyExpr* e, std::string_view name) {
  return e && e->kind == EK::kCall && DottedNameIs(e->a, name);
}

std::string JoinNames(const std::vector<std::string>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
  return s;
}

}  // namespace

void Lowerer::LowerIf(const PyStmt* s, std::vector<const Stmt*>* out) {
  const Expr* cond = LowerScalar(s->value, "if condition");
  YieldTargets* saved = yield_ctx_;
  YieldTargets then_yt, else_yt;
  yield_ctx_ = &then_yt;
  const Stmt* then_body = LowerBlock(s->body, s->span);
  const Stmt* else_body = nullptr;
  if (s->has_else) {
    yield_ctx_ = &else_yt;
    else_body = LowerBlock(s->orelse, s->else_span);
  }
  yield_ctx_ = saved;
  std::vector<const Var*> rvs;
  if (then_yt.found || else_yt.found) {
    if (!s->has_else) {
      Error(then_yt.span,
            "an if whose branch yields values with `= pl.yield_(...)` needs an "
            "else branch that yields the same names");
      for (size_t i = 0; i < then_yt.names.size(); ++i) Poison(then_yt.names[i], then_yt.spans[i]);
      return;
    }
    if (!then_yt.found || !else_yt.found || then_yt.names != else_yt.names) {
      Error(then_yt.found && else_yt.found ? else_yt.span : s->span,
            fmt::format("if/else branches must yield the same names: then yields ({}), else "
                        "yields ({})",
                        JoinNames(then_yt.names), JoinNames(else_yt.names)));
      const YieldTargets& any = then_yt.found ? then_yt : else_yt;
      for (size_t i = 0; i < any.names.size(); ++i) Poison(any.names[i], any.spans[i]);
      return;
    }
    rvs = MakeReturnVars(then_yt);
    for (size_t i = 0; i < rvs.size(); ++i) Bind(then_yt.names[i], rvs[i]);
  }
  if (!cond) return;
  out->push_back(ctx_.Make<IfStmt>(cond, then_body, else_body, std::move(rvs), s->span));
}

void Lowerer::LowerFor(const PyStmt* s, std::vector<const Stmt*>* out) {
  const PyExpr* it = s->value;
  std::string head = it->kind == EK::kCall ? DottedName(it->a) : "";
  if (head == "pl.while_") return LowerWhileForm(s, it, out);
  if (head == "pl.split_aiv") {
    if (s->target->kind != EK::kName) {
      Error(s->target->span, "pl.split_aiv: the loop target must be a single name");
      return;
    }
    std::optional<ConstVal> n;
    if (it->items.size() == 1) n = EvalConst(it->items[0], false);
    if (!n || n->k != ConstVal::K::kInt) {
      Error(it->span,
            "pl.split_aiv: expected one integer constant (the sub-block count), e.g. "
            "pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN)");
      return;
    }
    SplitMode mode = SplitMode::kNone;
    AttrList attrs;
    for (const Keyword& kw : it->kwargs) {
      if (kw.name == "mode") {
        auto ev = EnumOf(kw.value);
        if (!ev || ev->first != EnumKind::kSplitMode) {
          Error(kw.value->span, "pl.split_aiv: mode= must be a pl.SplitMode value");
          return;
        }
        mode = static_cast<SplitMode>(ev->second);
      } else if (auto a = LowerAttr(kw.value, nullptr)) {
        attrs.push_back({kw.name, *a});
      } else {
        return;
      }
    }
    const Var* v = ctx_.NewVar(s->target->str, ctx_.Scalar(DataType::kIndex), s->target->span);
    Bind(s->target->str, v);
    YieldTargets* saved = yield_ctx_;
    yield_ctx_ = nullptr;
    const Stmt* body = LowerBlock(s->body, s->span);
    yield_ctx_ = saved;
    out->push_back(ctx_.Make<SplitAivScopeStmt>(v, n->i, mode, body, std::move(attrs), s->span));
    return;
  }
  ForKind kind;
  if (head == "pl.range" || head == "range")
    kind = ForKind::kRange;
  else if (head == "pl.parallel")
    kind = ForKind::kParallel;
  else if (head == "pl.unroll")
    kind = ForKind::kUnroll;
  else if (head == "pl.pipeline")
    kind = ForKind::kPipeline;
  else {
    Error(it->span,
          "a for loop must iterate over pl.range(...), pl.parallel(...), "
          "pl.unroll(...), pl.pipeline(...), pl.while_(...) or pl.split_aiv(...)");
    return;
  }
  bool ok = true;
  std::vector<const Expr*> bounds;
  for (const PyExpr* a : it->items) {
    const Expr* b = LowerScalar(a, "loop bound");
    ok &= b != nullptr;
    bounds.push_back(b);
  }
  if (it->items.empty() || it->items.size() > 3) {
    Error(it->span, fmt::format("{}: expected 1 to 3 bounds (stop | start, stop | start, stop, "
                                "step), got {}",
                                head, it->items.size()));
    ok = false;
  }
  const PyExpr* init = nullptr;
  AttrList attrs;
  for (const Keyword& kw : it->kwargs) {
    if (kw.name == "init_values") {
      init = kw.value;
    } else if (auto a = LowerAttr(kw.value, nullptr)) {
      attrs.push_back({kw.name, *a});
    } else {
      ok = false;
    }
  }
  // Target: `i` or, with init_values, `i, (a, b)`.
  const PyExpr* loop_name = s->target;
  std::vector<const PyExpr*> carried;
  if (init) {
    const PyExpr* t = s->target;
    bool shape_ok = t->kind == EK::kTuple && t->items.size() == 2 &&
                    t->items[0]->kind == EK::kName &&
                    (t->items[1]->kind == EK::kTuple || t->items[1]->kind == EK::kList);
    if (shape_ok) {
      loop_name = t->items[0];
      for (const PyExpr* x : t->items[1]->items) {
        shape_ok &= x->kind == EK::kName;
        carried.push_back(x);
      }
    }
    if (!shape_ok) {
      Error(t->span, "with init_values the loop target must be `i, (a, b, ...)`");
      return;
    }
    if (init->kind != EK::kTuple && init->kind != EK::kList) {
      Error(init->span, "init_values= must be a tuple such as (x0,) or (x0, y0)");
      return;
    }
    if (init->items.size() != carried.size()) {
      Error(init->span,
            fmt::format("init_values has {} value{} but the loop target names {}",
                        init->items.size(), init->items.size() == 1 ? "" : "s", carried.size()));
      return;
    }
  } else if (loop_name->kind != EK::kName) {
    Error(loop_name->span, "the loop target must be a name (or `i, (a, ...)` with init_values)");
    return;
  }
  std::vector<const Expr*> inits;
  if (init) {
    for (const PyExpr* x : init->items) {
      const Expr* v = LowerExpr(x);
      ok &= v != nullptr;
      inits.push_back(v);
    }
  }
  const Var* lv = ctx_.NewVar(loop_name->str, ctx_.Scalar(DataType::kIndex), loop_name->span);
  Bind(loop_name->str, lv);
  std::vector<const IterArg*> ias;
  for (size_t i = 0; i < carried.size(); ++i) {
    const Type* t = inits[i] ? inits[i]->type : ctx_.Unknown();
    const IterArg* ia = ctx_.NewIterArg(carried[i]->str, t, inits[i], carried[i]->span);
    if (!inits[i]) poisoned_.insert(ia);
    ias.push_back(ia);
    Bind(carried[i]->str, ia);
  }
  YieldTargets yt;
  YieldTargets* saved = yield_ctx_;
  yield_ctx_ = &yt;
  ++loop_depth_;
  const Stmt* body = LowerBlock(s->body, s->span);
  --loop_depth_;
  yield_ctx_ = saved;
  std::vector<const Var*> rvs = MakeReturnVars(yt);
  for (size_t i = 0; i < rvs.size(); ++i) Bind(yt.names[i], rvs[i]);
  if (!ok) return;
  const Expr* start = bounds.size() >= 2 ? bounds[0] : ctx_.Int(0);
  const Expr* stop = bounds.size() >= 2 ? bounds[1] : bounds[0];
  const Expr* step = bounds.size() == 3 ? bounds[2] : ctx_.Int(1);
  out->push_back(ctx_.Make<ForStmt>(lv, start, stop, step, std::move(ias), body, std::move(rvs),
                                    kind, std::move(attrs), s->span));
}

void Lowerer::LowerWhileForm(const PyStmt* s, const PyExpr* it, std::vector<const Stmt*>* out) {
  std::vector<const PyExpr*> carried;
  const PyExpr* t = s->target;
  bool shape_ok = t->kind == EK::kTuple || t->kind == EK::kList;
  if (shape_ok)
    for (const PyExpr* x : t->items) {
      shape_ok &= x->kind == EK::kName;
      carried.push_back(x);
    }
  const PyExpr* init = nullptr;
  for (const Keyword& kw : it->kwargs) {
    if (kw.name == "init_values")
      init = kw.value;
    else {
      Error(kw.span, fmt::format("pl.while_: unexpected keyword '{}'", kw.name));
      return;
    }
  }
  if (!shape_ok || !init || !it->items.empty() ||
      (init->kind != EK::kTuple && init->kind != EK::kList) ||
      init->items.size() != carried.size()) {
    Error(it->span,
          "pl.while_: expected `for (x, ...) in pl.while_(init_values=(x0, ...)):` "
          "with one initial value per name");
    return;
  }
  bool ok = true;
  std::vector<const IterArg*> ias;
  std::vector<const Expr*> inits;
  for (const PyExpr* x : init->items) {
    const Expr* v = LowerExpr(x);
    ok &= v != nullptr;
    inits.push_back(v);
  }
  for (size_t i = 0; i < carried.size(); ++i) {
    const IterArg* ia = ctx_.NewIterArg(carried[i]->str, inits[i] ? inits[i]->type : ctx_.Unknown(),
                                        inits[i], carried[i]->span);
    if (!inits[i]) poisoned_.insert(ia);
    ias.push_back(ia);
    Bind(carried[i]->str, ia);
  }
  const Expr* cond = nullptr;
  std::vector<PyStmt*> rest = s->body;
  if (!rest.empty() && rest[0]->kind == SK::kExpr && IsCallTo(rest[0]->value, "pl.cond") &&
      rest[0]->value->items.size() == 1 && rest[0]->value->kwargs.empty()) {
    cond = LowerScalar(rest[0]->value->items[0], "pl.cond condition");
    ok &= cond != nullptr;
    rest.erase(rest.begin());
  } else {
    Error(rest.empty() ? s->span : rest[0]->span,
          "the body of a pl.while_ loop must start with pl.cond(<condition>)");
    ok = false;
  }
  YieldTargets yt;
  YieldTargets* saved = yield_ctx_;
  yield_ctx_ = &yt;
  ++loop_depth_;
  const Stmt* body = LowerBlock(rest, s->span);
  --loop_depth_;
  yield_ctx_ = saved;
  std::vector<const Var*> rvs = MakeReturnVars(yt);
  for (size_t i = 0; i < rvs.size(); ++i) Bind(yt.names[i], rvs[i]);
  if (!ok) return;
  out->push_back(ctx_.Make<WhileStmt>(cond, std::move(ias), body, std::move(rvs), s->span));
}

// The body of a with-scope; a pl.yield_ inside it does not yield to an
// enclosing if / loop.
const Stmt* Lowerer::LowerScopeBody(const PyStmt* s) {
  YieldTargets* saved = yield_ctx_;
  yield_ctx_ = nullptr;
  const Stmt* b = LowerBlock(s->body, s->span);
  yield_ctx_ = saved;
  return b;
}

// `with pl.at(level=..., role=..., split=..., deps=[...]) [as t]:` (and the
// older `pl.incore()`): an InCoreScopeStmt at CORE_GROUP level (a task), else
// a HierarchyScopeStmt.
void Lowerer::LowerAtScope(const PyStmt* s, const std::string& head,
                           std::vector<const Stmt*>* out) {
  const PyExpr* it = s->value;
  bool ok = true;
  AttrList attrs;
  std::optional<Level> level;
  if (head == "pl.incore") level = Level::kCoreGroup;
  std::optional<Role> role;
  SplitMode split = SplitMode::kNone;
  if (it->kind == EK::kCall && !it->items.empty()) {
    Error(it->items[0]->span,
          fmt::format("{}: takes keyword arguments only (level=, role=)", head));
    ok = false;
  }
  if (it->kind == EK::kCall) {
    for (const Keyword& kw : it->kwargs) {
      auto ev = EnumOf(kw.value);
      if (kw.name == "level" || kw.name == "role" || kw.name == "split") {
        EnumKind want = kw.name == "level"  ? EnumKind::kLevel
                        : kw.name == "role" ? EnumKind::kRole
                                            : EnumKind::kSplitMode;
        if (!ev || ev->first != want) {
          Error(kw.value->span,
                fmt::format("{}: {}= must be a {} value", head, kw.name, GetEnumDesc(want).prefix));
          ok = false;
        } else if (kw.name == "level") {
          level = static_cast<Level>(ev->second);
        } else if (kw.name == "role") {
          role = static_cast<Role>(ev->second);
        } else {
          split = static_cast<SplitMode>(ev->second);
        }
      } else if (kw.name == "deps") {
        ok &= LowerTaskDeps(kw.value, &attrs);
      } else if (auto a = LowerAttr(kw.value, nullptr)) {
        attrs.push_back({kw.name, *a});
      } else {
        ok = false;
      }
    }
  }
  if (!level && ok) {
    Error(it->span, "pl.at: missing level=, e.g. pl.at(level=pl.Level.CORE_GROUP)");
    ok = false;
  }
  if (ok && *level == Level::kCoreGroup && role) {
    Error(it->span, "pl.at: role= is not allowed with level=pl.Level.CORE_GROUP");
    ok = false;
  }
  if (ok && *level != Level::kCoreGroup && split != SplitMode::kNone) {
    Error(it->span, "pl.at: split= is only allowed with level=pl.Level.CORE_GROUP");
    ok = false;
  }
  bool has_deps = FindAttr(attrs, "deps") != nullptr;
  if (ok && *level != Level::kCoreGroup && (s->target || has_deps)) {
    Error(s->target ? s->target->span : it->span,
          "pl.at: only level=pl.Level.CORE_GROUP scopes are tasks; `as name` and deps= are "
          "not allowed on other levels");
    ok = false;
  }
  const Stmt* body = LowerScopeBody(s);
  // The task id is bound after the body (a task cannot depend on itself).
  if (ok && s->target) ok &= LowerTaskTarget(s->target, &attrs);
  if (!ok) return;
  if (*level == Level::kCoreGroup)
    out->push_back(ctx_.Make<InCoreScopeStmt>(body, split, std::move(attrs), s->span));
  else
    out->push_back(ctx_.Make<HierarchyScopeStmt>(body, *level, role, std::move(attrs), s->span));
}

// `with pl.spmd(core_num, sync_start=...):`.
void Lowerer::LowerSpmdScope(const PyStmt* s, std::vector<const Stmt*>* out) {
  const PyExpr* it = s->value;
  bool ok = true;
  AttrList attrs;
  const PyExpr* n = it->items.size() == 1 ? it->items[0] : nullptr;
  bool sync = false;
  for (const Keyword& kw : it->kwargs) {
    if (kw.name == "core_num" && !n) {
      n = kw.value;
    } else if (kw.name == "sync_start" && kw.value->kind == EK::kBool) {
      sync = kw.value->bval;
    } else if (auto a = LowerAttr(kw.value, nullptr)) {
      attrs.push_back({kw.name, *a});
    } else {
      ok = false;
    }
  }
  const Expr* cn = nullptr;
  if (!n || it->items.size() > 1) {
    Error(it->span, "pl.spmd: expected the core count, e.g. pl.spmd(4)");
    ok = false;
  } else {
    cn = LowerScalar(n, "pl.spmd core count");
    ok &= cn != nullptr;
  }
  const Stmt* body = LowerScopeBody(s);
  if (ok) out->push_back(ctx_.Make<SpmdScopeStmt>(body, cn, sync, std::move(attrs), s->span));
}

// `with pld.comm_domain(name=, devices=[...], slots=[...]):`.
void Lowerer::LowerCommDomainScope(const PyStmt* s, std::vector<const Stmt*>* out) {
  const PyExpr* it = s->value;
  bool ok = true;
  AttrList attrs;
  std::string name;
  std::vector<int64_t> devices;
  std::vector<std::string> slots;
  if (!it->items.empty()) {
    Error(it->items[0]->span, "pld.comm_domain: takes keyword arguments only (devices=, slots=)");
    ok = false;
  }
  for (const Keyword& kw : it->kwargs) {
    auto c = EvalConst(kw.value, false);
    if (kw.name == "name" && c && c->k == ConstVal::K::kStr) {
      name = c->s;
    } else if (kw.name == "devices" && c && c->k == ConstVal::K::kList) {
      for (const ConstVal& d : c->list) {
        if (d.k != ConstVal::K::kInt) ok = false;
        devices.push_back(d.i);
      }
      if (!ok) Error(kw.value->span, "pld.comm_domain: devices= must be a list of integers");
    } else if (kw.name == "slots" && c && c->k == ConstVal::K::kList) {
      for (const ConstVal& d : c->list) {
        if (d.k != ConstVal::K::kStr) ok = false;
        slots.push_back(d.s);
      }
      if (!ok) Error(kw.value->span, "pld.comm_domain: slots= must be a list of strings");
    } else if (kw.name == "name" || kw.name == "devices" || kw.name == "slots") {
      Error(kw.value->span, fmt::format("pld.comm_domain: bad value for {}=", kw.name));
      ok = false;
    } else if (auto a = LowerAttr(kw.value, nullptr)) {
      attrs.push_back({kw.name, *a});
    } else {
      ok = false;
    }
  }
  const Stmt* body = LowerScopeBody(s);
  if (ok)
    out->push_back(ctx_.Make<CommDomainScopeStmt>(name, std::move(devices), std::move(slots), body,
                                                  std::move(attrs), s->span));
}

// `with pl.manual_scope():`.
void Lowerer::LowerManualScope(const PyStmt* s, std::vector<const Stmt*>* out) {
  const PyExpr* it = s->value;
  bool ok = true;
  if (!it->items.empty() || !it->kwargs.empty()) {
    Error(it->span, "pl.manual_scope: takes no arguments; write `with pl.manual_scope():`");
    ok = false;
  }
  const Stmt* body = LowerScopeBody(s);
  if (ok) out->push_back(ctx_.Make<ManualScopeStmt>(body, AttrList{}, s->span));
}

void Lowerer::LowerWith(const PyStmt* s, std::vector<const Stmt*>* out) {
  const PyExpr* it = s->value;
  std::string head = it->kind == EK::kCall ? DottedName(it->a) : DottedName(it);
  bool is_at = head == "pl.at" || head == "pl.incore";
  if (s->target && !is_at) {
    Error(s->target->span, fmt::format("{}: `with ... as name` binds a task id and is only "
                                       "allowed on pl.at(level=pl.Level.CORE_GROUP) tasks",
                                       head.empty() ? "with" : head));
    return;
  }
  if (is_at) return LowerAtScope(s, head, out);
  if (head == "pl.spmd" && it->kind == EK::kCall) return LowerSpmdScope(s, out);
  if (head == "pld.comm_domain" && it->kind == EK::kCall) return LowerCommDomainScope(s, out);
  if (head == "pl.manual_scope" && it->kind == EK::kCall) return LowerManualScope(s, out);
  Error(it->span,
        "a with statement must open pl.at(...), pl.spmd(...), pl.manual_scope() or "
        "pld.comm_domain(...)");
  LowerScopeBody(s);
}

}  // namespace pypto::ir::parser
