// IRBuilder (against a private op registry, so it links the ir layer only):
// constant folding, dtype promotion, op calls (and their failure mode), and the statement-list
// stack behind For/If/While/scopes.
#include "pypto/ir/builder.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "irinfra_test_ops.h"
#include "pypto/ir/verifier.h"

using namespace pypto;
using namespace pypto::ir;
using pypto::ir::testing::TestOps;

static int64_t IntOf(const Expr* e) {
  const auto* c = As<ConstInt>(e);
  REQUIRE(c != nullptr);
  return c->value;
}

TEST_CASE("builder folds integer constants with Python semantics") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  CHECK(IntOf(b.Add(b.Int(2), b.Int(3))) == 5);
  CHECK(IntOf(b.FloorDiv(b.Int(-7), b.Int(2))) == -4);
  CHECK(IntOf(b.FloorMod(b.Int(-7), b.Int(2))) == 1);
  CHECK(IntOf(b.FloorMod(b.Int(7), b.Int(-2))) == -1);
  CHECK(IntOf(b.Min(b.Int(4), b.Int(-1))) == -1);
  CHECK(IntOf(b.Max(b.Int(4), b.Int(-1))) == 4);
  const auto* lt = As<ConstBool>(b.Lt(b.Int(1), b.Int(2)));
  REQUIRE(lt);
  CHECK(lt->value);
  // Division by zero and overflow are not folded.
  CHECK(Isa<BinaryExpr>(b.FloorDiv(b.Int(1), b.Int(0))));
  CHECK(Isa<BinaryExpr>(b.Mul(b.Int(INT64_MAX), b.Int(2))));
  CHECK(As<ConstInt>(b.Add(b.Int(2, DataType::kInt32), b.Int(3, DataType::kInt32)))->dtype() ==
        DataType::kInt32);
  const auto* f = As<ConstFloat>(b.Mul(b.Float(1.5), b.Int(2)));
  REQUIRE(f);
  CHECK(f->value == 3.0);
  CHECK(f->dtype() == DataType::kFP32);
}

TEST_CASE("builder promotes scalar dtypes and applies identities") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const Var* i32 = ctx.NewVar("a", ctx.Scalar(DataType::kInt32));
  const Var* idx = ctx.NewVar("i", ctx.Scalar(DataType::kIndex));
  const Var* f16 = ctx.NewVar("h", ctx.Scalar(DataType::kFP16));
  auto dt = [](const Expr* e) { return Cast<ScalarType>(e->type)->dtype; };
  CHECK(dt(b.Add(i32, b.Int(1))) == DataType::kInt32);  // literal adapts
  CHECK(dt(b.Add(b.Int(1), i32)) == DataType::kInt32);
  CHECK(dt(b.Add(i32, idx)) == DataType::kIndex);
  CHECK(dt(b.Div(i32, b.Int(2))) == DataType::kFP32);
  CHECK(dt(b.Mul(f16, b.Float(2.0))) == DataType::kFP32);
  CHECK(dt(b.Mul(f16, i32)) == DataType::kFP16);
  CHECK(dt(b.Lt(i32, idx)) == DataType::kBool);
  CHECK(b.Add(idx, b.Int(0)) == idx);
  CHECK(b.Mul(b.Int(1), idx) == idx);
  CHECK(b.FloorDiv(idx, b.Int(1)) == idx);
  CHECK(b.Add(i32, b.Int(0)) == i32);
  const Expr* sum = b.Add(idx, b.Int(4));
  REQUIRE(Isa<BinaryExpr>(sum));
  CHECK(Cast<BinaryExpr>(sum)->op == BinaryOp::kAdd);
}

TEST_CASE("builder casts fold constants and are the identity on equal dtype") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const Var* idx = ctx.NewVar("i", ctx.Scalar(DataType::kIndex));
  CHECK(b.Cast(idx, DataType::kIndex) == idx);
  const auto* c = As<ConstInt>(b.Cast(b.Int(7), DataType::kInt32));
  REQUIRE(c);
  CHECK(c->dtype() == DataType::kInt32);
  CHECK(As<ConstFloat>(b.Cast(b.Int(7), DataType::kFP32))->value == 7.0);
  CHECK(As<ConstInt>(b.Cast(b.Float(2.9), DataType::kInt32))->value == 2);
  const auto* u = As<UnaryExpr>(b.Cast(idx, DataType::kInt32));
  REQUIRE(u);
  CHECK(u->op == UnaryOp::kCast);
  CHECK(Cast<ScalarType>(u->type)->dtype == DataType::kInt32);
  CHECK(As<ConstBool>(b.Not(b.Bool(true)))->value == false);
  CHECK(As<ConstInt>(b.Neg(b.Int(3)))->value == -3);
}

