// convert-to-ssa: every Var is bound exactly once afterwards.
//  * A re-assigned Var gets a fresh version at each later assignment; uses see
//    the version reaching them (IRMutator substitution is the environment).
//  * A Var assigned in a loop body that exists before the loop and is live at
//    the loop head (an iteration reads it before writing it, or it is read
//    after the loop) becomes a loop IterArg (init = the version before the
//    loop), the body's final version is yielded, and a return var carries it
//    after the loop. Existing iter_args / yields are kept and extended. A Var
//    the body always writes before reading, and that is dead after the loop,
//    is a body-local temporary: its versions stay inside the body.
//  * A Var assigned in an if branch that exists before the if (or is assigned in
//    both branches) and is live after the if becomes a return var of the
//    IfStmt, with yields in both branches (an else branch is created when
//    missing).
// Liveness: structured_liveness.h (parameters count as read at the end).
// break/continue inside a loop that carries re-assigned values is reported as
// not supported (the yield at the end of the body would not see them).
#include <fmt/format.h>

#include <unordered_set>

#include "pass_util.h"
#include "pypto/ir/mutator.h"
#include "pypto/passes/passes.h"
#include "structured_liveness.h"

namespace pypto::passes {

using namespace ir;

namespace {

// Vars bound by AssignStmts / return vars anywhere in `s`, in first-def order.
std::vector<const Var*> AssignedIn(const Stmt* s) {
  std::vector<const Var*> out;
  std::unordered_set<const Var*> seen;
  class V : public IRVisitor {
   public:
    V(std::vector<const Var*>& o, std::unordered_set<const Var*>& s) : out(o), seen(s) {}
    void Visit_AssignStmt(const AssignStmt* a) override {
      if (seen.insert(a->var).second) out.push_back(a->var);
    }
    std::vector<const Var*>& out;
    std::unordered_set<const Var*>& seen;
  } v(out, seen);
  v.VisitStmt(s);
  return out;
}

// Whether a loop body has a break/continue that belongs to this loop.
bool HasOwnBreakOrContinue(const Stmt* s) {
  class V : public IRVisitor {
   public:
    void Visit_BreakStmt(const BreakStmt*) override { found |= depth == 0; }
    void Visit_ContinueStmt(const ContinueStmt*) override { found |= depth == 0; }
    void Visit_ForStmt(const ForStmt* f) override {
      ++depth;
      IRVisitor::Visit_ForStmt(f);
      --depth;
    }
    void Visit_WhileStmt(const WhileStmt* w) override {
      ++depth;
      IRVisitor::Visit_WhileStmt(w);
      --depth;
    }
    bool found = false;
    int depth = 0;
  } v;
  v.VisitStmt(s);
  return v.found;
}

class SSAConverter : public IRMutator {
 public:
  SSAConverter(Context& ctx, DiagnosticEngine& diag, const StructuredLiveness& live)
      : IRMutator(ctx), diag_(diag), live_(live) {}

  void DefineParams(const Function& f) {
    for (const Var* p : f.params) {
      defined_.insert(p);
      ever_.insert(p);
    }
  }

  const Var* MutateVarDef(const Var* v) override {
    if (!v) return nullptr;
    defined_.insert(v);
    if (ever_.insert(v).second) return IRMutator::MutateVarDef(v);
    // Re-definition: a fresh version (typed like its value when the value only
    // adds a tile memory space the name's first type left open).
    const Var* nv = ctx_.NewVar(v->name_hint, refined_ ? refined_ : MutateType(v->type), v->span);
    Substitute(v, nv);
    return nv;
  }

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    const Expr* v = MutateExpr(s->value);
    const auto* vt = As<TileType>(v->type);
    const auto* dt = As<TileType>(s->var->type);
    refined_ = vt && dt && vt->memory_space && !dt->memory_space ? vt : nullptr;
    const Var* var = MutateVarDef(s->var);
    refined_ = nullptr;
    if (v == s->value && var == s->var) return s;
    return ctx_.Make<AssignStmt>(var, v, s->span);
  }

  // The current version of `v` (itself when never renamed).
  const Expr* Current(const Var* v) {
    const Expr* e = Substitution(v);
    return e ? e : v;
  }

