// infer-tile-memory-space: every kernel tile gets a memory space. A tile.load /
// tile.create / pld.tile.remote_load whose result has none gets `target_memory=` set
// to the space its first consumer requires (the consumer op's declared input memory
// for that argument, the first listed space when several are allowed; for tile.move
// the space with a path to its target, so a tile moved to pl.Mem.Left is loaded into
// pl.Mem.Mat), else pl.Mem.Vec; its Var is rebound with the new type and later calls
// are re-deduced (a call that no longer type-checks is the program's error, reported
// at the call). Other producers derive their space from their operands through their
// deducers. Loop-carried tiles follow: an iter arg without a space takes its init's
// (else its yielded value's), and loop / if return vars take their iter arg's or
// yielded value's, so `acc = pl.load(...)` carried through `for ...: acc =
// pl.add(acc, t)` ends up in one space everywhere. Tiles still without a space
// afterwards are reported (not supported).
#include <fmt/format.h>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/mutator.h"
#include "pypto/ops/move_paths.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

// The space argument `i` of op call `c` needs: the op's declared input memory (the
// first listed), or for tile.move's source the space with a path to its target.
std::optional<MemorySpace> RequiredSpace(const Call* c, size_t i) {
  if (c->Is(ops::kTileMove) && i == 0) {
    const Attr* to = FindAttr(c->kwargs, "target_memory");
    return ops::MoveSourceFor(to ? static_cast<MemorySpace>(to->i) : MemorySpace::kVec);
  }
  auto it = c->op->input_memory.find(static_cast<int>(i));
  if (it == c->op->input_memory.end() || it->second.empty()) return std::nullopt;
  return it->second.front();
}

// The memory space the first consumer of each Var requires.
std::unordered_map<const Var*, MemorySpace> Requirements(const Stmt* body) {
  std::unordered_map<const Var*, MemorySpace> req;
  walk::ForEachCall(body, [&](const Call* c, const Stmt*) {
    if (!c->op) return;
    for (size_t i = 0; i < c->args.size(); ++i) {
      const Var* v = AsVarLike(c->args[i]);
      if (!v || req.count(v)) continue;
      if (auto m = RequiredSpace(c, i)) req[v] = *m;
    }
  });
  return req;
}

