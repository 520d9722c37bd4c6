// eliminate-early-returns: structured control flow for kernels with a `return`
// inside an `if` (upstream's early-exit style), which the PTO backend cannot
// emit (a func.func has one `return`, at the end).
//
//     if c:                         if c:
//         A                             A
//         return X          ==>         r = pl.yield_(X)
//     B                             else:
//     return Y                          B
//                                       r = pl.yield_(Y)
//                                   return r
//
// In every kernel (InCore / AIC / AIV) whose body has a `return` below the top
// level, the body is rebuilt as a statement list ending in its only `return`:
//  * the first `if` containing a return is restructured: each branch is
//    normalized recursively; the branch that falls through gets the statements
//    after the `if` (normalized too) appended, with the if's own return vars
//    replaced by the values that branch yielded; both branches then end in a
//    return, which becomes a pl.yield_ of the returned values into fresh return
//    vars (named after the returned Var, typed like the returned values when
//    both branches agree, else by the function's return type), followed by
//    `return <vars>`. A kernel without results gets an if without results and
//    a bare `return`.
//  * statements after a return are unreachable and dropped (convert-to-ssa may
//    leave a yield after a branch's return).
// The statements after the `if` are moved, never copied, so SSA is kept. Shapes
// that would need copies or a return flag are left unchanged (the PTO backend
// then reports "return inside control flow is not supported"): a return inside
// a for/while loop or scope, or an `if` nested in a branch that returns on only
// some of its paths.
#include <string>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/mutator.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

bool HasReturn(const Stmt* s) {
  bool found = false;
  walk::ForEachStmt(s, [&](const Stmt* x) { found |= Isa<ReturnStmt>(x); });
  return found;
}

// The statements of `s` with nested SeqStmts spliced in.
void AppendFlat(const Stmt* s, std::vector<const Stmt*>& out) {
  if (!s) return;
  if (const auto* seq = As<SeqStmt>(s)) {
    for (const Stmt* x : seq->stmts) AppendFlat(x, out);
    return;
  }
  out.push_back(s);
}

std::vector<const Stmt*> Flat(const Stmt* s) {
  std::vector<const Stmt*> out;
  AppendFlat(s, out);
  return out;
}

// A normalized statement list: `returns` when it ends in its only return
// (every path returns); otherwise it contains no return at all.
struct Flow {
  std::vector<const Stmt*> stmts;
  bool returns = false;
};

class EarlyReturnEliminator {
 public:
  EarlyReturnEliminator(Context& ctx, const Function& f) : ctx_(ctx), f_(f) {}

  // The rewritten body, or null when the kernel has no nested return or its
  // shape is not supported (see the file comment).
  const Stmt* Run() {
    std::vector<const Stmt*> top = Flat(f_.body);
    bool nested = false;
    for (const Stmt* s : top) nested |= !Isa<ReturnStmt>(s) && HasReturn(s);
    if (!nested) return nullptr;
    if (f_.return_types.empty() && (top.empty() || !Isa<ReturnStmt>(top.back())))
      top.push_back(ctx_.Make<ReturnStmt>(std::vector<const Expr*>{}, f_.body->span));
    Flow out = List(top);
    if (!ok_ || !out.returns) return nullptr;
    return util::Seq(ctx_, std::move(out.stmts), f_.body->span);
  }

 private:
  Flow List(const std::vector<const Stmt*>& stmts) {
    Flow out;
    for (size_t i = 0; i < stmts.size() && ok_; ++i) {
      const Stmt* s = stmts[i];
      if (Isa<ReturnStmt>(s)) {
        out.stmts.push_back(s);
        out.returns = true;
        return out;  // what follows is unreachable
      }
      if (!HasReturn(s)) {
        out.stmts.push_back(s);
        continue;
      }
      const auto* x = As<IfStmt>(s);
      if (!x) {  // a return inside a loop or scope
        ok_ = false;
        return out;
      }
      Flow f = LowerIf(x, std::vector<const Stmt*>(stmts.begin() + i + 1, stmts.end()));
      out.stmts.insert(out.stmts.end(), f.stmts.begin(), f.stmts.end());
      out.returns = f.returns;
      return out;
    }
    return out;
  }

