// outline-incore-scopes: every `with pl.at(level=pl.Level.CORE_GROUP):` region of
// an Opaque or Orchestration function becomes an InCore function
// `<parent>_incore_<n>` (inserted before the parent) and the region is replaced
// by a call to it.
//   params  = live-ins of the region: tensors first, then the other values, each
//             group in first-use order; direction Out when the kernel only writes
//             the param, InOut when it reads and writes it, else In (per the op
//             registry's declared argument effects);
//   returns = values defined inside the region and used elsewhere in the parent
//             (uses inside another region that defines the value before reading
//             it, e.g. a scratch scalar re-computed in each task, do not count).
// Inside the kernel every live-in is replaced by its param and every returned
// value by a fresh Var, so no Var is bound in two functions; the parent keeps its
// own Vars (a re-assigned live-in stays re-assigned), so non-SSA input keeps its
// meaning. An Opaque parent becomes Orchestration, except the host orchestrator.
// A task's "task_id" / "deps" attrs move to the call (pl.manual_scope ordering
// survives outlining); its other attrs become the kernel's attrs. A scope that
// registers pld.system.defer_wait conditions must keep the V1 waiter contract
// (defer_wait_waiter.h); its kernel carries the waiter mark, and a kernel of the
// input that registers conditions must carry it too (and is revalidated).
#include <fmt/format.h>

#include <unordered_set>

#include "defer_wait_waiter.h"
#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;
using util::CollectVarUses;
using util::VarUses;

namespace {

// Rejects control flow that would escape the region (return / break / continue
// of an enclosing loop).
class EscapeChecker : public IRVisitor {
 public:
  explicit EscapeChecker(DiagnosticEngine& d) : diag_(d) {}
  void Visit_ReturnStmt(const ReturnStmt* s) override {
    diag_.Error(s->span,
                "pl.at(level=pl.Level.CORE_GROUP): 'return' inside an InCore scope is not "
                "supported; compute values in the scope and return after it");
  }
  void Visit_BreakStmt(const BreakStmt* s) override {
    if (loop_depth_ == 0)
      diag_.Error(s->span,
                  "pl.at(level=pl.Level.CORE_GROUP): 'break' out of an InCore scope is not "
                  "supported; keep the loop inside the scope");
  }
  void Visit_ContinueStmt(const ContinueStmt* s) override {
    if (loop_depth_ == 0)
      diag_.Error(s->span,
                  "pl.at(level=pl.Level.CORE_GROUP): 'continue' out of an InCore scope is not "
                  "supported; keep the loop inside the scope");
  }
  void Visit_ForStmt(const ForStmt* s) override {
    ++loop_depth_;
    IRVisitor::Visit_ForStmt(s);
    --loop_depth_;
  }
  void Visit_WhileStmt(const WhileStmt* s) override {
    ++loop_depth_;
    IRVisitor::Visit_WhileStmt(s);
    --loop_depth_;
  }

 private:
  DiagnosticEngine& diag_;
  int loop_depth_ = 0;
};

// Per region, its uses of values it defines before reading them (private to it),
// and for every Var the number of regions that define it.
struct RegionUses {
  std::unordered_map<const Stmt*, std::unordered_map<const Var*, int>> priv;
  std::unordered_map<const Var*, int> def_regions;
};

RegionUses CollectRegionUses(const Stmt* body) {
  RegionUses out;
  walk::ForEachStmt(body, [&](const Stmt* st) {
    auto* ic = As<InCoreScopeStmt>(st);
    if (!ic) return;
    VarUses in = CollectVarUses(ic->body, /*include_types=*/true);
    for (const Var* v : in.def_order) ++out.def_regions[v];
    auto& priv = out.priv[ic];
    for (const auto& [v, n] : in.uses) {
      auto d = in.first_def.find(v);
      if (d != in.first_def.end() && d->second < in.first_use.at(v)) priv[v] = n;
    }
  });
  return out;
}

class Outliner : public IRMutator {
 public:
  Outliner(Context& ctx, const Program& prog, const Function& parent, const VarUses& all,
           RegionUses regions, std::unordered_set<const Var*> params,
           std::unordered_set<const Var*> globals, DiagnosticEngine& diag)
      : IRMutator(ctx),
        prog_(prog),
        parent_(parent),
        all_(all),
        regions_(std::move(regions)),
        priv_(regions_.priv),
        parent_params_(std::move(params)),
        globals_(std::move(globals)),
        diag_(diag) {
    for (const auto& [region, uses] : priv_)
      for (const auto& [v, n] : uses) priv_total_[v] += n;
  }

