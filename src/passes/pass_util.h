// Private helpers shared by the pass implementations: rebuilding programs and
// functions, statement-list manipulation, var use/def collection, parameter
// access analysis from the op registry's declared effects.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/visitor.h"

namespace pypto::passes::util {

// A copy of `f` (same params, body, kinds) allocated in ctx, for editing.
ir::Function* CloneFunction(ir::Context& ctx, const ir::Function& f);
// A program with `functions` in place of p's (same name, dims, span).
const ir::Program* WithFunctions(ir::Context& ctx, const ir::Program& p,
                                 std::vector<const ir::Function*> functions);
// `p` with the body of every function `pick` selects replaced by `rewrite(f)`;
// functions whose body comes back unchanged are kept, and `p` itself is
// returned when none changed.
const ir::Program* RewriteBodies(
    ir::Context& ctx, const ir::Program& p, const std::function<bool(const ir::Function&)>& pick,
    const std::function<const ir::Stmt*(const ir::Function&)>& rewrite);
// Statements of a body (a SeqStmt's list, or the single statement).
std::vector<const ir::Stmt*> StmtList(const ir::Stmt* s);
const ir::SeqStmt* Seq(ir::Context& ctx, std::vector<const ir::Stmt*> stmts, Span span = {});
// The YieldStmt ending a loop body or if branch (the body itself or its SeqStmt's
// last statement), or null.
inline const ir::YieldStmt* TrailingYield(const ir::Stmt* body) {
  if (const auto* y = ir::As<ir::YieldStmt>(body)) return y;
  const auto* seq = ir::As<ir::SeqStmt>(body);
  return seq && !seq->stmts.empty() ? ir::As<ir::YieldStmt>(seq->stmts.back()) : nullptr;
}

// Uses and definitions of Vars in a subtree, in visit order.
struct VarUses {
  std::vector<const ir::Var*> use_order;              // first-use order, unique
  std::unordered_map<const ir::Var*, int> uses;       // use counts
  std::unordered_map<const ir::Var*, int> first_use;  // visit index of the first use
  std::vector<const ir::Var*> def_order;              // first-def order, unique
  std::unordered_map<const ir::Var*, int> defs;       // def counts
  std::unordered_map<const ir::Var*, int> first_def;
};
VarUses CollectVarUses(const ir::Stmt* s, bool include_types = false);

// How a function body accesses a Var: read and/or written (per the registry's
// declared effects; a function-call argument counts per the callee's param
// direction; any other use is a read).
struct Access {
  bool read = false;
  bool written = false;
};
std::unordered_map<const ir::Var*, Access> AnalyzeAccess(const ir::Program* prog,
                                                         const ir::Stmt* body);
// In / Out / InOut from an access summary (never-written = In).
ir::ParamDirection DirectionOf(const Access& a);

// Whether a Call has side effects: a function call, an op whose result type is
// Unknown, or an op declaring a Write / ReadWrite effect on some argument.
bool HasSideEffects(const ir::Call& c);

// The tensor-like type of an expression (Tensor or DistributedTensor), or null.
inline const ir::TensorType* TensorTypeOf(const ir::Expr* e) {
  return e ? ir::AsTensorTypeLike(e->type) : nullptr;
}

// An IRMutator that counts the for/while loops enclosing the statement being
// rewritten (collectives whose state is single-use are rejected inside loops).
class LoopDepthMutator : public ir::IRMutator {
 public:
  using ir::IRMutator::IRMutator;
  const ir::Stmt* Mutate_ForStmt(const ir::ForStmt* s) override {
    ++loop_depth_;
    const ir::Stmt* r = ir::IRMutator::Mutate_ForStmt(s);
    --loop_depth_;
    return r;
  }
  const ir::Stmt* Mutate_WhileStmt(const ir::WhileStmt* s) override {
    ++loop_depth_;
    const ir::Stmt* r = ir::IRMutator::Mutate_WhileStmt(s);
    --loop_depth_;
    return r;
  }

 protected:
  int loop_depth_ = 0;
};

}  // namespace pypto::passes::util
