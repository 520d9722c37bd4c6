// simplify: scalar constant folding, constant propagation and dead-code removal.
//  * BinaryExpr / UnaryExpr with constant operands fold (integers through
//    int_fold.h: Python semantics, no folding on overflow or division by zero,
//    which the verifier reports); x+0, x-0, x*1, x//1,
//    0+x, 1*x simplify for integers. Shape expressions inside types fold too
//    (IRMutator rebuilds a Var whose type changed).
//  * A scalar Var assigned exactly once to a value that folds to a constant is
//    replaced by the constant at its uses.
//  * DCE: an assignment is removed when its Var is not used by anything kept
//    (statements, yields, returns, loop bounds, or any type) and its value has no
//    side effect — a Call is side-effecting when it is a function call, its
//    result is Unknown (comm ops), or its op declares a Write/ReadWrite effect.
//  * `if` on a constant condition keeps only the taken branch (return vars
//    become the values it yields).
//  * A side-effecting op call returned directly (`return pl.store(t, o, y)`) is
//    bound to a Var first (`y_1 = pl.tile.store(...)`, `return y_1`), so every
//    later pass and the backends see the effect as a statement of its own.
#include <cmath>
#include <limits>
#include <unordered_set>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/int_expr_fold.h"
#include "pypto/ir/mutator.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

std::optional<int64_t> IntOf(const Expr* e) {
  if (auto* c = As<ConstInt>(e)) return c->value;
  return std::nullopt;
}
std::optional<double> FloatOf(const Expr* e) {
  if (auto* c = As<ConstFloat>(e)) return c->value;
  return std::nullopt;
}
std::optional<bool> BoolOf(const Expr* e) {
  if (auto* c = As<ConstBool>(e)) return c->value;
  return std::nullopt;
}

