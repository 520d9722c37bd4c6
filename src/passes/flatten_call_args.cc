// flatten-call-args: kernel bodies in A-normal form for the PTO backend.
//
// The PTO emitter binds every tile / tensor / comm-context value to a named
// SSA value, so an op call nested as the argument of another call
// (`pl.tile.store(pl.tile.load(x, ...), [0, 0], y)`, upstream's one-liner
// style) cannot be emitted. In every kernel (InCore / AIC / AIV) this pass
// binds each such nested call to a fresh Var right before the statement that
// contains it:
//
//     tile = pl.tile.load(x, [0, 0], [16, 16])
//     y_1 = pl.tile.store(tile, [0, 0], y)
//
//  * Which calls: a Call whose result is not a scalar, appearing as an argument
//    (or an element of a tuple argument) of another call, or as a value of a
//    pl.yield_ / return. Scalar-valued calls nested in expressions stay inline
//    (the backend evaluates them where they stand), except that the
//    left-to-right evaluation order of a call's arguments is kept: when argument
//    i is hoisted, every earlier argument containing a call is hoisted too.
//  * Inner calls are hoisted before outer ones (evaluation order). Calls in an
//    if condition, loop bounds or iter-arg inits go before that statement; a
//    while condition is evaluated every iteration and is left as written.
//  * Names: the consumer's argument name (`tile`, `src`, `lhs`, ...); for a
//    yield / return value or a function-call argument, the nested op's short
//    name (`load`, `add`); the printer makes them unique. Var ids follow the
//    visit order, so the output is deterministic.
// Host and orchestration functions are left alone (their inline slices and
// views are read by the host passes). Idempotent.
#include <string>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/mutator.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

bool ContainsCall(const Expr* e) {
  bool found = false;
  walk::ForEachExpr(e, [&](const Expr* x) { found |= Isa<Call>(x); });
  return found;
}

// Comm ops with an Unknown result are statements, never values: left alone.
bool IsNonScalarCall(const Expr* e) {
  return Isa<Call>(e) && !Isa<ScalarType>(e->type) && !Isa<UnknownType>(e->type);
}

// Whether argument `e` holds a non-scalar call that must be named (directly or
// as a tuple element).
bool NeedsHoist(const Expr* e) {
  if (IsNonScalarCall(e)) return true;
  if (const auto* t = As<MakeTuple>(e))
    for (const Expr* x : t->elements)
      if (NeedsHoist(x)) return true;
  return false;
}

std::string ShortOpName(const Call* c) {
  if (!c->op) return c->callee;
  return std::string(c->op->ShortName());
}

class CallArgFlattener : public IRMutator {
 public:
  using IRMutator::IRMutator;

  // Each statement collects the bindings its expressions need in `pending_`
  // and is replaced by `pending...; stmt` (spliced into the enclosing list).
  const Stmt* MutateStmt(const Stmt* s) override {
    if (!s) return s;
    std::vector<const Stmt*> saved;
    saved.swap(pending_);
    bool saved_suppress = suppress_;
    suppress_ = false;
    const Stmt* r = IRMutator::MutateStmt(s);
    suppress_ = saved_suppress;
    std::vector<const Stmt*> mine;
    mine.swap(pending_);
    pending_.swap(saved);
    if (mine.empty()) return r;
    if (const auto* seq = As<SeqStmt>(r))
      mine.insert(mine.end(), seq->stmts.begin(), seq->stmts.end());
    else if (r)
      mine.push_back(r);
    return util::Seq(ctx_, std::move(mine), s->span);
  }

  const Stmt* Mutate_WhileStmt(const WhileStmt* s) override {
    suppress_ = true;  // the condition is re-evaluated every iteration
    const Stmt* r = IRMutator::Mutate_WhileStmt(s);
    suppress_ = false;
    return r;
  }

  const Expr* Mutate_Call(const Call* c) override {
    if (suppress_) return IRMutator::Mutate_Call(c);
    int last = -1;
    for (size_t i = 0; i < c->args.size(); ++i)
      if (NeedsHoist(c->args[i])) last = static_cast<int>(i);
    bool changed = false;
    std::vector<const Expr*> args;
    args.reserve(c->args.size());
    for (size_t i = 0; i < c->args.size(); ++i) {
      const Expr* a = MutateExpr(c->args[i]);
      if (static_cast<int>(i) <= last) a = HoistArg(a, ArgName(c, i));
      changed |= a != c->args[i];
      args.push_back(a);
    }
    bool kw_changed = false, at_changed = false;
    AttrList kwargs = MutateAttrs(c->kwargs, &kw_changed);
    AttrList attrs = MutateAttrs(c->attrs, &at_changed);
    if (!changed && !kw_changed && !at_changed) return c;
    if (c->op) return RebuildOpCall(c, std::move(args), std::move(kwargs), std::move(attrs));
    return ctx_.Make<Call>(nullptr, c->callee, std::move(args), std::move(kwargs), std::move(attrs),
                           c->type, c->span);
  }

  const Stmt* Mutate_YieldStmt(const YieldStmt* s) override {
    std::vector<const Expr*> values = HoistValues(s->values);
    if (values == s->values) return s;
    return ctx_.Make<YieldStmt>(std::move(values), s->span);
  }

  const Stmt* Mutate_ReturnStmt(const ReturnStmt* s) override {
    std::vector<const Expr*> values = HoistValues(s->values);
    if (values == s->values) return s;
    return ctx_.Make<ReturnStmt>(std::move(values), s->span);
  }

 private:
  static std::string ArgName(const Call* c, size_t i) {
    if (c->op && i < c->op->args.size()) return c->op->args[i].name;
    return "";
  }

  // Binds `e` (a mutated argument) to a fresh Var when it contains a call;
  // tuple arguments stay tuples, their elements are bound one by one.
  const Expr* HoistArg(const Expr* e, const std::string& name) {
    if (const auto* t = As<MakeTuple>(e)) {
      bool changed = false;
      std::vector<const Expr*> el;
      el.reserve(t->elements.size());
      for (const Expr* x : t->elements) {
        const Expr* y = HoistArg(x, name);
        changed |= y != x;
        el.push_back(y);
      }
      if (!changed) return e;
      return ctx_.Make<MakeTuple>(std::move(el), t->type, t->span);
    }
    if (!ContainsCall(e) || Isa<UnknownType>(e->type)) return e;
    return Bind(e, name);
  }

  const Expr* Bind(const Expr* e, std::string name) {
    if (name.empty()) name = Isa<Call>(e) ? ShortOpName(static_cast<const Call*>(e)) : "tmp";
    const Var* v = ctx_.NewVar(name, e->type, e->span);
    pending_.push_back(ctx_.Make<AssignStmt>(v, e, e->span));
    return v;
  }

  std::vector<const Expr*> HoistValues(const std::vector<const Expr*>& in) {
    std::vector<const Expr*> out;
    out.reserve(in.size());
    for (const Expr* v : in) {
      const Expr* m = MutateExpr(v);
      if (IsNonScalarCall(m)) m = Bind(m, "");
      out.push_back(m);
    }
    return out;
  }

  std::vector<const Stmt*> pending_;
  bool suppress_ = false;
};

class FlattenCallArgsPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine&) override {
    return util::RewriteBodies(
        ctx, prog, [](const Function& f) { return f.IsKernel(); },
        [&](const Function& f) {
          CallArgFlattener m(ctx);
          return m.MutateStmt(f.body);
        });
  }
};

}  // namespace

std::unique_ptr<Pass> CreateFlattenCallArgsPass() {
  return std::make_unique<FlattenCallArgsPass>();
}

}  // namespace pypto::passes