  const Stmt* Mutate_ForStmt(const ForStmt* s) override {
    std::vector<const Var*> carried = Carried(s, s->body);
    LocalVersions locals = SaveLocals(s, s->body);
    if (!carried.empty() && HasOwnBreakOrContinue(s->body))
      diag_.Error(s->span,
                  fmt::format("convert-to-ssa: 'break'/'continue' in a loop that re-assigns '{}' "
                              "is not supported; restructure the loop with a condition",
                              carried[0]->name_hint));
    const Expr* start = MutateExpr(s->start);
    const Expr* stop = MutateExpr(s->stop);
    const Expr* step = MutateExpr(s->step);
    bool ch = false;
    AttrList attrs = MutateAttrs(s->attrs, &ch);
    const Var* lv = MutateVarDef(s->loop_var);
    std::unordered_set<const Var*> scope = defined_;
    std::vector<const IterArg*> ias = MutateIterArgs(s->iter_args, &ch);
    for (const IterArg* ia : s->iter_args) defined_.insert(ia);
    std::vector<const IterArg*> new_ias = OpenCarried(carried);
    ias.insert(ias.end(), new_ias.begin(), new_ias.end());
    const Stmt* body = CloseBody(MutateStmt(s->body), carried, s->span);
    defined_ = std::move(scope);  // names first bound in the body end with it
    RestoreLocals(locals);
    std::vector<const Var*> rvs = MutateVarDefs(s->return_vars, &ch);
    for (const Var* v : carried) rvs.push_back(BindResult(v));
    return ctx_.Make<ForStmt>(lv, start, stop, step, std::move(ias), body, std::move(rvs),
                              s->for_kind, std::move(attrs), s->span);
  }

  const Stmt* Mutate_WhileStmt(const WhileStmt* s) override {
    std::vector<const Var*> carried = Carried(s, s->body);
    LocalVersions locals = SaveLocals(s, s->body);
    if (!carried.empty() && HasOwnBreakOrContinue(s->body))
      diag_.Error(s->span,
                  fmt::format("convert-to-ssa: 'break'/'continue' in a loop that re-assigns '{}' "
                              "is not supported; restructure the loop with a condition",
                              carried[0]->name_hint));
    bool ch = false;
    std::unordered_set<const Var*> scope = defined_;
    std::vector<const IterArg*> ias = MutateIterArgs(s->iter_args, &ch);
    for (const IterArg* ia : s->iter_args) defined_.insert(ia);
    std::vector<const IterArg*> new_ias = OpenCarried(carried);
    ias.insert(ias.end(), new_ias.begin(), new_ias.end());
    const Expr* cond = MutateExpr(s->cond);
    const Stmt* body = CloseBody(MutateStmt(s->body), carried, s->span);
    defined_ = std::move(scope);
    RestoreLocals(locals);
    std::vector<const Var*> rvs = MutateVarDefs(s->return_vars, &ch);
    for (const Var* v : carried) rvs.push_back(BindResult(v));
    return ctx_.Make<WhileStmt>(cond, std::move(ias), body, std::move(rvs), s->span);
  }

  const Stmt* Mutate_IfStmt(const IfStmt* s) override {
    const Expr* cond = MutateExpr(s->cond);
    auto before_subst = subst_;
    auto before_def = defined_;
    const Stmt* then_b = MutateStmt(s->then_body);
    auto then_subst = subst_;
    auto then_def = defined_;
    subst_ = before_subst;
    // The else branch sees only what was in scope before the if (a Var first
    // bound in the then-branch and bound again here gets a fresh version, as
    // every re-binding does).
    defined_ = before_def;
    const Stmt* else_b = s->else_body ? MutateStmt(s->else_body) : nullptr;
    auto else_subst = subst_;

    // Merged Vars: assigned in a branch and existing before, or assigned in
    // both, and live after the if. A Var that existed before and is dead after
    // the if keeps its version from before (its branch versions end there).
    std::vector<const Var*> merged, dead;
    std::unordered_set<const Var*> seen;
    std::vector<const Var*> assigned = AssignedIn(s->then_body);
    for (const Var* v : AssignedIn(s->else_body)) assigned.push_back(v);
    for (const Var* v : assigned) {
      if (!seen.insert(v).second) continue;
      bool before = before_def.count(v) > 0;
      bool both = then_def.count(v) && else_subst.count(v) && !before_def.count(v);
      if (!before && !both) continue;
      (live_.LiveAt(s, v) ? merged : dead).push_back(v);
    }
    auto version = [&](const std::unordered_map<const Var*, const Expr*>& m, const Var* v) {
      auto it = m.find(v);
      return it == m.end() ? static_cast<const Expr*>(v) : it->second;
    };
    subst_ = before_subst;
    for (const auto& [k, v] : then_subst) subst_.emplace(k, v);
    for (const auto& [k, v] : else_subst) subst_.emplace(k, v);
    for (const Var* v : dead) {
      auto it = before_subst.find(v);
      if (it != before_subst.end())
        subst_[v] = it->second;
      else
        subst_.erase(v);
    }
    defined_ = before_def;  // + the merged Vars below: one-branch names end with it
    bool ch = false;
    std::vector<const Var*> rvs = MutateVarDefs(s->return_vars, &ch);
    if (merged.empty()) return ctx_.Make<IfStmt>(cond, then_b, else_b, std::move(rvs), s->span);
    std::vector<const Expr*> tv, ev;
    for (const Var* v : merged) {
      tv.push_back(version(then_subst, v));
      ev.push_back(version(else_subst, v));
    }
    then_b = AppendYield(then_b, tv, s->span);
    else_b = AppendYield(else_b, ev, s->span);
    for (const Var* v : merged) {
      const Var* rv = ctx_.NewVar(v->name_hint, v->type, s->span);
      rvs.push_back(rv);
      defined_.insert(v);
      Substitute(v, rv);
    }
    return ctx_.Make<IfStmt>(cond, then_b, else_b, std::move(rvs), s->span);
  }

