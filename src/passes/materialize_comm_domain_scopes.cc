// materialize-comm-domain-scopes: makes the comm domains of a host
// orchestrator explicit.
//
// For each host orchestrator (level HOST, role Orchestrator / Orchestration):
//  1. every `p = pld.tensor.alloc_window_buffer(...)` is an allocation named by
//     its `name` kwarg; `v = pld.tensor.window(p, ...)` are its views; Vars
//     that alias a view (plain copies, collective results — the window-as-
//     result argument —, loop carries, if joins, slices/views) follow it;
//  2. every function call with a `device=` attr is a dispatch; its device set
//     is {N} for a constant N, all ranks for the loop variable of
//     `pl.range(pld.system.world_size())` (bound possibly held in a Var), and
//     {a, ..., b-1} for the loop variable of `pl.range(a, b)` with constant
//     bounds and unit step; each allocation a view (or the pointer) of which is
//     passed is covered by that set;
//  3. a host collective's other window operands (signal, recv_counts, input,
//     send_counts) inherit the coverage of its data window (the window-as-
//     result argument), so a signal used only by a host collective lands in
//     its data's domain; a barrier's signal needs coverage of its own;
//  4. coverage per allocation is merged (all ranks wins, else the union) and
//     allocations with equal device sets form one domain, in allocation order;
//  5. every view Var (and every alias) gets a DistributedTensorType bound to
//     its allocation (`"window_buffer=<name>"`), and the body is wrapped in one
//     nested `with pld.comm_domain(name="comm_d<n>", devices=[...],
//     slots=[...]):` per domain (outer = first; empty devices = all ranks).
// A window view written inline as a dispatch argument
// (`self.k(pld.tensor.window(buf, [8, 64], dtype=pl.FP32), device=r)`, as
// upstream programs do) is first hoisted into a view Var assigned right before
// the statement (`buf_view = pld.tensor.window(...)`), so it counts as a view
// and the dispatch covers its allocation like any named view.
// Errors: a dead allocation (no view), an allocation whose domain cannot be
// inferred, a device= expression that is not a constant or such a loop
// variable, a non-unit-step or non-zero-based world_size loop, duplicate
// window names, a collective window operand that is not a view of an
// allocation of this function, a host all_to_all_v inside a for/while loop,
// and a Var / loop carry holding views of two allocations. Functions already
// containing a comm-domain scope are left unchanged (idempotent).
#include <fmt/format.h>

#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "host_comm.h"
#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/printer.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

struct DeviceSet {
  bool all = false;
  std::set<int64_t> devices;
  void Merge(const DeviceSet& o) {
    if (all || o.all) {
      all = true;
      devices.clear();
      return;
    }
    devices.insert(o.devices.begin(), o.devices.end());
  }
  bool operator<(const DeviceSet& o) const {
    if (all != o.all) return all < o.all;
    return devices < o.devices;
  }
};

struct Alloc {
  std::string name;
  Span span;
  int views = 0;
  std::vector<DeviceSet> seen;  // one per dispatch / inherited coverage
  bool reported = false;        // a collective already reported its missing domain
};

std::string Pos(Span s) { return fmt::format("{}:{}", s.line, s.col); }

const Stmt* LastStmt(const Stmt* s) {
  auto* seq = As<SeqStmt>(s);
  if (!seq) return s;
  return seq->stmts.empty() ? nullptr : seq->stmts.back();
}

const DistributedTensorType* DistOf(const Type* t) { return As<DistributedTensorType>(t); }

// Pass 0: hoists pld.tensor.window calls nested in the arguments of a dispatch
// (a function call with a device= attr) into view Vars assigned just before
// the statement holding the dispatch.
class InlineViewHoister : public IRMutator {
 public:
  explicit InlineViewHoister(Context& ctx) : IRMutator(ctx) {}

