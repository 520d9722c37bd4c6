// expand-mixed-kernel (single-core-kind subset): classifies every call of an
// InCore kernel with ClassifyCallAffinity (declared op affinity, else derived
// from tile memory spaces; function calls and undeclared ops are SHARED).
//  * only VECTOR / SHARED calls -> the kernel becomes an AIV function;
//  * only CUBE / SHARED calls   -> the kernel becomes an AIC function;
//  * CUBE and VECTOR (or a MIXED call such as a cross-side tile.move) -> the
//    AIC + AIV split with tpush/tpop and a Group wrapper is not implemented: the
//    kernel stays InCore and a warning names the first cube and vector ops.
// Call sites are unaffected (the function keeps its name and signature).
#include <fmt/format.h>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/affinity.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

class ExpandMixedKernelPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::vector<const Function*> out;
    bool changed = false;
    for (const Function* f : prog.functions) {
      if (f->func_type != FunctionType::kInCore) {
        out.push_back(f);
        continue;
      }
      const Call* cube = nullptr;
      const Call* vec = nullptr;
      const Call* mixed = nullptr;
      walk::ForEachCall(f->body, [&](const Call* c, const Stmt*) {
        switch (ClassifyCallAffinity(c)) {
          case CoreAffinity::kCube:
            if (!cube) cube = c;
            break;
          case CoreAffinity::kVector:
            if (!vec) vec = c;
            break;
          case CoreAffinity::kMixed:
            if (!mixed) mixed = c;
            break;
          default:
            break;
        }
      });
      if (mixed || (cube && vec)) {
        const Call* a = mixed ? mixed : cube;
        diag.Warning(a->span.IsKnown() ? a->span : f->span,
                     fmt::format("expand-mixed-kernel: kernel '{}' mixes cube and vector work "
                                 "({}{}); splitting it into AIC + AIV functions is not supported "
                                 "yet, so it stays InCore",
                                 f->name, a->OpName(),
                                 vec && !mixed ? fmt::format(" and {}", vec->OpName()) : ""));
        out.push_back(f);
        continue;
      }
      Function* nf = util::CloneFunction(ctx, *f);
      nf->func_type = cube ? FunctionType::kAIC : FunctionType::kAIV;
      out.push_back(nf);
      changed = true;
    }
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateExpandMixedKernelPass() {
  return std::make_unique<ExpandMixedKernelPass>();
}

}  // namespace pypto::passes
