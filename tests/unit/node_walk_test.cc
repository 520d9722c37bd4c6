// The walks generated from node_kinds.def reach every child field of every
// expression and statement kind: one sample node per kind whose every child
// field holds its own marker (a distinct Var use, binding or statement), then
// IRVisitor, the node_walk.h helpers, IRMutator substitution, structural
// equality and hashing must each see every marker. A new kind without a
// sample here fails the coverage check.
#include "pypto/ir/node_walk.h"

#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/structural_equal.h"
#include "pypto/ir/visitor.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

struct Sample {
  const Node* node = nullptr;
  std::vector<const Var*> uses;  // marker vars used (including in child stmts)
  std::vector<const Var*> defs;  // marker vars bound by the node itself
};

// Builds one sample per kind; U() / D() / S() make markers of the sample in
// construction.
struct Samples {
  Context ctx;
  const Type* idx = ctx.Scalar(DataType::kIndex);
  std::vector<Sample> all;
  Sample cur;

  const Var* U() {
    const Var* v = ctx.NewVar("u" + std::to_string(cur.uses.size()), idx);
    cur.uses.push_back(v);
    return v;
  }
  const Var* D() {
    const Var* v = ctx.NewVar("d" + std::to_string(cur.defs.size()), idx);
    cur.defs.push_back(v);
    return v;
  }
  const IterArg* IA() {
    const IterArg* v = ctx.NewIterArg("ia" + std::to_string(cur.defs.size()), idx, U());
    cur.defs.push_back(v);
    return v;
  }
  const Stmt* S() { return ctx.Make<EvalStmt>(U()); }
  AttrList At() { return {{"k", Attr::List({Attr::Int(1), Attr::Of(U())})}}; }
  template <class N>
  void Add(const N* n) {
    cur.node = n;
    all.push_back(cur);
    cur = {};
  }

  Samples() {
    const Var* u = U();
    Add(u);
    const IterArg* ia = ctx.NewIterArg("ia", idx, ctx.Int(0));
    cur.uses.push_back(ia);
    Add(ia);
    Add(ctx.Int(3));
    Add(ctx.Float(1.5));
    Add(ctx.Bool(true));
    Add(ctx.Make<BinaryExpr>(BinaryOp::kAdd, U(), U(), idx));
    Add(ctx.Make<UnaryExpr>(UnaryOp::kNeg, U(), idx));
    {
      const Var *a = U(), *b = U();
      AttrList kw = At(), at = At();
      Add(ctx.Make<Call>(nullptr, "g", std::vector<const Expr*>{a, b}, std::move(kw), std::move(at),
                         idx));
    }
    {
      const Var *a = U(), *b = U();
      Add(ctx.Make<MakeTuple>(std::vector<const Expr*>{a, b},
                              ctx.Make<TupleType>(std::vector<const Type*>{idx, idx})));
    }
    Add(ctx.Make<TupleGetItem>(U(), 0, idx));

    {
      const Expr* v = U();
      Add(ctx.Make<AssignStmt>(D(), v));
    }
    Add(ctx.Make<EvalStmt>(U()));
    {
      const Var *a = U(), *b = U();
      Add(ctx.Make<ReturnStmt>(std::vector<const Expr*>{a, b}));
    }
    Add(ctx.Make<YieldStmt>(std::vector<const Expr*>{U()}));
    {
      const Expr* c = U();
      const Stmt *t = S(), *e = S();
      Add(ctx.Make<IfStmt>(c, t, e, std::vector<const Var*>{D(), D()}));
    }
    {
      const Expr *b = U(), *e = U(), *st = U();
      const Var* lv = D();
      std::vector<const IterArg*> ias{IA()};
      const Stmt* body = S();
      std::vector<const Var*> rv{D()};
      Add(ctx.Make<ForStmt>(lv, b, e, st, std::move(ias), body, std::move(rv), ForKind::kRange,
                            At()));
    }
    {
      const Expr* c = U();
      std::vector<const IterArg*> ias{IA()};
      const Stmt* body = S();
      Add(ctx.Make<WhileStmt>(c, std::move(ias), body, std::vector<const Var*>{D()}));
    }
    {
      const Stmt *a = S(), *b = S();
      Add(ctx.Make<SeqStmt>(std::vector<const Stmt*>{a, b}));
    }
    Add(ctx.Make<BreakStmt>());
    Add(ctx.Make<ContinueStmt>());
    Add(ctx.Make<InCoreScopeStmt>(S(), SplitMode::kNone, At()));
    Add(ctx.Make<HierarchyScopeStmt>(S(), Level::kCoreGroup, std::nullopt, At()));
    {
      const Stmt* body = S();
      Add(ctx.Make<SpmdScopeStmt>(body, U(), false, At()));
    }
    {
      const Var* v = D();
      Add(ctx.Make<SplitAivScopeStmt>(v, 2, SplitMode::kUpDown, S(), At()));
    }
    Add(ctx.Make<CommDomainScopeStmt>("c", std::vector<int64_t>{}, std::vector<std::string>{}, S(),
                                      At()));
    Add(ctx.Make<ManualScopeStmt>(S(), At()));
  }
};

