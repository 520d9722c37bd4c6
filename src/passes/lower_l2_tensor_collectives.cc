// lower-l2-tensor-collectives: the CHIP rail of the pld.tensor.* collectives.
//
// A collective written in a CHIP orchestration body (an Orchestration function
// that is not the host orchestrator) cannot run there: orchestration code only
// dispatches tasks. Each such call
//     [x =] pld.tensor.<collective>(a0, a1, ..., kw...)
// is rewritten into a call of a synthesized AIV kernel that performs it,
//     self.<parent>_<collective>_<n>(a0, a1, ...)
//     [x = <the collective's result operand>]
// so the collective becomes one AIV task of the caller's own pipeline, ordered
// against the surrounding tasks by its operands (no per-device fan-out, no
// nested dispatch). The synthesized kernel has one parameter per operand (In for
// read-only operands, InOut for the ones the op declares written) and the
// original call as its body; it is then put through the kernel passes that ran
// before this one in the default pipeline (convert-tensor-to-tile-ops,
// lower-composite-ops, flatten-tile-nd-to-2d, infer-tile-memory-space,
// expand-mixed-kernel), so it comes out lowered to tile-level primitives
// (credit barrier + put/get/remote_load) and typed AIV, exactly like a user
// kernel calling the collective. The wire behaviour is therefore the
// lower-composite-ops recipe (upstream renders the HOST builtin's template
// instead; our HOST builtins are not rendered as kernels).
//
// Errors: what the composite lowering (or the op's deducer) reports for the
// collective (e.g. an allreduce without a signal) is reported at the call, as
// is all_to_all_v inside a for/while loop (single-use recv_counts protocol).
// The synthesized kernel is placed right before its orchestration.
// Idempotent: the rewritten orchestration has no collective calls left.
#include <fmt/format.h>

#include <set>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/core/check.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/printer.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

bool IsChipOrchestration(const Function& f) {
  return f.func_type == FunctionType::kOrchestration && f.level != Level::kHost;
}

