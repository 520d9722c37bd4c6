// synthesize-allreduce-signals: gives every host-orchestrator
// `pld.tensor.allreduce(target, ...)` written without a signal (mesh mode;
// the host rail lets the user omit it) a private INT32 signal window:
//
//   __allreduce_signal_world_size_<k> = pld.system.world_size()
//   __allreduce_signal_buf_<k> = pld.tensor.alloc_window_buffer(ws * core_num * 4)
//   __allreduce_signal_<k> = pld.tensor.window(buf, [ws, core_num], dtype=pl.INT32)
//   x = pld.tensor.allreduce(target, __allreduce_signal_<k>, ...)
//
// (the world size is bound once as a standalone statement and used in both
// the byte size and the window shape; the shape is exactly [world_size,
// core_num], the layout the host builtin indexes). `k` counts program-wide
// from 0, skipping any k whose names are already used by a Var or a window,
// so names are deterministic and program-unique. A signal-less allreduce that
// is the value of a `return` is bound to `__allreduce_result_<k>` first.
// Errors: a signal-less allreduce inside a for/while loop (the window cannot
// be allocated per iteration), one nested inside another expression, and
// mode="ring" without a signal. Other functions are left unchanged.
#include <fmt/format.h>

#include <unordered_set>

#include "host_comm.h"
#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

bool IsSignalLess(const Call* c) { return c && c->Is(ops::kPldAllreduce) && c->args.size() == 1; }

// Every name a Var or a window allocation of the program uses.
std::unordered_set<std::string> UsedNames(const Program& p) {
  std::unordered_set<std::string> names;
  for (const Var* d : p.dynamic_dims) names.insert(d->name_hint);
  for (const Function* f : p.functions) {
    for (const Var* v : f->params) names.insert(v->name_hint);
    walk::ForEachStmt(f->body, [&](const Stmt* s) {
      walk::ForEachOwnDef(s, [&](const Var* v) { names.insert(v->name_hint); });
    });
    walk::ForEachCall(f->body, [&](const Call* c, const Stmt*) {
      if (c->Is(ops::kPldAllocWindowBuffer))
        if (const Attr* a = FindAttr(c->kwargs, "name"); a && a->kind == Attr::Kind::kString)
          names.insert(a->s);
    });
  }
  return names;
}