  const Stmt* MutateStmt(const Stmt* s) override {
    if (!s || Isa<SeqStmt>(s)) return IRMutator::MutateStmt(s);
    std::vector<const Stmt*> outer = std::exchange(pending_, {});
    const Stmt* r = IRMutator::MutateStmt(s);
    std::vector<const Stmt*> hoisted = std::exchange(pending_, std::move(outer));
    if (hoisted.empty()) return r;
    if (r) hoisted.push_back(r);
    return util::Seq(ctx_, std::move(hoisted), s->span);  // spliced into the enclosing Seq
  }

  const Expr* Mutate_Call(const Call* c) override {
    bool dispatch = !c->op && !c->callee.empty() && FindAttr(c->attrs, "device");
    in_dispatch_ += dispatch;
    const Expr* r = IRMutator::Mutate_Call(c);
    in_dispatch_ -= dispatch;
    auto* rc = As<Call>(r);
    if (in_dispatch_ == 0 || !rc || !rc->Is(ops::kPldWindow)) return r;
    const Var* ptr = rc->args.empty() ? nullptr : AsVarLike(rc->args[0]);
    const Var* v =
        ctx_.NewVar(ptr ? ptr->name_hint + "_view" : std::string("view"), rc->type, rc->span);
    pending_.push_back(ctx_.Make<AssignStmt>(v, rc, rc->span));
    return v;
  }

 private:
  std::vector<const Stmt*> pending_;
  int in_dispatch_ = 0;
};

// Pass 1: allocations, views, aliases, dispatch coverage, collective consumers.
class DomainAnalyzer {
 public:
  DomainAnalyzer(DiagnosticEngine& diag, std::map<std::string, Span>* names)
      : diag_(diag), names_(names) {}

  void Run(const Stmt* body) {
    Visit(body);
    Inherit();
  }

  std::vector<Alloc> allocs;
  std::unordered_map<const Var*, int> view_alloc;  // pld.tensor.window results

 private:
  struct Consumer {
    const Call* call;
    int data = -1;
    std::vector<std::pair<int, size_t>> others;  // (alloc, argument index)
  };

  int Resolve(const Expr* e) const {
    // A view or slice of a window written inline (`self.f(pl.tensor.view(w,
    // [1, 1]), device=r)`) is that window.
    while (auto* c = As<Call>(e)) {
      if (!DistOf(c->type) || c->args.empty() ||
          !(c->Is(ops::kTensorView) || c->Is(ops::kTensorSlice)))
        return -1;
      e = c->args[0];
    }
    const Var* v = AsVarLike(e);
    if (!v) return -1;
    auto it = alloc_of_.find(v);
    return it == alloc_of_.end() ? -1 : it->second;
  }
  void Alias(const Var* v, int a, Span at = {}) {
    if (!v || a < 0) return;
    auto [it, fresh] = alloc_of_.emplace(v, a);
    if (!fresh && it->second != a && allocs[it->second].name != allocs[a].name)
      diag_.Error(at.IsKnown() ? at : v->span,
                  fmt::format("'{}' holds views of two window allocations ('{}' and '{}'); a "
                              "host Var must view one allocation (use separate names)",
                              v->name_hint, allocs[it->second].name, allocs[a].name));
  }

  void Visit(const Stmt* s) {
    if (!s) return;
    walk::ForEachOwnExpr(s, [&](const Expr* root) {
      walk::ForEachExpr(root, [&](const Expr* e) {
        if (auto* c = As<Call>(e)) OnCall(c);
      });
    });
    switch (s->kind) {
      case NodeKind::kSeqStmt:
        for (const Stmt* x : Cast<SeqStmt>(s)->stmts) Visit(x);
        return;
      case NodeKind::kAssignStmt:
        return OnAssign(Cast<AssignStmt>(s));
      case NodeKind::kIfStmt: {
        auto* i = Cast<IfStmt>(s);
        Visit(i->then_body);
        Visit(i->else_body);
        auto* ty = As<YieldStmt>(LastStmt(i->then_body));
        auto* ey = i->else_body ? As<YieldStmt>(LastStmt(i->else_body)) : nullptr;
        for (size_t k = 0; k < i->return_vars.size(); ++k) {
          int a = ty && k < ty->values.size() ? Resolve(ty->values[k]) : -1;
          int b = ey && k < ey->values.size() ? Resolve(ey->values[k]) : a;
          if (a >= 0 && a == b) Alias(i->return_vars[k], a);
        }
        return;
      }
      case NodeKind::kForStmt: {
        auto* f = Cast<ForStmt>(s);
        Loop(f->iter_args, f->return_vars);
        for_stack_.push_back(f);
        ++loop_depth_;
        Visit(f->body);
        --loop_depth_;
        for_stack_.pop_back();
        return;
      }
      case NodeKind::kWhileStmt: {
        auto* w = Cast<WhileStmt>(s);
        Loop(w->iter_args, w->return_vars);
        ++loop_depth_;
        Visit(w->body);
        --loop_depth_;
        return;
      }
      default:
        if (auto* sc = As<ScopeStmt>(s)) Visit(sc->body);
        return;
    }
  }

