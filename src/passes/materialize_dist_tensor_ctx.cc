// materialize-dist-tensor-ctx: makes the communication context of every
// DistributedTensor parameter an explicit argument.
//  * Every function except the host orchestrator gets one `pld.CommCtx`
//    parameter per DistributedTensor parameter, appended in order and named
//    `<param>_ctx` (direction In).
//  * Every call of such a function passes the ctx of each DistributedTensor
//    argument: in a non-host caller, the ctx param of the caller's
//    DistributedTensor param the argument derives from (directly, or through
//    views / slices / aliases / loop carries); in the host orchestrator, a fresh
//    `<arg>_ctx = pld.system.get_comm_ctx(<arg>)` right before the call.
//  * In non-host functions, `pld.system.get_comm_ctx(p)` is replaced by p's ctx
//    param (an assignment `c = pld.system.get_comm_ctx(p)` disappears, uses of c
//    see the param).
//  * A name bound from a function call result (`stage = self.k(inp, stage)`, or
//    an element of a tuple result) that the callee returns as one of its
//    DistributedTensor arguments (returned_params.h) has that argument's ctx.
// A program whose functions already carry their ctx params is left unchanged.
#include <fmt/format.h>

#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"
#include "returned_params.h"

namespace pypto::passes {

using namespace ir;

namespace {

std::vector<size_t> DistParams(const Function& f) {
  std::vector<size_t> out;
  for (size_t i = 0; i < f.params.size(); ++i)
    if (Isa<DistributedTensorType>(f.params[i]->type)) out.push_back(i);
  return out;
}

bool AlreadyMaterialized(const Program& p) {
  bool any_dist = false;
  for (const Function* f : p.functions) {
    if (f->IsHostOrchestrator()) continue;
    size_t nd = DistParams(*f).size(), nc = 0;
    for (const Var* v : f->params) nc += Isa<CommCtxType>(v->type);
    if (nd > 0) any_dist = true;
    if (nd > 0 && nc < nd) return false;
  }
  return any_dist;
}

class CtxThreader : public IRMutator {
 public:
  CtxThreader(Context& ctx, const Program& prog, const Function& f,
              std::unordered_map<const Var*, const Var*> param_ctx, ReturnedParams& returned,
              DiagnosticEngine& diag)
      : IRMutator(ctx),
        prog_(prog),
        f_(f),
        host_(f.IsHostOrchestrator()),
        ctx_of_(std::move(param_ctx)),
        returned_(returned),
        diag_(diag),
        b_(ctx) {}

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    if (!host_) {
      if (auto* c = As<Call>(s->value); c && c->Is(ops::kPldGetCommCtx)) {
        if (const Var* cv = CtxOfArg(c->args[0], s->span)) {
          Substitute(s->var, cv);
          return nullptr;
        }
      }
    }
    cur_span_ = s->span;
    const Stmt* r = IRMutator::Mutate_AssignStmt(s);
    // Track derivations: a DistributedTensor defined from another one inherits its ctx.
    if (auto* a = As<AssignStmt>(r); a && !host_) TrackCallResult(a, s);
    if (auto* a = As<AssignStmt>(r);
        a && Isa<DistributedTensorType>(a->var->type) && !ctx_of_.count(a->var)) {
      if (const Var* src = DerivedFrom(a->value)) {
        auto it = ctx_of_.find(src);
        if (it != ctx_of_.end()) ctx_of_[a->var] = it->second;
      }
    }
    return Flush(r, s->span);
  }
  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    cur_span_ = s->span;
    return Flush(IRMutator::Mutate_EvalStmt(s), s->span);
  }
  const Stmt* Mutate_ForStmt(const ForStmt* s) override {
    for (const IterArg* ia : s->iter_args)
      if (const Var* src = AsVarLike(ia->init))
        if (ctx_of_.count(src)) ctx_of_[ia] = ctx_of_[src];
    const Stmt* r = IRMutator::Mutate_ForStmt(s);
    if (auto* f = As<ForStmt>(r))
      for (size_t i = 0; i < f->iter_args.size() && i < s->iter_args.size(); ++i) {
        if (ctx_of_.count(s->iter_args[i])) ctx_of_[f->iter_args[i]] = ctx_of_[s->iter_args[i]];
        if (i < f->return_vars.size() && ctx_of_.count(s->iter_args[i]))
          ctx_of_[f->return_vars[i]] = ctx_of_[s->iter_args[i]];
      }
    return r;
  }

