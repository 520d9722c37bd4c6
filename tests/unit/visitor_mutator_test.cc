// IRVisitor (defs vs uses, type walking) and IRMutator (sharing of unchanged
// subtrees, substitution, re-deduction of op calls, deletion/splicing).
#include <catch2/catch.hpp>
#include <map>

#include "irinfra_test_ops.h"
#include "pypto/core/check.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/structural_equal.h"
#include "pypto/ir/verifier.h"
#include "pypto/ir/visitor.h"

using namespace pypto;
using namespace pypto::ir;
using pypto::ir::testing::TestOps;

namespace {

struct Counter : IRVisitor {
  explicit Counter(bool types) { visit_types_ = types; }
  std::map<std::string, int> defs, uses;
  int calls = 0;
  void VisitVarDef(const Var* v) override {
    ++defs[v->name_hint];
    IRVisitor::VisitVarDef(v);
  }
  void Visit_Var(const Var* v) override { ++uses[v->name_hint]; }
  void Visit_IterArg(const IterArg* v) override { ++uses[v->name_hint]; }
  void Visit_Call(const Call* c) override {
    ++calls;
    IRVisitor::Visit_Call(c);
  }
};

// kernel k(x: Tile[[16, N]], n): t = tadd(x, x); for i, (acc,) in range(0, n, 1, init=(t,)):
// yield tadd(acc, x); return acc_out
struct Fixture {
  Context ctx;
  IRBuilder b{ctx, &TestOps()};
  const Var* N = b.DynamicDim("N");
  const TileType* tt = b.TileT({b.Int(16), N}, DataType::kFP32);
  const Function* f = b.BuildFunction(
      {"k", FunctionType::kInCore, std::nullopt, std::nullopt, {tt}},
      {{"x", tt}, {"n", b.ScalarT(DataType::kIndex)}}, [&](const std::vector<const Var*>& p) {
        const Var* t = b.Assign("t", b.Op("test.tadd", {p[0], p[0]}));
        auto l = b.For("i", b.Int(0), p[1], b.Int(1), {{"acc", t}},
                       [&](const Var*, const std::vector<const IterArg*>& it) {
                         b.Yield({b.Op("test.tadd", {it[0], p[0]})});
                       });
        b.Return({l.results[0]});
      });
  const Program* prog = b.BuildProgram("P", {f}, {N});
};

}  // namespace

TEST_CASE("visitor separates definitions from uses") {
  Fixture fx;
  Counter c(false);
  c.VisitProgram(*fx.prog);
  CHECK(c.defs == std::map<std::string, int>{
                      {"x", 1}, {"n", 1}, {"t", 1}, {"i", 1}, {"acc", 1}, {"acc_out", 1}});
  // x: tadd(x, x) + tadd(acc, x); t: iter-arg init; n: loop stop; acc: loop body.
  CHECK(c.uses ==
        std::map<std::string, int>{{"x", 3}, {"t", 1}, {"n", 1}, {"acc", 1}, {"acc_out", 1}});
  CHECK(c.calls == 2);
}

TEST_CASE("visitor with visit_types_ sees symbolic dims in types") {
  Fixture fx;
  Counter c(true);
  c.VisitFunction(*fx.f);
  CHECK(c.uses["N"] > 0);
  Counter plain(false);
  plain.VisitFunction(*fx.f);
  CHECK(plain.uses.count("N") == 0);
}

TEST_CASE("identity mutation shares everything") {
  Fixture fx;
  IRMutator m(fx.ctx);
  CHECK(m.MutateProgram(*fx.prog) == fx.prog);
  CHECK(m.MutateFunction(*fx.f) == fx.f);
}

TEST_CASE("substituting a dynamic dim rebuilds types, vars and re-deduces calls") {
  Fixture fx;
  IRMutator m(fx.ctx);
  m.Substitute(fx.N, fx.b.Int(64));
  const Function* g = m.MutateFunction(*fx.f);
  REQUIRE(g != fx.f);
  // The parameter was rebound with the concrete type.
  const auto* pt = Cast<TileType>(g->params[0]->type);
  REQUIRE(Isa<ConstInt>(pt->shape[1]));
  CHECK(Cast<ConstInt>(pt->shape[1])->value == 64);
  CHECK(g->params[1] == fx.f->params[1]);  // scalar param unchanged and shared
  // The first call was re-deduced: its type now has the static shape.
  const auto* a = Cast<AssignStmt>(Cast<SeqStmt>(g->body)->stmts[0]);
  CHECK(Cast<ConstInt>(Cast<TileType>(a->value->type)->shape[1])->value == 64);
  CHECK(Cast<Call>(a->value)->args[0] == g->params[0]);
  // Equal to the same function built directly with 64.
  Context& ctx = fx.ctx;
  IRBuilder b(ctx, &TestOps());
  const TileType* tt = b.TileT(b.Shape({16, 64}), DataType::kFP32);
  const Function* want = b.BuildFunction(
      {"k", FunctionType::kInCore, std::nullopt, std::nullopt, {tt}},
      {{"x", tt}, {"n", b.ScalarT(DataType::kIndex)}}, [&](const std::vector<const Var*>& p) {
        const Var* t = b.Assign("t", b.Op("test.tadd", {p[0], p[0]}));
        auto l = b.For("i", b.Int(0), p[1], b.Int(1), {{"acc", t}},
                       [&](const Var*, const std::vector<const IterArg*>& it) {
                         b.Yield({b.Op("test.tadd", {it[0], p[0]})});
                       });
        b.Return({l.results[0]});
      });
  std::string why;
  CHECK(StructuralEqual(*g, *want, &why));
  CHECK(why == "");
  const Program* p2 = b.BuildProgram("P", {g}, {fx.N});
  DiagnosticEngine diag;
  CHECK(VerifyProgram(ctx, *p2, diag, VerifyOptions{true}));
  CHECK(diag.Render() == "");
}