  void Loop(const std::vector<const IterArg*>& ias, const std::vector<const Var*>& rvs) {
    for (size_t k = 0; k < ias.size(); ++k) {
      int a = Resolve(ias[k]->init);
      Alias(ias[k], a);
      if (k < rvs.size()) Alias(rvs[k], a);
    }
  }

  void OnAssign(const AssignStmt* s) {
    const Var* v = s->var;
    defs_[v] = s->value;
    if (int a = Resolve(s->value); a >= 0) return Alias(v, a, s->span);
    auto* c = As<Call>(s->value);
    if (!c || !c->op) return;
    if (c->Is(ops::kPldAllocWindowBuffer)) {
      const Attr* n = FindAttr(c->kwargs, "name");
      std::string name = n && n->kind == Attr::Kind::kString ? n->s : v->name_hint;
      auto [it, fresh] = names_->emplace(name, c->span);
      if (!fresh)
        diag_.Error(c->span, fmt::format("pld.tensor.alloc_window_buffer: window name '{}' is "
                                         "already used by the allocation at {}; every window "
                                         "allocation needs a unique name",
                                         name, Pos(it->second)));
      allocs.push_back({name, c->span, 0, {}});
      alloc_of_[v] = static_cast<int>(allocs.size()) - 1;
      return;
    }
    if (c->Is(ops::kPldWindow)) {
      int a = Resolve(c->args[0]);
      if (a < 0) return;
      ++allocs[a].views;
      view_alloc.emplace(v, a);
      return Alias(v, a, s->span);
    }
    if (const host::CollectiveInfo* info = host::CollectiveOf(c)) {
      if (static_cast<size_t>(info->result_arg) < c->args.size())
        Alias(v, Resolve(c->args[info->result_arg]), s->span);
      return;
    }
    // Views / slices of a window keep its kind: `s = pl.tensor.slice(v, ...)`.
    if (DistOf(c->type) && !c->args.empty()) Alias(v, Resolve(c->args[0]), s->span);
  }

  void OnCall(const Call* c) {
    if (!c->op && !c->callee.empty()) {
      if (const Attr* d = FindAttr(c->attrs, "device")) OnDispatch(c, *d);
      return;
    }
    if (const host::CollectiveInfo* info = host::CollectiveOf(c)) OnCollective(c, *info);
  }

  void OnDispatch(const Call* c, const Attr& device) {
    std::optional<DeviceSet> ds = ResolveDevice(c, device);
    if (!ds) return;
    for (const Expr* a : c->args)
      if (int k = Resolve(a); k >= 0) allocs[k].seen.push_back(*ds);
  }

  // Follows `x = <expr>` definitions so a bound held in a Var is seen.
  const Expr* Unwrap(const Expr* e) const {
    std::set<const Var*> seen;
    while (const Var* v = As<Var>(e)) {
      if (!seen.insert(v).second) break;
      auto it = defs_.find(v);
      if (it == defs_.end()) break;
      e = it->second;
    }
    return e;
  }