  std::vector<const Function*> outlined;

  const Stmt* Mutate_InCoreScopeStmt(const InCoreScopeStmt* s) override {
    EscapeChecker esc(diag_);
    esc.VisitStmt(s->body);
    VarUses in = CollectVarUses(s->body, /*include_types=*/true);

    // Live-ins: used inside, not a module-level symbol, and either never defined
    // inside or defined outside too and read inside before its first inner def.
    std::vector<const Var*> tensors, others;
    for (const Var* v : in.use_order) {
      if (globals_.count(v)) continue;
      auto d = in.defs.find(v);
      bool defined_inside = d != in.defs.end();
      if (defined_inside) {
        bool defined_outside = parent_params_.count(v) || all_.defs.at(v) > d->second;
        if (!defined_outside || in.first_def.at(v) < in.first_use.at(v)) continue;
      }
      (util::TensorTypeOf(v) ? tensors : others).push_back(v);
    }
    std::vector<const Var*> live_ins = tensors;
    live_ins.insert(live_ins.end(), others.begin(), others.end());

    // Returns: defined inside and used outside the region.
    std::vector<const Var*> rets;
    for (const Var* v : in.def_order) {
      if (Isa<IterArg>(v)) continue;
      auto it = all_.uses.find(v);
      int inner = in.uses.count(v) ? in.uses.at(v) : 0;
      // Uses private to other regions are not uses of this region's value.
      int priv_elsewhere = priv_total_.count(v) ? priv_total_.at(v) : 0;
      if (auto r = priv_.find(s); r != priv_.end() && r->second.count(v))
        priv_elsewhere -= r->second.at(v);
      if (it != all_.uses.end() && it->second - priv_elsewhere > inner) rets.push_back(v);
    }

    // Kernel body: live-ins -> params, returned values -> fresh Vars.
    // A live-in the region also re-assigns (`out = pl.store(t, [0, 0], out)`)
    // is copied into a local first (`out_l = out`): parameters are never assigned.
    IRMutator km(ctx_);
    std::vector<const Var*> kparams, kinner;
    std::vector<const Stmt*> prologue;
    std::unordered_map<const Var*, const Var*> kmap;
    for (const Var* v : live_ins) {
      const Var* p = ctx_.NewVar(v->name_hint, v->type, v->span);
      const Var* inner = p;
      if (in.defs.count(v)) {
        inner = ctx_.NewVar(v->name_hint, v->type, v->span);
        prologue.push_back(ctx_.Make<AssignStmt>(inner, p, s->span));
      }
      kparams.push_back(p);
      kinner.push_back(inner);
      kmap[v] = inner;
      km.Substitute(v, inner);
    }
    for (const Var* v : rets) {
      if (kmap.count(v)) continue;
      const Var* nv = ctx_.NewVar(v->name_hint, v->type, v->span);
      kmap[v] = nv;
      km.Substitute(v, nv);
    }
    // A value several regions define (a scratch scalar per task) gets a fresh
    // Var in each kernel, so no Var is bound in two functions.
    for (const Var* v : in.def_order) {
      if (kmap.count(v) || Isa<IterArg>(v) || regions_.def_regions[v] < 2) continue;
      const Var* nv = ctx_.NewVar(v->name_hint, v->type, v->span);
      kmap[v] = nv;
      km.Substitute(v, nv);
    }
    const Stmt* kbody = km.MutateStmt(s->body);
    std::vector<const Stmt*> kstmts = prologue;
    for (const Stmt* st : util::StmtList(kbody)) kstmts.push_back(st);
    std::vector<const Expr*> kret;
    std::vector<const Type*> kret_types;
    for (const Var* v : rets) {
      kret.push_back(kmap.at(v));
      kret_types.push_back(v->type);
    }
    kstmts.push_back(ctx_.Make<ReturnStmt>(kret, s->span));

    Function* k = ctx_.Make<Function>();
    k->name = fmt::format("{}_incore_{}", parent_.name, counter_++);
    while (prog_.Find(k->name)) k->name += "_";
    k->params = kparams;
    auto access = util::AnalyzeAccess(&prog_, kbody);
    for (size_t i = 0; i < kparams.size(); ++i) {
      const Var* p = kparams[i];
      auto it = access.find(kinner[i]);
      k->param_dirs.push_back(util::TensorTypeOf(p) && it != access.end()
                                  ? util::DirectionOf(it->second)
                                  : ParamDirection::kIn);
    }
    k->return_types = kret_types;
    k->body = util::Seq(ctx_, std::move(kstmts), s->span);
    k->func_type = FunctionType::kInCore;
    k->span = s->span;
    if (s->split != SplitMode::kNone)
      k->attrs.push_back({"split", Attr::Enum(EnumKind::kSplitMode, static_cast<int>(s->split))});
    // A task's id and deps (see ManualScopeStmt) stay with the launch: they move
    // to the call's attrs; the other scope attrs (name_hint=, ...) go to the kernel.
    AttrList call_attrs;
    for (const auto& a : s->attrs)
      (a.name == "task_id" || a.name == "deps" ? call_attrs : k->attrs).push_back(a);
    // A waiter scope (checked by CheckDeferWaitWaiters) becomes a marked waiter kernel.
    if (RegistersDeferredConditions(kbody))
      k->attrs.push_back({kDeferWaitWaiterAttr, Attr::Bool(true)});
    outlined.push_back(k);

    // Call site in the parent (args are the parent's own Vars, substituted as
    // the rest of the parent is).
    IRBuilder b(ctx_);
    b.SetSpan(s->span);
    std::vector<const Expr*> args;
    for (const Var* v : live_ins) args.push_back(MutateExpr(v));
    const Call* call = b.CallFunction(*k, args, std::move(call_attrs));
    if (rets.empty()) return ctx_.Make<EvalStmt>(call, s->span);
    if (rets.size() == 1) return ctx_.Make<AssignStmt>(MutateVarDef(rets[0]), call, s->span);
    const Var* tup = ctx_.NewVar(k->name + "_ret", call->type, s->span);
    std::vector<const Stmt*> out{ctx_.Make<AssignStmt>(tup, call, s->span)};
    for (size_t i = 0; i < rets.size(); ++i)
      out.push_back(ctx_.Make<AssignStmt>(
          MutateVarDef(rets[i]),
          ctx_.Make<TupleGetItem>(tup, static_cast<int64_t>(i), rets[i]->type, s->span), s->span));
    return util::Seq(ctx_, std::move(out), s->span);
  }

