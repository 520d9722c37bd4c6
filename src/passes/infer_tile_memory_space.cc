// infer-tile-memory-space: every kernel tile gets a memory space. A tile.load /
// tile.create / pld.tile.remote_load whose result has none gets `target_memory=` set to the space its
// first consumer requires (the consumer op's declared input memory for that
// argument; the first listed space when several are allowed), else pl.Mem.Vec;
// its Var is rebound with the new type and later calls are re-deduced. Other
// producers derive their space from their operands through their deducers.
// Tiles still without a space afterwards are reported (not supported).
#include <fmt/format.h>

#include "ir_walk.h"
#include "pass_util.h"
#include "pypto/ir/mutator.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

// The memory space the first consumer of each Var requires.
std::unordered_map<const Var*, MemorySpace> Requirements(const Stmt* body) {
  std::unordered_map<const Var*, MemorySpace> req;
  walk::ForEachCall(body, [&](const Call* c, const Stmt*) {
    if (!c->op) return;
    for (size_t i = 0; i < c->args.size(); ++i) {
      const Var* v = AsVarLike(c->args[i]);
      if (!v || req.count(v)) continue;
      auto it = c->op->input_memory.find(static_cast<int>(i));
      if (it != c->op->input_memory.end() && !it->second.empty()) req[v] = it->second.front();
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
    if (c && tt && !tt->memory_space && (c->IsOp("tile.load") || c->IsOp("tile.create") ||
                               c->IsOp("pld.tile.remote_load"))) {
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

 private:
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
      diag.Error(Span{}, "infer-tile-memory-space: not supported: " + why +
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