  const Stmt* Mutate_WhileStmt(const WhileStmt* s) override {
    for (const IterArg* ia : s->iter_args)
      if (const Var* src = AsVarLike(ia->init))
        if (ctx_of_.count(src)) ctx_of_[ia] = ctx_of_[src];
    const Stmt* r = IRMutator::Mutate_WhileStmt(s);
    if (auto* w = As<WhileStmt>(r))
      for (size_t i = 0; i < w->iter_args.size() && i < s->iter_args.size(); ++i) {
        if (!ctx_of_.count(s->iter_args[i])) continue;
        ctx_of_[w->iter_args[i]] = ctx_of_[s->iter_args[i]];
        if (i < s->return_vars.size()) ctx_of_[s->return_vars[i]] = ctx_of_[s->iter_args[i]];
        if (i < w->return_vars.size()) ctx_of_[w->return_vars[i]] = ctx_of_[s->iter_args[i]];
      }
    return r;
  }
  // An if's DistributedTensor return var has the ctx of what its branches yield.
  const Stmt* Mutate_IfStmt(const IfStmt* s) override {
    const Stmt* r = IRMutator::Mutate_IfStmt(s);
    const auto* n = As<IfStmt>(r);
    for (const Stmt* branch : {s->then_body, s->else_body}) {
      const YieldStmt* y = util::TrailingYield(branch);
      for (size_t i = 0; y && i < y->values.size() && i < s->return_vars.size(); ++i) {
        const Var* src = DerivedFrom(y->values[i]);
        auto it = src ? ctx_of_.find(src) : ctx_of_.end();
        if (it == ctx_of_.end() || ctx_of_.count(s->return_vars[i])) continue;
        ctx_of_[s->return_vars[i]] = it->second;
        if (n && i < n->return_vars.size()) ctx_of_[n->return_vars[i]] = it->second;
      }
    }
    return r;
  }

  const Expr* Mutate_Call(const Call* c) override {
    if (!host_ && c->Is(ops::kPldGetCommCtx)) {
      if (const Var* cv = CtxOfArg(c->args[0], cur_span_)) return cv;
      return c;
    }
    const Expr* r = IRMutator::Mutate_Call(c);
    if (c->op) return r;
    const Function* callee = prog_.Find(c->callee);
    if (!callee || callee->IsHostOrchestrator()) return r;
    std::vector<size_t> dist = DistParams(*callee);
    if (dist.empty()) return r;
    auto* rc = Cast<Call>(r);
    std::vector<const Expr*> args = rc->args;
    for (size_t i : dist) {
      if (i >= c->args.size()) return r;
      if (host_) {
        const Expr* a = args[i];
        b_.SetSpan(cur_span_);
        const Call* q = b_.TryOp(ops::kPldGetCommCtx, {a}, {}, {}, diag_);
        if (!q) return r;
        std::string base = "comm";
        if (auto* v = AsVarLike(c->args[i])) base = v->name_hint;
        const Var* cv = ctx_.NewVar(base + "_ctx", q->type, cur_span_);
        pre_.push_back(ctx_.Make<AssignStmt>(cv, q, cur_span_));
        args.push_back(cv);
      } else {
        const Var* cv = CtxOfArg(c->args[i], cur_span_);
        if (!cv) return r;
        args.push_back(cv);
      }
    }
    return ctx_.Make<Call>(nullptr, rc->callee, std::move(args), rc->kwargs, rc->attrs, rc->type,
                           rc->span);
  }

 private:
  const Stmt* Flush(const Stmt* r, Span span) {
    if (pre_.empty()) return r;
    std::vector<const Stmt*> out = std::move(pre_);
    pre_.clear();
    if (r) out.push_back(r);
    return util::Seq(ctx_, std::move(out), span);
  }

  // The known ctx of a DistributedTensor argument (as written or after
  // substitution), or null.
  const Var* KnownCtx(const Expr* e) {
    const Var* v = AsVarLike(e);
    if (!v) return nullptr;
    auto it = ctx_of_.find(v);
    if (it != ctx_of_.end()) return it->second;
    if (const Var* s = AsVarLike(Substitution(v))) {
      it = ctx_of_.find(s);
      if (it != ctx_of_.end()) return it->second;
    }
    return nullptr;
  }

