// PTO MLIR emitter entry point: groups kernel functions into modules (one per
// standalone InCore/AIC/AIV kernel; a Group's AIC+AIV pair shares one module)
// and wraps the func.funcs in `module attributes {pto.target_arch = ...}`.
// Host orchestrators and orchestration functions are not PTO and are skipped.
#include "pypto/codegen/pto_emitter.h"

#include <fmt/format.h>

#include <set>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/visitor.h"

namespace pypto::codegen {

using namespace pypto::ir;

namespace {

// Kernel functions called from a Group body, in call order.
class GroupMembers : public IRVisitor {
 public:
  explicit GroupMembers(const Program& p) : prog_(p) {}
  std::vector<const Function*> members;
  void Visit_Call(const Call* c) override {
    if (!c->op) {
      const Function* f = prog_.Find(c->callee);
      if (f && (f->func_type == FunctionType::kAIC || f->func_type == FunctionType::kAIV)) {
        bool seen = false;
        for (const Function* m : members) seen |= m == f;
        if (!seen) members.push_back(f);
      }
    }
    IRVisitor::Visit_Call(c);
  }

 private:
  const Program& prog_;
};

}  // namespace

bool EmitPto(Context& ctx, const Program& p, const PtoOptions& opts, std::vector<PtoModule>* out,
             DiagnosticEngine& diag) {
  std::string arch = opts.target_arch.empty() ? ctx.target_arch : opts.target_arch;
  if (arch != "a2a3" && arch != "a5") {
    diag.Error(p.span, fmt::format("PTO target arch '{}' is not supported; expected \"a2a3\" "
                                   "(Ascend910B) or \"a5\" (Ascend950)",
                                   arch));
    return false;
  }
  const int errors_before = diag.ErrorCount();
  std::vector<std::pair<std::string, std::vector<const Function*>>> modules;
  std::set<const Function*> grouped;
  std::vector<std::vector<const Function*>> group_members(p.functions.size());
  for (size_t i = 0; i < p.functions.size(); ++i) {
    const Function* f = p.functions[i];
    if (f->func_type != FunctionType::kGroup) continue;
    GroupMembers gm(p);
    gm.VisitStmt(f->body);
    group_members[i] = gm.members;
    for (const Function* m : gm.members) grouped.insert(m);
  }
  for (size_t i = 0; i < p.functions.size(); ++i) {
    const Function* f = p.functions[i];
    if (f->func_type == FunctionType::kGroup) {
      if (group_members[i].empty()) {
        diag.Error(f->span, fmt::format("{}: group function calls no AIC/AIV kernel; nothing to "
                                        "emit",
                                        f->name));
        continue;
      }
      modules.emplace_back(f->name, group_members[i]);
    } else if (f->IsKernel() && !grouped.count(f)) {
      modules.emplace_back(f->name, std::vector<const Function*>{f});
    }
  }
  if (modules.empty() && diag.ErrorCount() == errors_before)
    diag.Warning(p.span, fmt::format("program '{}' has no kernel functions (InCore/AIC/AIV) to "
                                     "emit as PTO; outline kernel scopes first "
                                     "(--pipeline=default)",
                                     p.name));
  bool ok = diag.ErrorCount() == errors_before;
  for (const auto& [name, fns] : modules) {
    PtoWriter w;
    w.Linef("module attributes {{pto.target_arch = \"{}\"}} {{", arch);
    w.Indent();
    bool mod_ok = true, deferred = false;
    for (const Function* f : fns) {
      PtoFunctionEmitter fe(ctx, p, *f, opts, arch, diag);
      if (!fe.Emit(w)) {
        mod_ok = false;
        continue;
      }
      deferred |= fe.uses_deferred_adapter();
    }
    if (deferred)
      w.Linef("func.func private @{}(!pto.ptr<i64>, !pto.ptr<i32>, i64, i64)",
              kDeferredAdapterName);
    w.Dedent();
    w.Line("}");
    if (!mod_ok) {
      ok = false;
      continue;
    }
    if (out) out->push_back(PtoModule{name, w.str()});
  }
  return ok;
}

}  // namespace pypto::codegen