class Folder : public IRMutator {
 public:
  Folder(Context& ctx, const std::unordered_map<const Var*, int>& defs)
      : IRMutator(ctx), defs_(defs) {}

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    const Stmt* r = IRMutator::Mutate_AssignStmt(s);
    auto* a = Cast<AssignStmt>(r);
    auto it = defs_.find(s->var);
    if (Isa<ScalarType>(a->var->type) && it != defs_.end() && it->second == 1 &&
        (Isa<ConstInt>(a->value) || Isa<ConstFloat>(a->value) || Isa<ConstBool>(a->value)) &&
        a->value->type == a->var->type)
      Substitute(s->var, a->value);
    return r;
  }

  // `if True:` / `if False:` (a folded condition, or a factory's flag) keeps
  // only the taken branch; the if's return vars become what it yields.
  const Stmt* Mutate_IfStmt(const IfStmt* s) override {
    const Expr* c = MutateExpr(s->cond);
    std::optional<bool> b = BoolOf(c);
    if (!b) return IRMutator::Mutate_IfStmt(s);
    const Stmt* taken = *b ? s->then_body : s->else_body;
    std::vector<const Stmt*> stmts = taken ? util::StmtList(taken) : std::vector<const Stmt*>{};
    const YieldStmt* y = taken ? util::TrailingYield(taken) : nullptr;
    if (y) stmts.pop_back();
    const Stmt* body = MutateStmt(util::Seq(ctx_, std::move(stmts), s->span));
    for (size_t i = 0; y && i < y->values.size() && i < s->return_vars.size(); ++i)
      Substitute(s->return_vars[i], MutateExpr(y->values[i]));
    return body;
  }

  const Stmt* Mutate_ReturnStmt(const ReturnStmt* s) override {
    const Stmt* r = IRMutator::Mutate_ReturnStmt(s);
    const auto* ret = Cast<ReturnStmt>(r);
    std::vector<const Stmt*> out;
    std::vector<const Expr*> values = ret->values;
    for (const Expr*& v : values) {
      const auto* c = As<Call>(v);
      if (!c || !c->op || !util::HasSideEffects(*c)) continue;
      std::string name = "ret";
      for (size_t i = 0; i < c->args.size(); ++i)
        if (const Var* a = AsVarLike(c->args[i]);
            a && c->op->EffectOf(static_cast<int>(i), c->kwargs) != ArgEffect::kRead) {
          name = a->name_hint;
          break;
        }
      const Var* nv = ctx_.NewVar(name, c->type, c->span);
      out.push_back(ctx_.Make<AssignStmt>(nv, c, c->span));
      v = nv;
    }
    if (out.empty()) return r;
    out.push_back(ctx_.Make<ReturnStmt>(std::move(values), s->span));
    return util::Seq(ctx_, std::move(out), s->span);
  }

  const Expr* Mutate_BinaryExpr(const BinaryExpr* e) override {
    const Expr* r = IRMutator::Mutate_BinaryExpr(e);
    auto* b = As<BinaryExpr>(r);
    if (!b) return r;
    const Expr* f = Fold(b);
    return f ? f : r;
  }

  const Expr* Mutate_UnaryExpr(const UnaryExpr* e) override {
    const Expr* r = IRMutator::Mutate_UnaryExpr(e);
    auto* u = As<UnaryExpr>(r);
    if (!u) return r;
    auto* st = As<ScalarType>(u->type);
    if (!st) return r;
    DataType dt = st->dtype;
    if (auto i = IntOf(u->operand)) {
      if (u->op == UnaryOp::kCast && IsFloat(dt))
        return ctx_.Make<ConstFloat>(static_cast<double>(*i), u->type, u->span);
      // -x, abs, ~x, a cast that keeps the value (int_fold.h: checked).
      IntExprFold f = FoldIntExpr(u);
      return f.constant() ? ctx_.Make<ConstInt>(*f.fold.value, u->type, u->span) : r;
    }
    if (auto f = FloatOf(u->operand)) {
      switch (u->op) {
        case UnaryOp::kNeg:
          return ctx_.Make<ConstFloat>(-*f, u->type, u->span);
        case UnaryOp::kAbs:
          return ctx_.Make<ConstFloat>(std::fabs(*f), u->type, u->span);
        case UnaryOp::kCast:
          if (IsFloat(dt)) return ctx_.Make<ConstFloat>(*f, u->type, u->span);
          return r;
        default:
          return r;
      }
    }
    if (auto b = BoolOf(u->operand))
      if (u->op == UnaryOp::kNot) return ctx_.Make<ConstBool>(!*b, u->type, u->span);
    return r;
  }

 private:
  const Expr* Fold(const BinaryExpr* b) {
    const Type* t = b->type;
    auto li = IntOf(b->lhs), ri = IntOf(b->rhs);
    auto mk_i = [&](int64_t v) -> const Expr* { return ctx_.Make<ConstInt>(v, t, b->span); };
    auto mk_b = [&](bool v) -> const Expr* { return ctx_.Make<ConstBool>(v, t, b->span); };
    bool bool_result = As<ScalarType>(t) && As<ScalarType>(t)->dtype == DataType::kBool;
    if (li && ri) {
      int64_t x = *li, y = *ri;
      if (auto iop = IntFoldOpOf(b->op); iop && !bool_result) {
        // int_fold.h: checked, Python semantics. No value (overflow, // 0, ...):
        // kept as written, and the verifier reports it.
        IntExprFold f = FoldIntExpr(b);
        return f.constant() ? mk_i(*f.fold.value) : nullptr;
      }
      switch (b->op) {
        case BinaryOp::kEq:
          return bool_result ? mk_b(x == y) : nullptr;
        case BinaryOp::kNe:
          return bool_result ? mk_b(x != y) : nullptr;
        case BinaryOp::kLt:
          return bool_result ? mk_b(x < y) : nullptr;
        case BinaryOp::kLe:
          return bool_result ? mk_b(x <= y) : nullptr;
        case BinaryOp::kGt:
          return bool_result ? mk_b(x > y) : nullptr;
        case BinaryOp::kGe:
          return bool_result ? mk_b(x >= y) : nullptr;
        default:
          return nullptr;
      }
    }
    auto lf = FloatOf(b->lhs), rf = FloatOf(b->rhs);
    if (lf && rf && As<ScalarType>(t) && IsFloat(As<ScalarType>(t)->dtype)) {
      double x = *lf, y = *rf;
      auto mk_f = [&](double v) -> const Expr* { return ctx_.Make<ConstFloat>(v, t, b->span); };
      switch (b->op) {
        case BinaryOp::kAdd:
          return mk_f(x + y);
        case BinaryOp::kSub:
          return mk_f(x - y);
        case BinaryOp::kMul:
          return mk_f(x * y);
        case BinaryOp::kDiv:
          return y == 0 ? nullptr : mk_f(x / y);
        case BinaryOp::kMin:
          return mk_f(std::min(x, y));
        case BinaryOp::kMax:
          return mk_f(std::max(x, y));
        default:
          return nullptr;
      }
    }
    if (lf && rf && bool_result) {
      double x = *lf, y = *rf;
      switch (b->op) {
        case BinaryOp::kEq:
          return mk_b(x == y);
        case BinaryOp::kNe:
          return mk_b(x != y);
        case BinaryOp::kLt:
          return mk_b(x < y);
        case BinaryOp::kLe:
          return mk_b(x <= y);
        case BinaryOp::kGt:
          return mk_b(x > y);
        case BinaryOp::kGe:
          return mk_b(x >= y);
        default:
          return nullptr;
      }
    }
    auto lb = BoolOf(b->lhs), rb = BoolOf(b->rhs);
    if (lb && rb && bool_result) {
      if (b->op == BinaryOp::kAnd) return mk_b(*lb && *rb);
      if (b->op == BinaryOp::kOr) return mk_b(*lb || *rb);
    }
    // Integer identities (only when the other side already has the result type).
    auto same_type = [&](const Expr* x) { return x->type == t; };
    if (ri && same_type(b->lhs)) {
      if ((b->op == BinaryOp::kAdd || b->op == BinaryOp::kSub) && *ri == 0) return b->lhs;
      if ((b->op == BinaryOp::kMul || b->op == BinaryOp::kFloorDiv) && *ri == 1) return b->lhs;
    }
    if (li && same_type(b->rhs)) {
      if (b->op == BinaryOp::kAdd && *li == 0) return b->rhs;
      if (b->op == BinaryOp::kMul && *li == 1) return b->rhs;
    }
    return nullptr;
  }

  const std::unordered_map<const Var*, int>& defs_;
};