TEST_CASE("substitution touching one statement shares the others") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const Function* f = b.BuildFunction(
      {"f"}, {{"a", b.ScalarT(DataType::kIndex)}, {"c", b.ScalarT(DataType::kIndex)}},
      [&](const std::vector<const Var*>& p) {
        b.Eval(b.Add(p[0], b.Int(1)));
        b.Eval(b.Add(p[1], b.Int(1)));
      });
  IRMutator m(ctx);
  const Var* z = ctx.NewVar("z", ctx.Scalar(DataType::kIndex));
  m.Substitute(f->params[1], z);
  const Function* g = m.MutateFunction(*f);
  REQUIRE(g != f);
  const auto* fs = Cast<SeqStmt>(f->body);
  const auto* gs = Cast<SeqStmt>(g->body);
  CHECK(gs->stmts[0] == fs->stmts[0]);  // untouched: shared
  CHECK(gs->stmts[1] != fs->stmts[1]);
  CHECK(g->params[1] == z);  // the binding was renamed too
  CHECK(Cast<BinaryExpr>(Cast<EvalStmt>(gs->stmts[1])->expr)->lhs == z);
}

TEST_CASE("mutator hooks delete and splice statements") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  b.Eval(b.Int(1));
  b.Eval(b.Int(2));
  b.Eval(b.Int(3));
  const SeqStmt* s = b.TakeBody();
  struct Edit : IRMutator {
    using IRMutator::IRMutator;
    const Stmt* Mutate_EvalStmt(const EvalStmt* e) override {
      int64_t v = Cast<ConstInt>(e->expr)->value;
      if (v == 1) return nullptr;  // delete
      if (v == 2) {                // expand into two
        return ctx_.Make<SeqStmt>(std::vector<const Stmt*>{ctx_.Make<EvalStmt>(ctx_.Int(20)),
                                                           ctx_.Make<EvalStmt>(ctx_.Int(21))});
      }
      return e;
    }
  } m(ctx);
  const auto* out = Cast<SeqStmt>(m.MutateStmt(s));
  REQUIRE(out->stmts.size() == 3);
  CHECK(Cast<ConstInt>(Cast<EvalStmt>(out->stmts[0])->expr)->value == 20);
  CHECK(Cast<ConstInt>(Cast<EvalStmt>(out->stmts[1])->expr)->value == 21);
  CHECK(out->stmts[2] == s->stmts[2]);
}

TEST_CASE("a rebuilt call that no longer type-checks is an internal error") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const Var* t = ctx.NewVar("t", b.TileT(b.Shape({4}), DataType::kFP32));
  const Var* h = ctx.NewVar("h", b.TileT(b.Shape({4}), DataType::kFP16));
  const Call* c = b.Op("test.tadd", {t, t});
  IRMutator m(ctx);
  m.Substitute(t, h);
  // tadd(h, h) is still fine (same dtype on both sides) ...
  CHECK(Cast<TileType>(m.MutateExpr(c)->type)->dtype == DataType::kFP16);
  // ... but replacing only one side breaks it.
  IRMutator m2(ctx);
  const Var* u = ctx.NewVar("u", b.TileT(b.Shape({4}), DataType::kFP32));
  const Call* c2 = b.Op("test.tadd", {t, u});
  m2.Substitute(u, h);
  CHECK_THROWS_AS(m2.MutateExpr(c2), InternalError);
  CHECK_THROWS_WITH(m2.MutateExpr(c2),
                    Catch::Contains("test.tadd: argument 'rhs' must have the dtype of 'lhs'"));
}

TEST_CASE("attrs holding expressions are substituted; op and kwargs are kept") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const Var* t = ctx.NewVar("t", b.TileT(b.Shape({4}), DataType::kFP32));
  const Var* r = ctx.NewVar("r", ctx.Scalar(DataType::kIndex));
  const Call* c = b.Op("test.scale", {t}, {{"factor", Attr::Int(5)}}, {{"device", Attr::Of(r)}});
  IRMutator m(ctx);
  m.Substitute(r, b.Int(3));
  const auto* n = Cast<Call>(m.MutateExpr(c));
  REQUIRE(n != c);
  CHECK(n->op == c->op);
  CHECK(n->args[0] == t);
  CHECK(n->type == c->type);  // args unchanged: no re-deduction
  REQUIRE(n->kwargs.size() == 1);
  CHECK(n->kwargs[0].value.i == 5);
  CHECK(Cast<ConstInt>(FindAttr(n->attrs, "device")->expr)->value == 3);
}