  // `x = self.f(...)` / `t = self.f(...)` then `x = t[i]`: a result that f
  // returns as one of its DistributedTensor arguments has that argument's ctx.
  void TrackCallResult(const AssignStmt* a, const AssignStmt* orig) {
    if (auto* g = As<TupleGetItem>(a->value)) {
      const Var* t = AsVarLike(g->tuple);
      auto it = t ? tuple_ctx_.find(t) : tuple_ctx_.end();
      if (it != tuple_ctx_.end() && g->index >= 0 &&
          static_cast<size_t>(g->index) < it->second.size() && it->second[g->index])
        ctx_of_[a->var] = it->second[g->index];
      return;
    }
    auto* c = As<Call>(orig->value);
    if (!c || c->op) return;
    std::vector<const Var*> ctxs;
    for (int p : returned_.Of(c->callee))
      ctxs.push_back(p >= 0 && static_cast<size_t>(p) < c->args.size() ? KnownCtx(c->args[p])
                                                                       : nullptr);
    if (Isa<TupleType>(a->var->type)) {
      tuple_ctx_[a->var] = std::move(ctxs);
    } else if (ctxs.size() == 1 && ctxs[0] && Isa<DistributedTensorType>(a->var->type)) {
      ctx_of_[a->var] = ctxs[0];
    }
  }

  // The DistributedTensor an expression is a view/alias/write-back of: a plain
  // Var, or the first DistributedTensor Var argument of an op (a view's input,
  // `pl.tile.store(t, offs, dst)`'s dst, `pl.tensor.assemble(dst, src, offs)`'s
  // dst, a collective's target).
  const Var* DerivedFrom(const Expr* e) {
    if (auto* v = AsVarLike(e)) return v;
    if (auto* c = As<Call>(e); c && c->op)
      for (const Expr* a : c->args)
        if (auto* v = AsVarLike(a); v && Isa<DistributedTensorType>(v->type)) return v;
    return nullptr;
  }

  const Var* CtxOfArg(const Expr* e, Span span) {
    const Var* v = AsVarLike(e);
    if (v) {
      if (const Expr* s = Substitution(v)) v = AsVarLike(s) ? AsVarLike(s) : v;
      auto it = ctx_of_.find(v);
      if (it == ctx_of_.end()) it = ctx_of_.find(AsVarLike(e));
      if (it != ctx_of_.end()) return it->second;
    }
    diag_.Error(e->span.IsKnown() ? e->span : span,
                fmt::format("materialize-dist-tensor-ctx: cannot find the communication context "
                            "of '{}' in function '{}'; pass a DistributedTensor parameter (or a "
                            "view of one)",
                            v ? v->name_hint : std::string("<expr>"), f_.name));
    return nullptr;
  }

  const Program& prog_;
  const Function& f_;
  bool host_;
  std::unordered_map<const Var*, const Var*> ctx_of_;
  // Per tuple Var bound from a function call: the ctx of each element (or null).
  std::unordered_map<const Var*, std::vector<const Var*>> tuple_ctx_;
  ReturnedParams& returned_;
  DiagnosticEngine& diag_;
  IRBuilder b_;
  Span cur_span_;
  std::vector<const Stmt*> pre_;
};

class MaterializeDistTensorCtxPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    if (AlreadyMaterialized(prog)) return &prog;
    // New signatures first, so call sites see the callee's new ctx params.
    std::vector<const Function*> sigs;
    std::vector<std::unordered_map<const Var*, const Var*>> ctx_maps;
    for (const Function* f : prog.functions) {
      std::unordered_map<const Var*, const Var*> m;
      if (f->IsHostOrchestrator() || DistParams(*f).empty()) {
        sigs.push_back(f);
        ctx_maps.push_back(m);
        continue;
      }
      Function* nf = util::CloneFunction(ctx, *f);
      for (size_t i : DistParams(*f)) {
        const Var* p = f->params[i];
        const Var* cv = ctx.NewVar(p->name_hint + "_ctx", ctx.CommCtx(), p->span);
        nf->params.push_back(cv);
        nf->param_dirs.push_back(ParamDirection::kIn);
        m[p] = cv;
      }
      sigs.push_back(nf);
      ctx_maps.push_back(std::move(m));
    }
    const Program* with_sigs = util::WithFunctions(ctx, prog, sigs);
    std::vector<const Function*> out;
    ReturnedParams returned(prog);
    for (size_t k = 0; k < sigs.size(); ++k) {
      CtxThreader t(ctx, *with_sigs, *sigs[k], ctx_maps[k], returned, diag);
      const Stmt* body = t.MutateStmt(sigs[k]->body);
      if (body == sigs[k]->body) {
        out.push_back(sigs[k]);
        continue;
      }
      Function* nf = util::CloneFunction(ctx, *sigs[k]);
      nf->body = body ? body : util::Seq(ctx, {}, sigs[k]->span);
      out.push_back(nf);
    }
    if (diag.HasErrors()) return nullptr;
    return util::WithFunctions(ctx, prog, std::move(out));
  }
};

}  // namespace

std::unique_ptr<Pass> CreateMaterializeDistTensorCtxPass() {
  return std::make_unique<MaterializeDistTensorCtxPass>();
}

}  // namespace pypto::passes