  // `x` followed by `rest`, as a list ending in one return.
  Flow LowerIf(const IfStmt* x, const std::vector<const Stmt*>& rest) {
    Flow t = List(Flat(x->then_body));
    Flow e = List(Flat(x->else_body));
    if (!ok_) return {};
    if (t.returns == e.returns && !t.returns) {  // cannot happen for a normalized branch
      ok_ = false;
      return {};
    }
    Flow* fall = !t.returns ? &t : !e.returns ? &e : nullptr;
    if (fall && !Continue(x, rest, *fall)) return {};
    const auto* tr = Cast<ReturnStmt>(t.stmts.back());
    const auto* er = Cast<ReturnStmt>(e.stmts.back());
    t.stmts.pop_back();
    e.stmts.pop_back();
    size_t n = f_.return_types.size();
    if (tr->values.size() != n || er->values.size() != n) {  // the verifier reports these
      ok_ = false;
      return {};
    }
    std::vector<const Var*> rvs;
    std::vector<const Expr*> rets;
    for (size_t i = 0; i < n; ++i) {
      const Expr* a = tr->values[i];
      const Expr* b = er->values[i];
      const Type* ty = a->type == b->type ? a->type : f_.return_types[i];
      const Var* av = AsVarLike(a);
      const Var* bv = AsVarLike(b);
      std::string name = av ? av->name_hint : bv ? bv->name_hint : "ret";
      rvs.push_back(ctx_.NewVar(std::move(name), ty, x->span));
      rets.push_back(rvs.back());
    }
    if (n > 0) {
      t.stmts.push_back(ctx_.Make<YieldStmt>(tr->values, tr->span));
      e.stmts.push_back(ctx_.Make<YieldStmt>(er->values, er->span));
    }
    Flow out;
    out.stmts.push_back(ctx_.Make<IfStmt>(x->cond, util::Seq(ctx_, std::move(t.stmts), x->span),
                                          util::Seq(ctx_, std::move(e.stmts), x->span),
                                          std::move(rvs), x->span));
    out.stmts.push_back(ctx_.Make<ReturnStmt>(std::move(rets), er->span));
    out.returns = true;
    return out;
  }

  // Appends `rest` (the statements after `x`) to the branch that falls through;
  // the if's return vars become the values that branch yields.
  bool Continue(const IfStmt* x, const std::vector<const Stmt*>& rest, Flow& fall) {
    std::vector<const Expr*> yielded;
    if (!fall.stmts.empty())
      if (const auto* y = As<YieldStmt>(fall.stmts.back())) {
        yielded = y->values;
        fall.stmts.pop_back();
      }
    if (yielded.size() != x->return_vars.size()) {
      ok_ = false;
      return false;
    }
    IRMutator subst(ctx_);
    for (size_t i = 0; i < yielded.size(); ++i) subst.Substitute(x->return_vars[i], yielded[i]);
    std::vector<const Stmt*> moved;
    for (const Stmt* s : rest) AppendFlat(subst.MutateStmt(s), moved);
    Flow c = List(moved);
    if (!ok_ || !c.returns) {
      ok_ = false;
      return false;
    }
    fall.stmts.insert(fall.stmts.end(), c.stmts.begin(), c.stmts.end());
    fall.returns = true;
    return true;
  }

  Context& ctx_;
  const Function& f_;
  bool ok_ = true;
};

class EliminateEarlyReturnsPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine&) override {
    return util::RewriteBodies(
        ctx, prog, [](const Function& f) { return f.IsKernel(); },
        [&](const Function& f) {
          const Stmt* body = EarlyReturnEliminator(ctx, f).Run();
          return body ? body : f.body;
        });
  }
};

}  // namespace

std::unique_ptr<Pass> CreateEliminateEarlyReturnsPass() {
  return std::make_unique<EliminateEarlyReturnsPass>();
}

}  // namespace pypto::passes