class MemoryInferrer : public IRMutator {
 public:
  MemoryInferrer(Context& ctx, std::unordered_map<const Var*, MemorySpace> req,
                 DiagnosticEngine& diag)
      : IRMutator(ctx), req_(std::move(req)), diag_(diag) {}

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    const Expr* v = MutateExpr(s->value);
    auto* c = As<Call>(v);
    auto* tt = As<TileType>(v->type);
    if (c && tt && !tt->memory_space &&
        (c->Is(ops::kTileLoad) || c->Is(ops::kTileCreate) || c->Is(ops::kPldTileRemoteLoad))) {
      auto it = req_.find(s->var);
      MemorySpace m = it == req_.end() ? MemorySpace::kVec : it->second;
      AttrList kw;
      for (const auto& a : c->kwargs)
        if (a.name != "target_memory") kw.push_back(a);
      kw.push_back({"target_memory", Attr::Int(static_cast<int>(m))});
      DiagnosticEngine scratch(diag_.sources());
      const Call* nc = MakeOpCall(ctx_, *c->op, c->args, kw, c->attrs, c->span, scratch);
      if (!nc) {
        for (const Diagnostic& d : scratch.diagnostics())
          diag_.Error(d.span.IsKnown() ? d.span : s->span, "infer-tile-memory-space: " + d.message);
        return s;
      }
      v = nc;
    }
    const Var* var = s->var;
    if (v->type != var->type && Isa<TileType>(v->type)) {
      const Var* nv = ctx_.NewVar(var->name_hint, v->type, var->span);
      Substitute(var, nv);
      var = nv;
    } else {
      var = MutateVarDef(var);
    }
    if (v == s->value && var == s->var) return s;
    return ctx_.Make<AssignStmt>(var, v, s->span);
  }

  // A call re-deduced on an operand whose space was just inferred may no longer
  // type-check (a tile its first consumer made pl.Mem.Vec, later moved to
  // pl.Mem.Left): the program's error, reported at the call, not an internal one.
  const Expr* Mutate_Call(const Call* c) override {
    if (!c->op) return IRMutator::Mutate_Call(c);
    bool changed = false;
    std::vector<const Expr*> args = MutateExprs(c->args, &changed);
    AttrList kw = MutateAttrs(c->kwargs, &changed);
    if (!changed) return IRMutator::Mutate_Call(c);
    DiagnosticEngine scratch(diag_.sources());
    const Call* n = MakeOpCall(ctx_, *c->op, std::move(args), std::move(kw),
                               MutateAttrs(c->attrs, &changed), c->span, scratch);
    if (n) return n;
    for (const Diagnostic& d : scratch.diagnostics())
      diag_.Error(d.span.IsKnown() ? d.span : c->span,
                  "infer-tile-memory-space: " + d.message +
                      " (after the operand's memory space was "
                      "inferred from its first use; give it target_memory= to choose another)");
    return c;
  }

  const Stmt* Mutate_ForStmt(const ForStmt* s) override {
    loop_ = {s->body, &s->return_vars};
    return IRMutator::Mutate_ForStmt(s);
  }
  const Stmt* Mutate_WhileStmt(const WhileStmt* s) override {
    loop_ = {s->body, &s->return_vars};
    return IRMutator::Mutate_WhileStmt(s);
  }

  // A tile iter arg without a space takes its init's space (else the space of
  // what the body yields for it); the loop's return var follows.
  std::vector<const IterArg*> MutateIterArgs(const std::vector<const IterArg*>& v,
                                             bool* changed) override {
    const YieldStmt* y = util::TrailingYield(loop_.body);
    const std::vector<const Var*>& rvs = *loop_.return_vars;
    std::vector<const IterArg*> out;
    for (size_t i = 0; i < v.size(); ++i) {
      const IterArg* ia = v[i];
      const Expr* init = MutateExpr(ia->init);
      const Type* t = MutateType(ia->type);
      if (SpacelessTile(t)) {
        if (const Type* from = SpacedTile(init))
          t = from;
        else if (y && i < y->values.size() && SpacedTile(y->values[i]))
          t = y->values[i]->type;
      }
      if (init == ia->init && t == ia->type) {
        out.push_back(ia);
        continue;
      }
      const IterArg* n = ctx_.NewIterArg(ia->name_hint, t, init, ia->span);
      Substitute(ia, n);
      out.push_back(n);
      *changed = true;
      if (i < rvs.size() && SpacelessTile(rvs[i]->type) && SpacedTile(n))
        Substitute(rvs[i], ctx_.NewVar(rvs[i]->name_hint, t, rvs[i]->span));
    }
    return out;
  }

  const Stmt* Mutate_IfStmt(const IfStmt* s) override {
    const Expr* c = MutateExpr(s->cond);
    const Stmt* t = MutateStmt(s->then_body);
    const Stmt* e = s->else_body ? MutateStmt(s->else_body) : nullptr;
    RetypeReturnVars(s->return_vars, t, e);
    bool changed = c != s->cond || t != s->then_body || e != s->else_body;
    std::vector<const Var*> rv = MutateVarDefs(s->return_vars, &changed);
    if (!changed) return s;
    if (!t) t = ctx_.Make<SeqStmt>(std::vector<const Stmt*>{}, s->span);
    return ctx_.Make<IfStmt>(c, t, e, std::move(rv), s->span);
  }

 private:
  static const TileType* SpacelessTile(const Type* t) {
    const auto* tt = As<TileType>(t);
    return tt && !tt->memory_space ? tt : nullptr;
  }
  static const Type* SpacedTile(const Expr* e) {
    const auto* tt = e ? As<TileType>(e->type) : nullptr;
    return tt && tt->memory_space ? tt : nullptr;
  }

  // An if's return vars without a space take the (mutated) yielded value's;
  // the new Var is substituted so MutateVarDefs binds it.
  void RetypeReturnVars(const std::vector<const Var*>& rvs, const Stmt* then_body,
                        const Stmt* else_body) {
    const YieldStmt* yt = util::TrailingYield(then_body);
    const YieldStmt* ye = else_body ? util::TrailingYield(else_body) : nullptr;
    for (size_t i = 0; i < rvs.size(); ++i) {
      if (!SpacelessTile(rvs[i]->type) || Substitution(rvs[i])) continue;
      const Type* t = yt && i < yt->values.size() ? SpacedTile(yt->values[i]) : nullptr;
      if (!t && ye && i < ye->values.size()) t = SpacedTile(ye->values[i]);
      if (t) Substitute(rvs[i], ctx_.NewVar(rvs[i]->name_hint, t, rvs[i]->span));
    }
  }

  struct Loop {
    const Stmt* body = nullptr;
    const std::vector<const Var*>* return_vars = nullptr;
  } loop_;  // the loop whose iter args are being rebuilt
  std::unordered_map<const Var*, MemorySpace> req_;
  DiagnosticEngine& diag_;
};

class InferTileMemorySpacePass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    std::vector<const Function*> out;
    bool changed = false;
    for (const Function* f : prog.functions) {
      if (!f->IsKernel()) {
        out.push_back(f);
        continue;
      }
      MemoryInferrer mi(ctx, Requirements(f->body), diag);
      const Function* g = mi.MutateFunction(*f);
      changed |= g != f;
      out.push_back(g);
    }
    if (diag.HasErrors()) return nullptr;
    const Program* result = changed ? util::WithFunctions(ctx, prog, std::move(out)) : &prog;
    std::string why;
    if (!CheckProperty(*result, IRProperty::kTileMemoryInferred, &why)) {
      diag.Error(Span{},
                 "infer-tile-memory-space: not supported: " + why +
                     " (only tile.load / tile.create / pld.tile.remote_load results are inferred)");
      return nullptr;
    }
    return result;
  }
};

}  // namespace

std::unique_ptr<Pass> CreateInferTileMemorySpacePass() {
  return std::make_unique<InferTileMemorySpacePass>();
}

}  // namespace pypto::passes
