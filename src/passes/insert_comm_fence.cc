// insert-comm-fence: memory-ordering markers around communication in kernels
// (InCore / AIC / AIV bodies), one structural walk:
//  * after a local publishing write — tile.store / tensor.write / tensor.assemble /
//    pld.tile.get / pld.tensor.get whose destination is a DistributedTensor —
//    `pl.system.cacheinvalid(dst, dst_shape, [0, ...])` + `pl.system.fence()`;
//  * after a remote write — pld.tile.remote_store / pld.tensor.remote_store /
//    pld.tile.put / pld.tensor.put — only `pl.system.fence()` (the peer-side
//    invalidation is the emitter's job);
//  * after an opaque write (a call of another function) —
//    `pl.system.cacheinvalid()` + `pl.system.fence()`;
//  * after every pld.system.wait — `pl.system.cacheinvalid()`;
//  * pld.system.notify — nothing.
// Idempotent: when the statements following a write already are the markers it
// needs, nothing is inserted. A single-statement loop/branch body that needs
// markers becomes a statement list.
#include <fmt/format.h>

#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/ops/ops.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

const Call* CallOf(const Stmt* s) {
  if (auto* a = As<AssignStmt>(s)) return As<Call>(a->value);
  if (auto* e = As<EvalStmt>(s)) return As<Call>(e->expr);
  return nullptr;
}

enum class Need { kNone, kPublish, kRemote, kOpaque, kWait };

// What `c` needs and, for publishing writes, the written DistributedTensor:
// the argument the op's registration declares written (OpDef::EffectOf).
Need Classify(const Call& c, const Expr** dst) {
  if (!c.op) return Need::kOpaque;
  if (c.Is(ops::kTileStore) || c.Is(ops::kTensorWrite) || c.Is(ops::kTensorAssemble) ||
      c.Is(ops::kPldTileGet) || c.Is(ops::kPldTensorGet)) {
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (c.op->EffectOf(static_cast<int>(i), c.kwargs) == ArgEffect::kRead) continue;
      if (!Isa<DistributedTensorType>(c.args[i]->type)) return Need::kNone;
      *dst = c.args[i];
      return Need::kPublish;
    }
    return Need::kNone;
  }
  if (c.Is(ops::kPldTileRemoteStore) || c.Is(ops::kPldTensorRemoteStore) ||
      c.Is(ops::kPldTilePut) || c.Is(ops::kPldTensorPut))
    return Need::kRemote;
  if (c.Is(ops::kPldWait)) return Need::kWait;
  return Need::kNone;
}

bool IsOp(const Stmt* s, OpHandle op) {
  const Call* c = CallOf(s);
  return c && c->Is(op);
}

class FenceInserter : public IRMutator {
 public:
  explicit FenceInserter(Context& ctx) : IRMutator(ctx), b_(ctx) {}

  const Stmt* MutateStmt(const Stmt* s) override {
    if (s && !Isa<AssignStmt>(s) && !Isa<EvalStmt>(s) && !Isa<SeqStmt>(s)) seq_ = nullptr;
    return IRMutator::MutateStmt(s);
  }

  const Stmt* Mutate_SeqStmt(const SeqStmt* s) override {
    bool changed = false;
    std::vector<const Stmt*> out;
    for (size_t i = 0; i < s->stmts.size(); ++i) {
      seq_ = s;
      next_ = i + 1;
      const Stmt* n = MutateStmt(s->stmts[i]);
      if (n != s->stmts[i]) changed = true;
      if (!n) continue;
      if (auto* seq = As<SeqStmt>(n); seq && n != s->stmts[i])
        out.insert(out.end(), seq->stmts.begin(), seq->stmts.end());
      else
        out.push_back(n);
    }
    seq_ = nullptr;
    return changed ? ctx_.Make<SeqStmt>(std::move(out), s->span) : s;
  }

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    return AddMarkers(IRMutator::Mutate_AssignStmt(s), s);
  }
  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    return AddMarkers(IRMutator::Mutate_EvalStmt(s), s);
  }

  int inserted = 0;

 private:
  const Stmt* AddMarkers(const Stmt* r, const Stmt* orig) {
    // The statements after this one in its enclosing list (none for a bare body).
    const SeqStmt* seq = seq_;
    size_t next = next_;
    seq_ = nullptr;
    const Call* c = CallOf(r);
    if (!c) return r;
    const Expr* dst = nullptr;
    Need need = Classify(*c, &dst);
    if (need == Need::kNone) return r;
    auto at = [&](size_t i) -> const Stmt* {
      return seq && next + i < seq->stmts.size() ? seq->stmts[next + i] : nullptr;
    };
    b_.SetSpan(orig->span);
    std::vector<const Stmt*> out{r};
    switch (need) {
      case Need::kPublish:
      case Need::kOpaque: {
        if (IsOp(at(0), ops::kSystemCacheinvalid) && IsOp(at(1), ops::kSystemFence)) return r;
        if (need == Need::kPublish) {
          const TensorType* tt = util::TensorTypeOf(dst);
          std::vector<const Expr*> zeros(tt->rank(), nullptr);
          for (auto& z : zeros) z = ctx_.Int(0);
          out.push_back(
              Eval(b_.Op(ops::kSystemCacheinvalid, {dst, b_.Tuple(tt->shape), b_.Tuple(zeros)})));
        } else {
          out.push_back(Eval(b_.Op(ops::kSystemCacheinvalid, {})));
        }
        out.push_back(Eval(b_.Op(ops::kSystemFence, {})));
        break;
      }
      case Need::kRemote:
        if (IsOp(at(0), ops::kSystemFence)) return r;
        out.push_back(Eval(b_.Op(ops::kSystemFence, {})));
        break;
      case Need::kWait:
        if (IsOp(at(0), ops::kSystemCacheinvalid)) return r;
        out.push_back(Eval(b_.Op(ops::kSystemCacheinvalid, {})));
        break;
      case Need::kNone:
        break;
    }
    inserted += static_cast<int>(out.size()) - 1;
    return ctx_.Make<SeqStmt>(std::move(out), orig->span);
  }
  const Stmt* Eval(const Call* c) { return ctx_.Make<EvalStmt>(c, c->span); }

  IRBuilder b_;
  const SeqStmt* seq_ = nullptr;  // list of the statement being mutated
  size_t next_ = 0;               // index of its successor in seq_
};

class InsertCommFencePass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine&) override {
    return util::RewriteBodies(
        ctx, prog, [](const Function& f) { return f.IsKernel(); },
        [&](const Function& f) { return FenceInserter(ctx).MutateStmt(f.body); });
  }
};

}  // namespace

std::unique_ptr<Pass> CreateInsertCommFencePass() {
  return std::make_unique<InsertCommFencePass>();
}

}  // namespace pypto::passes