  std::optional<DeviceSet> ResolveDevice(const Call* c, const Attr& a) {
    DeviceSet ds;
    std::string what = "self." + c->callee;
    const Expr* e = a.kind == Attr::Kind::kExpr ? a.expr : nullptr;
    // A Var's span is its definition: point at the call for those.
    Span at = e && !AsVarLike(e) && e->span.IsKnown() ? e->span : c->span;
    std::optional<int64_t> cst;
    if (a.kind == Attr::Kind::kInt) cst = a.i;
    if (auto* ci = As<ConstInt>(e)) cst = ci->value;
    if (cst) {
      if (*cst < 0) {
        diag_.Error(
            at, fmt::format("{}: device={} is negative; devices are numbered from 0", what, *cst));
        return std::nullopt;
      }
      ds.devices.insert(*cst);
      return ds;
    }
    const Var* v = e ? AsVarLike(e) : nullptr;
    const ForStmt* loop = nullptr;
    for (auto it = for_stack_.rbegin(); v && it != for_stack_.rend(); ++it)
      if ((*it)->loop_var == v) loop = *it;
    if (!loop) {
      diag_.Error(at, fmt::format("{}: device= must be an integer constant or the loop variable "
                                  "of an enclosing pl.range(N) / "
                                  "pl.range(pld.system.world_size()) loop, got '{}'; the comm "
                                  "domain of the dispatched windows cannot be inferred otherwise",
                                  what, e ? PrintExpr(e) : std::string("?")));
      return std::nullopt;
    }
    auto* start = As<ConstInt>(Unwrap(loop->start));
    auto* step = As<ConstInt>(Unwrap(loop->step));
    const Expr* stop = Unwrap(loop->stop);
    if (!step || step->value != 1) {
      diag_.Error(at, fmt::format("{}: device={} iterates a loop with step {}; comm-domain "
                                  "inference needs a unit-step pl.range loop",
                                  what, v->name_hint, PrintExpr(loop->step)));
      return std::nullopt;
    }
    if (auto* ws = As<Call>(stop); ws && ws->Is(ops::kPldWorldSize)) {
      if (!start || start->value != 0) {
        diag_.Error(at, fmt::format("{}: device={} iterates pl.range({}, "
                                    "pld.system.world_size()); a world_size loop must start at "
                                    "0 (use pl.range(a, b) with constants for a device subset)",
                                    what, v->name_hint, PrintExpr(loop->start)));
        return std::nullopt;
      }
      ds.all = true;
      return ds;
    }
    auto* hi = As<ConstInt>(stop);
    if (!start || !hi || start->value < 0) {
      diag_.Error(at,
                  fmt::format("{}: device={} iterates pl.range({}, {}); comm-domain "
                              "inference needs constant non-negative bounds or "
                              "pl.range(pld.system.world_size())",
                              what, v->name_hint, PrintExpr(loop->start), PrintExpr(loop->stop)));
      return std::nullopt;
    }
    for (int64_t d = start->value; d < hi->value; ++d) ds.devices.insert(d);
    return ds;
  }

  void OnCollective(const Call* c, const host::CollectiveInfo& info) {
    std::string op(info.op->name);
    if (info.op->Is(ops::kPldAllreduce) && c->args.size() < 2) {
      diag_.Error(c->span, op + ": the host allreduce has no signal; run "
                                "synthesize-allreduce-signals before materialize-comm-domain-"
                                "scopes");
      return;
    }
    if (info.op->Is(ops::kPldAllToAllV) && loop_depth_ > 0) {
      diag_.Error(c->span, op + ": not supported inside a for/while loop of a host orchestrator "
                                "(its single-use signal protocol cannot be reused across "
                                "iterations); call it outside the loop");
      return;
    }
    Consumer k{c, -1, {}};
    for (size_t i = 0; i < c->args.size(); ++i) {
      if (!DistOf(c->args[i]->type)) continue;
      int a = Resolve(c->args[i]);
      if (a < 0) {
        diag_.Error(c->span,
                    fmt::format("{}: argument '{}' must be a pld.tensor.window view of a window "
                                "buffer allocated in this host orchestrator, got '{}'",
                                op, host::ArgName(*c, i), PrintExpr(c->args[i])));
        return;
      }
      if (static_cast<int>(i) == info.data_arg)
        k.data = a;
      else
        k.others.push_back({a, i});
    }
    consumers_.push_back(std::move(k));
  }

