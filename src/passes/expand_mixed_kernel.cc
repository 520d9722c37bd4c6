// expand-mixed-kernel (single-core-kind subset): classifies every call of an
// InCore kernel with ClassifyCallAffinity (the seed's placement table).
//  * only VECTOR / SHARED calls -> the kernel becomes an AIV function;
//  * only CUBE / SHARED calls   -> the kernel becomes an AIC function;
//  * CUBE and VECTOR calls, or a MIXED one (a tile.move between the cores) ->
//    an error at the first cube (or MIXED) call, with a note at the first vector
//    one: the AIC + AIV split (a Group of <f>_aic and <f>_aiv exchanging tiles
//    through the cross-core pipe) is not implemented, and emitting the kernel as
//    one vector kernel holding cube tiles would be wrong PTO.
// core_placement="aiv" has been read once the kernel is placed, so it is
// stripped from the calls (it is lower-auto-vector-split's message to this pass).
// Call sites are unaffected (the function keeps its name and signature).
#include <fmt/format.h>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/affinity.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

// Drops the core_placement stamp from every call.
class PlacementStripper : public IRMutator {
 public:
  explicit PlacementStripper(Context& ctx) : IRMutator(ctx) {}
  const Expr* Mutate_Call(const Call* c) override {
    auto* rc = As<Call>(IRMutator::Mutate_Call(c));
    if (!rc || !FindAttr(rc->attrs, kCorePlacementAttr)) return rc;
    AttrList attrs;
    for (const NamedAttr& a : rc->attrs)
      if (a.name != kCorePlacementAttr) attrs.push_back(a);
    return ctx_.Make<Call>(rc->op, rc->callee, rc->args, rc->kwargs, std::move(attrs), rc->type,
                           rc->span);
  }
};

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
        ReportMixed(*f, mixed, cube, vec, diag);
        out.push_back(f);
        continue;
      }
      Function* nf = util::CloneFunction(ctx, *f);
      nf->func_type = cube ? FunctionType::kAIC : FunctionType::kAIV;
      nf->body = PlacementStripper(ctx).MutateStmt(nf->body);
      out.push_back(nf);
      changed = true;
    }
    if (diag.HasErrors()) return nullptr;
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }

 private:
  static void ReportMixed(const Function& f, const Call* mixed, const Call* cube, const Call* vec,
                          DiagnosticEngine& diag) {
    const Call* at = mixed ? mixed : cube;
    std::string what =
        mixed ? fmt::format("{} moves a tile between the cube and the vector core", at->OpName())
              : fmt::format("{} runs on the cube core, {} on the vector core", at->OpName(),
                            vec->OpName());
    diag.Error(at->span.IsKnown() ? at->span : f.span,
               fmt::format("expand-mixed-kernel: kernel '{}' mixes cube and vector work ({}); "
                           "splitting it into an AIC and an AIV function that pass tiles through "
                           "the cross-core pipe is not supported yet: write the cube part and the "
                           "vector part as separate kernels (pl.FunctionType.AIC / AIV) that "
                           "exchange data through GM",
                           f.name, what));
    if (!mixed && vec->span.IsKnown()) diag.AddNote(vec->span, "the first vector-core call");
  }
};

}  // namespace

std::unique_ptr<Pass> CreateExpandMixedKernelPass() {
  return std::make_unique<ExpandMixedKernelPass>();
}

}  // namespace pypto::passes