class SignalSynthesizer : public util::LoopDepthMutator {
 public:
  SignalSynthesizer(Context& ctx, std::unordered_set<std::string>* used, int64_t* next,
                    DiagnosticEngine& diag)
      : LoopDepthMutator(ctx), used_(used), next_(next), diag_(diag), b_(ctx) {}

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    const auto* c = As<Call>(s->value);
    if (!IsSignalLess(c)) return IRMutator::Mutate_AssignStmt(s);
    std::vector<const Stmt*> out;
    const Call* nc = Rewrite(c, &out);
    if (!nc) return s;
    const Var* var = MutateVarDef(s->var);
    out.push_back(ctx_.Make<AssignStmt>(var, nc, s->span));
    return util::Seq(ctx_, std::move(out), s->span);
  }

  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    const auto* c = As<Call>(s->expr);
    if (!IsSignalLess(c)) return IRMutator::Mutate_EvalStmt(s);
    std::vector<const Stmt*> out;
    const Call* nc = Rewrite(c, &out);
    if (!nc) return s;
    out.push_back(ctx_.Make<EvalStmt>(nc, s->span));
    return util::Seq(ctx_, std::move(out), s->span);
  }

  const Stmt* Mutate_ReturnStmt(const ReturnStmt* s) override {
    bool any = false;
    for (const Expr* v : s->values) any |= IsSignalLess(As<Call>(v));
    if (!any) return IRMutator::Mutate_ReturnStmt(s);
    std::vector<const Stmt*> out;
    std::vector<const Expr*> values;
    for (const Expr* v : s->values) {
      const auto* c = As<Call>(v);
      if (!IsSignalLess(c)) {
        values.push_back(MutateExpr(v));
        continue;
      }
      const Call* nc = Rewrite(c, &out);
      if (!nc) return s;
      const Var* res = ctx_.NewVar(FreshName("__allreduce_result_"), nc->type, c->span);
      out.push_back(ctx_.Make<AssignStmt>(res, nc, c->span));
      values.push_back(res);
    }
    out.push_back(ctx_.Make<ReturnStmt>(std::move(values), s->span));
    return util::Seq(ctx_, std::move(out), s->span);
  }

  // Reached only for allreduce calls that are not a statement's whole value.
  const Expr* Mutate_Call(const Call* c) override {
    if (IsSignalLess(c))
      diag_.Error(c->span, c->op->name +
                               ": a host allreduce without a signal must be the whole value of an "
                               "assignment, an expression statement or a return value; bind it "
                               "first (`x = pld.tensor.allreduce(x)`) or pass a signal window");
    return IRMutator::Mutate_Call(c);
  }

 private:
  // Emits the signal binding into `out` and returns the call with the signal;
  // nullptr after reporting an error.
  const Call* Rewrite(const Call* c, std::vector<const Stmt*>* out) {
    if (loop_depth_ > 0) {
      diag_.Error(c->span,
                  c->op->name +
                      ": omitting the signal is not supported inside a for/while loop of a host "
                      "orchestrator (the synthesized signal window cannot be allocated per "
                      "iteration); allocate an INT32 [world_size, 1] signal window before the "
                      "loop and pass it as the second argument");
      return nullptr;
    }
    // The ring variant (declared on the op: mode="ring") needs its own signal shape.
    if (c->op->builtin_variant.valid() && c->op->BuiltinFor(c->kwargs) == c->op->builtin_variant) {
      diag_.Error(c->span, c->op->name +
                               ": mode=\"ring\" requires an explicit [2 * (NR - 1) + 1, NR] INT32 "
                               "signal on the host rail; only mesh signals are synthesized");
      return nullptr;
    }
    int64_t core_num = host::IntKwarg(*c, "core_num", 1);
    if (core_num <= 0) return nullptr;  // the deducer reports it
    const Expr* target = MutateExpr(c->args[0]);
    b_.SetSpan(c->span);
    std::string k = FreshSuffix();
    const Call* ws_call = b_.Op(ops::kPldWorldSize, {});
    const Var* ws = ctx_.NewVar("__allreduce_signal_world_size_" + k, ws_call->type, c->span);
    out->push_back(ctx_.Make<AssignStmt>(ws, ws_call, c->span));
    std::string buf_name = "__allreduce_signal_buf_" + k;
    const Expr* bytes = b_.Mul(b_.Mul(ws, b_.Int(core_num)), b_.Int(4));
    const Call* alloc = b_.Op(ops::kPldAllocWindowBuffer, {bytes}, {{"name", Attr::Str(buf_name)}});
    const Var* buf = ctx_.NewVar(buf_name, alloc->type, c->span);
    out->push_back(ctx_.Make<AssignStmt>(buf, alloc, c->span));
    const Call* win = b_.Op(ops::kPldWindow, {buf, b_.Tuple({ws, b_.Int(core_num)})},
                            {{"dtype", Attr::DType(DataType::kInt32)}});
    const Var* sig = ctx_.NewVar("__allreduce_signal_" + k, win->type, c->span);
    out->push_back(ctx_.Make<AssignStmt>(sig, win, c->span));
    return b_.Op(*c->op, {target, sig}, c->kwargs, c->attrs);
  }

  bool Free(const std::string& n) const { return !used_->count(n); }

  std::string FreshSuffix() {
    while (true) {
      std::string k = std::to_string((*next_)++);
      std::string a = "__allreduce_signal_world_size_" + k, b = "__allreduce_signal_buf_" + k,
                  c = "__allreduce_signal_" + k;
      if (!Free(a) || !Free(b) || !Free(c)) continue;
      used_->insert(a);
      used_->insert(b);
      used_->insert(c);
      return k;
    }
  }

  std::string FreshName(const std::string& prefix) {
    while (true) {
      std::string n = prefix + std::to_string((*next_)++);
      if (!Free(n)) continue;
      used_->insert(n);
      return n;
    }
  }

  std::unordered_set<std::string>* used_;
  int64_t* next_;
  DiagnosticEngine& diag_;
  IRBuilder b_;
};

class SynthesizeAllReduceSignalsPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::unordered_set<std::string> used = UsedNames(prog);
    int64_t next = 0;
    int errors = diag.ErrorCount();
    const Program* result =
        util::RewriteBodies(ctx, prog, host::IsHostOrch, [&](const Function& f) {
          return SignalSynthesizer(ctx, &used, &next, diag).MutateStmt(f.body);
        });
    return diag.ErrorCount() > errors ? nullptr : result;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateSynthesizeAllReduceSignalsPass() {
  return std::make_unique<SynthesizeAllReduceSignalsPass>();
}

}  // namespace pypto::passes