  // Step 3: window operands inherit their data window's coverage.
  void Inherit() {
    for (const Consumer& k : consumers_) {
      std::string op(k.call->OpName());
      if (k.data >= 0) {
        Alloc& d = allocs[k.data];
        if (d.seen.empty()) {
          d.reported = true;
          for (auto [a, i] : k.others) allocs[a].reported = true;
          diag_.Error(k.call->span,
                      fmt::format("{}: window '{}' is never passed to a device dispatch "
                                  "(self.f(..., device=r)), so the comm domain of the collective "
                                  "cannot be inferred; dispatch it to the participating devices",
                                  op, d.name));
          continue;
        }
        std::vector<DeviceSet> cover = d.seen;
        for (auto [a, i] : k.others)
          allocs[a].seen.insert(allocs[a].seen.end(), cover.begin(), cover.end());
        continue;
      }
      for (auto [a, i] : k.others)
        if (allocs[a].seen.empty() && !std::exchange(allocs[a].reported, true))
          diag_.Error(k.call->span,
                      fmt::format("{}: signal window '{}' is never passed to a device dispatch "
                                  "(self.f(..., device=r)), so the devices taking part cannot be "
                                  "inferred; pass it to the dispatches of the participating ranks",
                                  op, allocs[a].name));
    }
  }

  DiagnosticEngine& diag_;
  std::map<std::string, Span>* names_;
  std::unordered_map<const Var*, int> alloc_of_;
  std::unordered_map<const Var*, const Expr*> defs_;
  std::vector<Consumer> consumers_;
  std::vector<const ForStmt*> for_stack_;
  int loop_depth_ = 0;
};