struct Recorder : IRVisitor {
  std::vector<const Var*> uses, defs;
  void Visit_Var(const Var* v) override { uses.push_back(v); }
  void Visit_IterArg(const IterArg* v) override { uses.push_back(v); }
  void VisitVarDef(const Var* v) override { defs.push_back(v); }
  void Run(const Node* n) {
    if (Expr::ClassOf(n->kind))
      VisitExpr(static_cast<const Expr*>(n));
    else
      VisitStmt(static_cast<const Stmt*>(n));
  }
};

std::set<const Var*> SetOf(const std::vector<const Var*>& v) { return {v.begin(), v.end()}; }

// The same walk through node_walk.h's one-level helpers, recursing by hand.
void WalkExpr(const Expr* e, std::set<const Var*>& uses) {
  if (const Var* v = AsVarLike(e)) {
    uses.insert(v);
    return;
  }
  ForEachChildExpr(
      e, [&](const Expr* c) { WalkExpr(c, uses); }, [](const Type*) {});
}
void WalkStmt(const Stmt* s, std::set<const Var*>& uses, std::set<const Var*>& defs, bool top) {
  ForEachOwnExpr(s, [&](const Expr* e) { WalkExpr(e, uses); });
  if (top) ForEachOwnDef(s, [&](const Var* v) { defs.insert(v); });
  ForEachChildStmt(s, [&](const Stmt* c) { WalkStmt(c, uses, defs, false); });
}

// Substitutes the markers (uses by `to` or a fresh var, defs by fresh vars).
const Node* Mutated(Context& ctx, const Sample& s, const Var* only, const Expr* to) {
  IRMutator m(ctx);
  for (const Var* u : s.uses)
    if (!only || u == only)
      m.Substitute(u, to                ? to
                      : Isa<IterArg>(u) ? ctx.NewIterArg("n", u->type, nullptr)
                                        : ctx.NewVar("n", u->type));
  if (!only)
    for (const Var* d : s.defs)
      if (!Isa<IterArg>(d)) m.Substitute(d, ctx.NewVar("nd", d->type));
  if (Expr::ClassOf(s.node->kind)) return m.MutateExpr(static_cast<const Expr*>(s.node));
  return m.MutateStmt(static_cast<const Stmt*>(s.node));
}

bool Equal(const Node* a, const Node* b) {
  if (Expr::ClassOf(a->kind))
    return StructuralEqual(static_cast<const Expr*>(a), static_cast<const Expr*>(b));
  return StructuralEqual(static_cast<const Stmt*>(a), static_cast<const Stmt*>(b));
}
uint64_t Hash(const Node* a) {
  if (Expr::ClassOf(a->kind)) return StructuralHash(static_cast<const Expr*>(a));
  return StructuralHash(static_cast<const Stmt*>(a));
}

}  // namespace

TEST_CASE("every expression and statement kind has a walk sample") {
  Samples s;
  std::set<NodeKind> have;
  for (const Sample& x : s.all) have.insert(x.node->kind);
  for (int k = static_cast<int>(kFirstExpr); k <= static_cast<int>(kLastStmt); ++k) {
    INFO(NodeKindName(static_cast<NodeKind>(k)));
    CHECK(have.count(static_cast<NodeKind>(k)) == 1);
  }
}

TEST_CASE("IRVisitor and node_walk.h reach every child field") {
  Samples s;
  for (const Sample& x : s.all) {
    INFO(NodeKindName(x.node->kind));
    Recorder r;
    r.Run(x.node);
    CHECK(SetOf(r.uses) == SetOf(x.uses));
    CHECK(r.uses.size() == x.uses.size());  // each exactly once
    CHECK(SetOf(r.defs) == SetOf(x.defs));
    if (Stmt::ClassOf(x.node->kind)) {
      std::set<const Var*> uses, defs;
      WalkStmt(static_cast<const Stmt*>(x.node), uses, defs, true);
      CHECK(uses == SetOf(x.uses));
      CHECK(defs == SetOf(x.defs));
    } else {
      std::set<const Var*> uses;
      WalkExpr(static_cast<const Expr*>(x.node), uses);
      CHECK(uses == SetOf(x.uses));
    }
  }
}

TEST_CASE("IRMutator rebuilds every child field; equality and hashing compare every one") {
  Samples s;
  for (const Sample& x : s.all) {
    INFO(NodeKindName(x.node->kind));
    const Node* renamed = Mutated(s.ctx, x, nullptr, nullptr);
    Recorder r;
    r.Run(renamed);
    for (const Var* u : x.uses) CHECK(SetOf(r.uses).count(u) == 0);
    for (const Var* d : x.defs) CHECK(SetOf(r.defs).count(d) == 0);
    CHECK(r.uses.size() == x.uses.size());
    CHECK(r.defs.size() == x.defs.size());
    // Renaming every var is invisible to structural equality and hashing ...
    CHECK(Equal(x.node, renamed));
    CHECK(Hash(x.node) == Hash(renamed));
    // ... replacing any one use by a constant is not.
    for (const Var* u : x.uses) {
      if (Isa<IterArg>(u)) continue;
      const Node* changed = Mutated(s.ctx, x, u, s.ctx.Int(99));
      INFO(u->name_hint);
      CHECK(changed != x.node);
      CHECK_FALSE(Equal(x.node, changed));
      CHECK(Hash(x.node) != Hash(changed));
    }
  }
}