TEST_CASE("builder op calls are type-checked; failures carry the diagnostic") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const Var* t = ctx.NewVar("t", b.TileT(b.Shape({16, 64}), DataType::kFP32));
  const Var* s = ctx.NewVar("s", b.TileT(b.Shape({16, 64}), DataType::kFP16));
  const Call* c = b.Op("test.tadd", {t, t});
  CHECK(c->op->name == "test.tadd");
  CHECK(Cast<TileType>(c->type)->dtype == DataType::kFP32);
  CHECK_THROWS_WITH(b.Op("test.tadd", {t, s}),
                    Catch::Contains("test.tadd: argument 'rhs' must have the dtype of 'lhs'"));
  CHECK_THROWS_WITH(b.Op("test.nope", {}), Catch::Contains("unknown op test.nope"));
  DiagnosticEngine diag;
  CHECK(b.TryOp("test.scale", {t}, {{"factor", Attr::Str("x")}}, {}, diag) == nullptr);
  REQUIRE(diag.ErrorCount() == 1);
  CHECK(diag.diagnostics()[0].message == "test.scale: keyword 'factor' must be an int");
  const Call* k = b.Op("test.scale", {t}, {{"factor", Attr::Int(3)}});
  REQUIRE(k->kwargs.size() == 1);
  CHECK(k->kwargs[0].value.i == 3);
}

TEST_CASE("builder For/If/While build SSA control flow that verifies") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const TileType* tt = b.TileT(b.Shape({16, 64}), DataType::kFP32);
  const Function* f = b.BuildFunction(
      {"k", FunctionType::kInCore, std::nullopt, std::nullopt, {tt}}, {{"x", tt}},
      [&](const std::vector<const Var*>& p) {
        auto loop = b.For("i", b.Int(0), b.Int(4), b.Int(1), {{"acc", p[0]}},
                          [&](const Var*, const std::vector<const IterArg*>& it) {
                            const Var* n = b.Assign("nxt", b.Op("test.tadd", {it[0], p[0]}));
                            b.Yield({n});
                          });
        REQUIRE(loop.results.size() == 1);
        CHECK(loop.results[0]->name_hint == "acc_out");
        CHECK(loop.results[0]->type == tt);
        auto w = b.While(
            {{"c", b.Int(0)}},
            [&](const std::vector<const IterArg*>& it) { return b.Lt(it[0], b.Int(8)); },
            [&](const std::vector<const IterArg*>& it) { b.Yield({b.Add(it[0], b.Int(1))}); });
        auto br = b.If(
            b.Lt(w.results[0], b.Int(3)), [&] { b.Yield({loop.results[0]}); },
            [&] { b.Yield({p[0]}); }, {"sel"});
        REQUIRE(br.results.size() == 1);
        CHECK(br.results[0]->name_hint == "sel");
        CHECK(br.results[0]->type == tt);
        b.Return({br.results[0]});
      });
  const Program* prog = b.BuildProgram("P", {f});
  const auto* body = Cast<SeqStmt>(f->body);
  REQUIRE(body->stmts.size() == 4);
  CHECK(Isa<ForStmt>(body->stmts[0]));
  CHECK(Isa<WhileStmt>(body->stmts[1]));
  CHECK(Isa<IfStmt>(body->stmts[2]));
  CHECK(Isa<ReturnStmt>(body->stmts[3]));
  DiagnosticEngine diag;
  CHECK(VerifyProgram(ctx, *prog, diag, VerifyOptions{true}));
  CHECK(diag.Render() == "");
}

TEST_CASE("builder scopes and explicit lists") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  b.HierarchyScope(Level::kChip, Role::kOrchestrator,
                   [&] { b.InCoreScope([&] { b.Eval(b.Int(1)); }); });
  b.SplitAivScope("aiv", 2, SplitMode::kUpDown, [&](const Var* v) { b.Eval(v); });
  const SeqStmt* s = b.TakeBody();
  REQUIRE(s->stmts.size() == 2);
  const auto* h = Cast<HierarchyScopeStmt>(s->stmts[0]);
  CHECK(h->level == Level::kChip);
  const auto* inner = Cast<SeqStmt>(h->body);
  REQUIRE(inner->stmts.size() == 1);
  CHECK(Isa<InCoreScopeStmt>(inner->stmts[0]));
  const auto* sa = Cast<SplitAivScopeStmt>(s->stmts[1]);
  CHECK(sa->count == 2);
  CHECK(sa->var->name_hint == "aiv");
  // The builder is reusable after TakeBody.
  b.Eval(b.Int(2));
  CHECK(b.TakeBody()->stmts.size() == 1);
}