// Pass 2: binds every view (and alias) Var's type to its allocation.
class ViewBinder : public IRMutator {
 public:
  ViewBinder(Context& ctx, std::unordered_map<const Var*, std::string> views,
             DiagnosticEngine& diag)
      : IRMutator(ctx), views_(std::move(views)), diag_(diag) {}

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    const Expr* v = MutateExpr(s->value);
    std::string wb;
    if (auto it = views_.find(s->var); it != views_.end())
      wb = it->second;
    else if (auto* d = DistOf(v->type))
      wb = d->window_buffer;
    const Var* var = wb.empty() ? MutateVarDef(s->var) : BindDef(s->var, wb);
    if (v == s->value && var == s->var) return s;
    return ctx_.Make<AssignStmt>(var, v, s->span);
  }

  const Stmt* Mutate_ForStmt(const ForStmt* s) override {
    bool changed = false;
    const Expr* start = MutateExpr(s->start);
    const Expr* stop = MutateExpr(s->stop);
    const Expr* step = MutateExpr(s->step);
    changed = start != s->start || stop != s->stop || step != s->step;
    AttrList attrs = MutateAttrs(s->attrs, &changed);
    const Var* lv = MutateVarDef(s->loop_var);
    changed |= lv != s->loop_var;
    std::vector<const IterArg*> ia = BindIterArgs(s->iter_args, &changed);
    const Stmt* body = MutateStmt(s->body);
    changed |= body != s->body;
    std::vector<const Var*> rv = BindResults(ia, s->return_vars, body, s->span, &changed);
    if (!changed) return s;
    return ctx_.Make<ForStmt>(lv, start, stop, step, std::move(ia), body, std::move(rv),
                              s->for_kind, std::move(attrs), s->span);
  }

  const Stmt* Mutate_WhileStmt(const WhileStmt* s) override {
    bool changed = false;
    std::vector<const IterArg*> ia = BindIterArgs(s->iter_args, &changed);
    const Expr* c = MutateExpr(s->cond);
    const Stmt* body = MutateStmt(s->body);
    changed |= c != s->cond || body != s->body;
    std::vector<const Var*> rv = BindResults(ia, s->return_vars, body, s->span, &changed);
    if (!changed) return s;
    return ctx_.Make<WhileStmt>(c, std::move(ia), body, std::move(rv), s->span);
  }

  const Stmt* Mutate_IfStmt(const IfStmt* s) override {
    const Expr* c = MutateExpr(s->cond);
    const Stmt* t = MutateStmt(s->then_body);
    const Stmt* e = MutateStmt(s->else_body);
    bool changed = c != s->cond || t != s->then_body || e != s->else_body;
    auto* ty = As<YieldStmt>(LastStmt(t));
    auto* ey = e ? As<YieldStmt>(LastStmt(e)) : nullptr;
    std::vector<const Var*> rv;
    for (size_t k = 0; k < s->return_vars.size(); ++k) {
      std::string a = ty && k < ty->values.size() ? Bound(ty->values[k]->type) : "";
      std::string b = ey && k < ey->values.size() ? Bound(ey->values[k]->type) : a;
      const Var* x = s->return_vars[k];
      rv.push_back(!a.empty() && a == b && DistOf(x->type) ? BindDef(x, a) : MutateVarDef(x));
      changed |= rv.back() != x;
    }
    if (!changed) return s;
    return ctx_.Make<IfStmt>(c, t, e, std::move(rv), s->span);
  }

 private:
  static std::string Bound(const Type* t) {
    auto* d = DistOf(t);
    return d ? d->window_buffer : std::string();
  }

  const Type* WithBuffer(const Type* t, const std::string& wb) {
    auto* d = DistOf(MutateType(t));
    return ctx_.Make<DistributedTensorType>(d->shape, d->dtype, d->view, wb);
  }

  // The bound replacement of a defined Var (one per Var, so a re-assigned
  // pre-SSA Var stays one Var).
  const Var* BindDef(const Var* v, const std::string& wb) {
    if (!DistOf(v->type)) return MutateVarDef(v);
    if (auto it = minted_.find(v); it != minted_.end()) {
      if (Bound(it->second->type) != wb)
        diag_.Error(v->span, fmt::format("'{}' holds views of two window allocations ('{}' and "
                                         "'{}'); a host Var must view one allocation (use "
                                         "separate names)",
                                         v->name_hint, Bound(it->second->type), wb));
      return it->second;
    }
    if (Bound(v->type) == wb) return v;
    const Var* nv = ctx_.NewVar(v->name_hint, WithBuffer(v->type, wb), v->span);
    minted_[v] = nv;
    Substitute(v, nv);
    return nv;
  }

  std::vector<const IterArg*> BindIterArgs(const std::vector<const IterArg*>& v, bool* changed) {
    std::vector<const IterArg*> out;
    for (const IterArg* ia : v) {
      const Expr* init = MutateExpr(ia->init);
      std::string wb = DistOf(ia->type) ? Bound(init->type) : "";
      const Type* t = wb.empty() ? MutateType(ia->type) : WithBuffer(ia->type, wb);
      if (init != ia->init || t != ia->type) {
        const IterArg* n = ctx_.NewIterArg(ia->name_hint, t, init, ia->span);
        Substitute(ia, n);
        out.push_back(n);
        *changed = true;
      } else {
        out.push_back(ia);
      }
    }
    return out;
  }

  std::vector<const Var*> BindResults(const std::vector<const IterArg*>& ia,
                                      const std::vector<const Var*>& rvs, const Stmt* body,
                                      Span span, bool* changed) {
    auto* y = As<YieldStmt>(LastStmt(body));
    std::vector<const Var*> out;
    for (size_t k = 0; k < rvs.size(); ++k) {
      std::string wb = k < ia.size() ? Bound(ia[k]->type) : "";
      if (!wb.empty() && y && k < y->values.size()) {
        std::string yb = Bound(y->values[k]->type);
        if (yb != wb)
          diag_.Error(y->span.IsKnown() ? y->span : span,
                      fmt::format("loop-carried '{}' enters the loop as a view of window '{}' "
                                  "but the loop yields {}; a carried window view must stay on "
                                  "one allocation",
                                  ia[k]->name_hint, wb,
                                  yb.empty() ? std::string("a value of no window")
                                             : "a view of window '" + yb + "'"));
      }
      out.push_back(wb.empty() ? MutateVarDef(rvs[k]) : BindDef(rvs[k], wb));
      *changed |= out.back() != rvs[k];
    }
    return out;
  }

  std::unordered_map<const Var*, std::string> views_;
  std::unordered_map<const Var*, const Var*> minted_;
  DiagnosticEngine& diag_;
};