class L2Lowerer : public util::LoopDepthMutator {
 public:
  L2Lowerer(Context& ctx, const Program& prog, const Function& parent, std::set<std::string>& names,
            DiagnosticEngine& diag)
      : LoopDepthMutator(ctx), prog_(prog), parent_(parent), names_(names), diag_(diag) {}

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    if (auto* c = As<Call>(s->value))
      if (const Stmt* r = Lower(*c, s->var, s->span)) return r;
    return IRMutator::Mutate_AssignStmt(s);
  }
  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    if (auto* c = As<Call>(s->expr))
      if (const Stmt* r = Lower(*c, nullptr, s->span)) return r;
    return IRMutator::Mutate_EvalStmt(s);
  }

  std::vector<const Function*> kernels;  // synthesized, in call order
  bool failed = false;

 private:
  std::string FreshName(const OpDef& op) {
    std::string base = fmt::format("{}_{}", parent_.name, op.ShortName());
    for (int n = 0;; ++n) {
      std::string name = fmt::format("{}_{}", base, n);
      if (names_.insert(name).second) return name;
    }
  }

  const Stmt* Lower(const Call& call, const Var* result, Span span) {
    // The collectives of the CHIP rail, each returning its OpDef::returned_arg.
    if (!call.op || call.op->family != OpFamily::kCollective) return nullptr;
    std::string_view op = call.OpName();
    size_t res = static_cast<size_t>(call.op->returned_arg);
    if (call.Is(ops::kPldAllToAllV) && loop_depth_ > 0) {
      diag_.Error(span, fmt::format("{}: not supported inside a for/while loop of CHIP "
                                    "orchestration '{}' (recv_counts is published with Set, a "
                                    "single-use protocol that a fast rank's next call would race "
                                    "with); call it once, outside loops",
                                    op, parent_.name));
      failed = true;
      return nullptr;
    }
    // The kernel: one parameter per operand, the original call as its body.
    IRBuilder b(ctx_);
    b.SetSpan(span);
    std::vector<IRBuilder::Param> params;
    for (size_t i = 0; i < call.args.size(); ++i) {
      const Expr* a = call.args[i];
      std::string name = call.op->args.size() > i ? call.op->args[i].name : fmt::format("arg{}", i);
      if (auto* v = As<Var>(a)) name = v->name_hint;
      ArgEffect e = call.op->EffectOf(static_cast<int>(i), call.kwargs);
      params.push_back(
          {name, a->type, e == ArgEffect::kRead ? ParamDirection::kIn : ParamDirection::kInOut});
    }
    std::string kname = FreshName(*call.op);
    const Function* kernel = b.BuildFunction({kname, FunctionType::kInCore}, params,
                                             [&](const std::vector<const Var*>& p) {
                                               std::vector<const Expr*> args(p.begin(), p.end());
                                               b.Eval(b.Op(*call.op, args, call.kwargs));
                                               b.Return();
                                             });
    const Function* lowered = LowerKernel(*kernel, op);
    if (!lowered) {
      failed = true;
      return nullptr;
    }
    kernels.push_back(lowered);
    // The call site.
    b.Begin();
    b.Eval(b.CallFunction(*lowered, call.args));
    if (result) b.AssignTo(result, call.args[res]);
    return b.End();
  }

  // The kernel passes that precede this one in the default pipeline, applied to
  // a program holding only the synthesized kernel.
  const Function* LowerKernel(const Function& kernel, std::string_view op) {
    const Program* mini = util::WithFunctions(ctx_, prog_, {&kernel});
    int errors = diag_.ErrorCount();
    for (auto create : {CreateConvertTensorToTileOpsPass, CreateLowerCompositeOpsPass,
                        CreateFlattenTileNdTo2DPass, CreateInferTileMemorySpacePass,
                        CreateExpandMixedKernelPass}) {
      mini = create()->Run(ctx_, *mini, diag_);
      if (!mini || diag_.ErrorCount() > errors) return nullptr;
    }
    // Every way lower-composite-ops can leave a collective unlowered (operand
    // shapes, signals, loops) is reported by it or by the op's deducer, so a
    // clean mini-pipeline yields exactly one AIV kernel without collectives.
    const Function* f = mini->functions.size() == 1 ? mini->functions[0] : nullptr;
    bool kept = false;
    if (f)
      walk::ForEachCall(f->body, [&](const Call* c, const Stmt*) {
        if (c->op && c->op->family == OpFamily::kCollective) kept = true;
      });
    PYPTO_CHECK(f && !kept && f->func_type == FunctionType::kAIV,
                fmt::format("{} in '{}': the synthesized kernel '{}' was not lowered to one AIV "
                            "kernel without collectives, and no error was reported",
                            op, parent_.name, kernel.name));
    return f;
  }

  const Program& prog_;
  const Function& parent_;
  std::set<std::string>& names_;
  DiagnosticEngine& diag_;
};

class LowerL2TensorCollectivesPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::set<std::string> names;
    for (const Function* f : prog.functions) names.insert(f->name);
    std::vector<const Function*> out;
    bool changed = false, failed = false;
    for (const Function* f : prog.functions) {
      if (!IsChipOrchestration(*f)) {
        out.push_back(f);
        continue;
      }
      L2Lowerer lw(ctx, prog, *f, names, diag);
      const Stmt* body = lw.MutateStmt(f->body);
      failed |= lw.failed;
      if (body == f->body) {
        out.push_back(f);
        continue;
      }
      changed = true;
      for (const Function* k : lw.kernels) out.push_back(k);
      Function* nf = util::CloneFunction(ctx, *f);
      nf->body = body;
      out.push_back(nf);
    }
    if (failed) return nullptr;
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateLowerL2TensorCollectivesPass() {
  return std::make_unique<LowerL2TensorCollectivesPass>();
}

}  // namespace pypto::passes