// Removes dead side-effect-free assignments (see file comment).
class DeadCodeRemover : public IRMutator {
 public:
  DeadCodeRemover(Context& ctx, std::unordered_set<const AssignStmt*> dead)
      : IRMutator(ctx), dead_(std::move(dead)) {}
  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    if (dead_.count(s)) return nullptr;
    return IRMutator::Mutate_AssignStmt(s);
  }

 private:
  std::unordered_set<const AssignStmt*> dead_;
};

bool ValueIsPure(const Expr* e) {
  bool pure = true;
  walk::ForEachExpr(e, [&](const Expr* x) {
    if (auto* c = As<Call>(x)) pure &= !util::HasSideEffects(*c);
  });
  return pure;
}

// Dead assignments of `f`'s body after folding.
std::unordered_set<const AssignStmt*> FindDead(const Function& f) {
  std::vector<const AssignStmt*> removable;
  std::unordered_map<const Var*, std::vector<const AssignStmt*>> defs_of;
  std::unordered_set<const Var*> live;
  std::vector<const Var*> work;  // newly live Vars whose removable defs must be kept
  auto mark = [&](const Var* v) {
    if (live.insert(v).second) work.push_back(v);
  };
  auto use_expr = [&](const Expr* e) {
    walk::ForEachExpr(
        e,
        [&](const Expr* x) {
          if (auto* v = AsVarLike(x)) mark(v);
        },
        /*types=*/true);
  };
  auto use_type = [&](const Type* t) {
    walk::ForEachExprInType(t, [&](const Expr* x) {
      if (auto* v = AsVarLike(x)) mark(v);
    });
  };
  for (const Var* p : f.params) use_type(p->type);
  for (const Type* t : f.return_types) use_type(t);
  walk::ForEachStmt(f.body, [&](const Stmt* s) {
    if (auto* a = As<AssignStmt>(s); a && ValueIsPure(a->value)) {
      removable.push_back(a);
      defs_of[a->var].push_back(a);
      return;
    }
    walk::ForEachOwnExpr(s, use_expr);
    walk::ForEachOwnDef(s, [&](const Var* v) { use_type(v->type); });
  });
  // Worklist: a live Var keeps every removable assignment to it, whose operands
  // become live in turn (linear in the size of the function).
  std::unordered_set<const AssignStmt*> kept;
  while (!work.empty()) {
    const Var* v = work.back();
    work.pop_back();
    auto it = defs_of.find(v);
    if (it == defs_of.end()) continue;
    for (const AssignStmt* a : it->second) {
      if (!kept.insert(a).second) continue;
      use_expr(a->value);
      use_type(a->var->type);
    }
  }
  std::unordered_set<const AssignStmt*> dead;
  for (const AssignStmt* a : removable)
    if (!kept.count(a)) dead.insert(a);
  return dead;
}

class SimplifyPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine&) override {
    std::vector<const Function*> out;
    bool changed = false;
    for (const Function* f : prog.functions) {
      util::VarUses vu = util::CollectVarUses(f->body);
      Folder folder(ctx, vu.defs);
      const Function* g = folder.MutateFunction(*f);
      std::unordered_set<const AssignStmt*> dead = FindDead(*g);
      if (!dead.empty()) {
        DeadCodeRemover dce(ctx, std::move(dead));
        const Stmt* body = dce.MutateStmt(g->body);
        Function* nf = util::CloneFunction(ctx, *g);
        nf->body = body ? body : util::Seq(ctx, {}, g->span);
        g = nf;
      }
      changed |= g != f;
      out.push_back(g);
    }
    return changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateSimplifyPass() { return std::make_unique<SimplifyPass>(); }

}  // namespace pypto::passes