 private:
  const Type* refined_ = nullptr;  // see Mutate_AssignStmt
  // Assigned in `body`, already defined and live at the loop head: carried
  // through the loop.
  std::vector<const Var*> Carried(const Stmt* loop, const Stmt* body) {
    std::vector<const Var*> out;
    for (const Var* v : AssignedIn(body))
      if (defined_.count(v) && live_.LiveAt(loop, v)) out.push_back(v);
    return out;
  }
  // Assigned in `body`, already defined but dead at the loop head: their
  // current versions before the loop, restored after it (the body's versions
  // are local to the body).
  using LocalVersions = std::vector<std::pair<const Var*, const Expr*>>;
  LocalVersions SaveLocals(const Stmt* loop, const Stmt* body) {
    LocalVersions out;
    for (const Var* v : AssignedIn(body))
      if (defined_.count(v) && !live_.LiveAt(loop, v)) out.push_back({v, Substitution(v)});
    return out;
  }
  void RestoreLocals(const LocalVersions& locals) {
    for (const auto& [v, e] : locals) {
      if (e)
        Substitute(v, e);
      else
        subst_.erase(v);
    }
  }
  std::vector<const IterArg*> OpenCarried(const std::vector<const Var*>& carried) {
    std::vector<const IterArg*> out;
    for (const Var* v : carried) {
      const IterArg* ia = ctx_.NewIterArg(v->name_hint, v->type, Current(v), v->span);
      Substitute(v, ia);
      out.push_back(ia);
    }
    return out;
  }
  const Stmt* CloseBody(const Stmt* body, const std::vector<const Var*>& carried, Span span) {
    if (carried.empty()) return body;
    std::vector<const Expr*> vals;
    for (const Var* v : carried) vals.push_back(Current(v));
    return AppendYield(body, vals, span);
  }
  const Var* BindResult(const Var* v) {
    const Var* rv = ctx_.NewVar(v->name_hint, v->type, v->span);
    Substitute(v, rv);
    return rv;
  }
  // Appends `vals` to the body's trailing yield (or adds one).
  const Stmt* AppendYield(const Stmt* body, const std::vector<const Expr*>& vals, Span span) {
    std::vector<const Stmt*> stmts = util::StmtList(body);
    if (!stmts.empty())
      if (auto* y = As<YieldStmt>(stmts.back())) {
        std::vector<const Expr*> all = y->values;
        all.insert(all.end(), vals.begin(), vals.end());
        stmts.back() = ctx_.Make<YieldStmt>(std::move(all), y->span);
        return util::Seq(ctx_, std::move(stmts), body->span);
      }
    stmts.push_back(ctx_.Make<YieldStmt>(vals, span));
    return util::Seq(ctx_, std::move(stmts), body ? body->span : span);
  }

  DiagnosticEngine& diag_;
  const StructuredLiveness& live_;
  // Vars in scope at the current point (a loop body's or branch's own names end
  // with it), and Vars bound anywhere so far (a later binding is a new version).
  std::unordered_set<const Var*> defined_;
  std::unordered_set<const Var*> ever_;
};

class ConvertToSSAPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::vector<const Function*> out;
    bool changed = false;
    for (const Function* f : prog.functions) {
      StructuredLiveness live(f->body, f->params);
      SSAConverter c(ctx, diag, live);
      c.DefineParams(*f);
      const Stmt* body = c.MutateStmt(f->body);
      if (body == f->body) {
        out.push_back(f);
        continue;
      }
      changed = true;
      Function* nf = util::CloneFunction(ctx, *f);
      nf->body = body;
      out.push_back(nf);
    }
    if (diag.HasErrors()) return nullptr;
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateConvertToSSAPass() { return std::make_unique<ConvertToSSAPass>(); }

}  // namespace pypto::passes