 private:
  const Program& prog_;
  const Function& parent_;
  const VarUses& all_;
  RegionUses regions_;
  const std::unordered_map<const Stmt*, std::unordered_map<const Var*, int>>& priv_;
  std::unordered_map<const Var*, int> priv_total_;
  std::unordered_set<const Var*> parent_params_;
  std::unordered_set<const Var*> globals_;
  DiagnosticEngine& diag_;
  int counter_ = 0;
};

class OutlineIncoreScopesPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::vector<const Function*> out;
    bool changed = false;
    std::unordered_set<const Var*> globals(prog.dynamic_dims.begin(), prog.dynamic_dims.end());
    CheckDeferWaitKernels(prog, diag);
    for (const Function* f : prog.functions) {
      if (f->func_type != FunctionType::kOpaque && f->func_type != FunctionType::kOrchestration) {
        out.push_back(f);
        continue;
      }
      CheckDeferWaitWaiters(*f, diag);
      VarUses all = CollectVarUses(f->body, /*include_types=*/true);
      Outliner o(ctx, prog, *f, all, CollectRegionUses(f->body),
                 std::unordered_set<const Var*>(f->params.begin(), f->params.end()), globals, diag);
      const Stmt* body = o.MutateStmt(f->body);
      if (o.outlined.empty()) {
        out.push_back(f);
        continue;
      }
      changed = true;
      out.insert(out.end(), o.outlined.begin(), o.outlined.end());
      Function* nf = util::CloneFunction(ctx, *f);
      nf->body = body;
      if (nf->func_type == FunctionType::kOpaque && !nf->IsHostOrchestrator())
        nf->func_type = FunctionType::kOrchestration;
      out.push_back(nf);
    }
    if (diag.HasErrors()) return nullptr;
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateOutlineIncoreScopesPass() {
  return std::make_unique<OutlineIncoreScopesPass>();
}

}  // namespace pypto::passes