bool HasCommDomainScope(const Stmt* body) {
  bool found = false;
  walk::ForEachStmt(body, [&](const Stmt* s) { found |= Isa<CommDomainScopeStmt>(s); });
  return found;
}

const Function* Materialize(Context& ctx, const Function& f, DiagnosticEngine& diag,
                            std::map<std::string, Span>* names) {
  if (HasCommDomainScope(f.body)) return &f;
  int errors = diag.ErrorCount();
  const Stmt* hoisted = InlineViewHoister(ctx).MutateStmt(f.body);
  DomainAnalyzer an(diag, names);
  an.Run(hoisted);
  if (an.allocs.empty()) return &f;
  for (const Alloc& a : an.allocs) {
    if (a.views == 0)
      diag.Error(a.span, fmt::format("pld.tensor.alloc_window_buffer: window '{}' is never viewed "
                                     "with pld.tensor.window (dead allocation); remove it or "
                                     "create a view",
                                     a.name));
    else if (a.seen.empty() && !a.reported)
      diag.Error(a.span, fmt::format("pld.tensor.alloc_window_buffer: no view of window '{}' is "
                                     "passed to a device dispatch (self.f(..., device=r)) or used "
                                     "with a dispatched window in a host collective, so its comm "
                                     "domain cannot be inferred",
                                     a.name));
  }
  if (diag.ErrorCount() > errors) return &f;
  // Domains: allocations with equal merged device sets, in allocation order.
  std::map<DeviceSet, size_t> index;
  std::vector<std::pair<DeviceSet, std::vector<size_t>>> domains;
  for (size_t i = 0; i < an.allocs.size(); ++i) {
    DeviceSet m;
    for (const DeviceSet& d : an.allocs[i].seen) m.Merge(d);
    auto [it, fresh] = index.emplace(m, domains.size());
    if (fresh) domains.push_back({m, {}});
    domains[it->second].second.push_back(i);
  }
  std::unordered_map<const Var*, std::string> views;
  for (auto [v, a] : an.view_alloc) views[v] = an.allocs[a].name;
  ViewBinder binder(ctx, std::move(views), diag);
  const Stmt* body = binder.MutateStmt(hoisted);
  for (size_t i = domains.size(); i-- > 0;) {
    const auto& [ds, members] = domains[i];
    std::vector<std::string> slots;
    for (size_t a : members) slots.push_back(an.allocs[a].name);
    std::vector<int64_t> devices(ds.devices.begin(), ds.devices.end());
    Span span = an.allocs[members.front()].span;
    const Stmt* scope = ctx.Make<CommDomainScopeStmt>(
        fmt::format("comm_d{}", i), std::move(devices), std::move(slots), body, AttrList{}, span);
    body = util::Seq(ctx, {scope}, span);
  }
  Function* nf = util::CloneFunction(ctx, f);
  nf->body = body;
  return nf;
}

class MaterializeCommDomainScopesPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    int errors = diag.ErrorCount();
    std::map<std::string, Span> names;
    std::vector<const Function*> out;
    bool changed = false;
    for (const Function* f : prog.functions) {
      const Function* nf = host::IsHostOrch(*f) ? Materialize(ctx, *f, diag, &names) : f;
      changed |= nf != f;
      out.push_back(nf);
    }
    if (diag.ErrorCount() > errors) return nullptr;
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateMaterializeCommDomainScopesPass() {
  return std::make_unique<MaterializeCommDomainScopesPass>();
}

}  // namespace pypto::passes
