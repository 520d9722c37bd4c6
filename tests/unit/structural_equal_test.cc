// StructuralEqual / StructuralHash: spans and names ignored, vars matched by
// binding position, kwargs by value, and the exact one-line `why`.
#include "pypto/ir/structural_equal.h"

#include <catch2/catch.hpp>

#include "irinfra_test_ops.h"
#include "pypto/ir/builder.h"

using namespace pypto;
using namespace pypto::ir;
using pypto::ir::testing::TestOps;

namespace {
// A kernel: t2 = tadd(x, x); loop acc over [0, n) adding x; return.
const Program* Build(Context& ctx, int64_t dim, const char* name_prefix, Span span = {},
                     int64_t factor = 2) {
  IRBuilder b(ctx, &TestOps());
  b.SetSpan(span);
  std::string p = name_prefix;
  const Var* N = b.DynamicDim("N");
  const TileType* tt = b.TileT({b.Int(dim), N}, DataType::kFP32);
  const Function* f = b.BuildFunction(
      {"k", FunctionType::kInCore}, {{p + "x", tt}, {p + "n", b.ScalarT(DataType::kIndex)}},
      [&](const std::vector<const Var*>& a) {
        const Var* t2 = b.Assign(p + "t2", b.Op("test.tadd", {a[0], a[0]}));
        b.Assign(p + "t3", b.Op("test.scale", {t2}, {{"factor", Attr::Int(factor)}}));
        b.For(p + "i", b.Int(0), a[1], b.Int(1), {{p + "acc", t2}},
              [&](const Var*, const std::vector<const IterArg*>& it) {
                b.Yield({b.Op("test.tadd", {it[0], a[0]})});
              });
        b.Return();
      });
  return b.BuildProgram("P", {f}, {N});
}
}  // namespace

TEST_CASE("structurally equal programs ignore names and spans, hash equal") {
  Context ctx;
  int32_t file = ctx.sources().AddFile("a.pir", "x\n");
  const Program* a = Build(ctx, 16, "");
  const Program* b = Build(ctx, 16, "other_", Span{file, 1, 1, 1});
  std::string why = "stale";
  CHECK(StructuralEqual(*a, *b, &why));
  CHECK(why.empty());
  CHECK(StructuralHash(*a) == StructuralHash(*b));
  CHECK(StructuralEqual(*a->functions[0], *b->functions[0]));
  CHECK(StructuralHash(*a->functions[0]) == StructuralHash(*b->functions[0]));
}

TEST_CASE("structural difference reports the first difference") {
  Context ctx;
  const Program* a = Build(ctx, 16, "");
  const Program* b = Build(ctx, 32, "");
  std::string why;
  CHECK_FALSE(StructuralEqual(*a, *b, &why));
  CHECK(why == "in function 'k': constant 16 vs 32");
  CHECK(StructuralHash(*a) != StructuralHash(*b));
  const Program* c = Build(ctx, 16, "", {}, 3);
  CHECK_FALSE(StructuralEqual(*a, *c, &why));
  CHECK(why == "in function 'k': test.scale kwarg 'factor': 2 vs 3");
  CHECK(StructuralHash(*a) != StructuralHash(*c));
}

TEST_CASE("vars are matched by binding, not by identity or name") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const Var* x = ctx.NewVar("x", ctx.Scalar(DataType::kIndex));
  const Var* y = ctx.NewVar("x", ctx.Scalar(DataType::kIndex));
  std::string why;
  // Free vars pair on first occurrence, bijectively.
  CHECK(StructuralEqual(b.Add(x, b.Int(1)), b.Add(y, b.Int(1))));
  CHECK(StructuralHash(b.Add(x, b.Int(1))) == StructuralHash(b.Add(y, b.Int(1))));
  CHECK_FALSE(StructuralEqual(b.Mul(x, x), b.Mul(x, y), &why));
  CHECK(why == "var 'x' vs 'x' refer to different definitions");
  CHECK(StructuralHash(b.Mul(x, x)) != StructuralHash(b.Mul(x, y)));
  // Swapped uses of two params differ.
  auto fn = [&](bool swap) {
    return b.BuildFunction(
        {"f"}, {{"a", ctx.Scalar(DataType::kIndex)}, {"c", ctx.Scalar(DataType::kIndex)}},
        [&](const std::vector<const Var*>& p) {
          b.Eval(swap ? b.Sub(p[1], p[0]) : b.Sub(p[0], p[1]));
        });
  };
  CHECK_FALSE(StructuralEqual(*fn(false), *fn(true), &why));
  CHECK(why == "in function 'f': var 'a' vs 'c' refer to different definitions");
  CHECK(StructuralEqual(*fn(true), *fn(true)));
}

TEST_CASE("kwargs compare by value regardless of order; types by structure") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  const Var* t = ctx.NewVar("t", b.TileT(b.Shape({4}), DataType::kFP32));
  const Expr* c1 = ctx.Make<Call>(nullptr, "g", std::vector<const Expr*>{t},
                                  AttrList{{"a", Attr::Int(1)}, {"b", Attr::Str("s")}}, AttrList{},
                                  ctx.Unknown());
  const Expr* c2 = ctx.Make<Call>(nullptr, "g", std::vector<const Expr*>{t},
                                  AttrList{{"b", Attr::Str("s")}, {"a", Attr::Int(1)}}, AttrList{},
                                  ctx.Unknown());
  const Expr* c3 = ctx.Make<Call>(nullptr, "h", std::vector<const Expr*>{t}, AttrList{}, AttrList{},
                                  ctx.Unknown());
  std::string why;
  CHECK(StructuralEqual(c1, c2));
  CHECK(StructuralHash(c1) == StructuralHash(c2));
  CHECK_FALSE(StructuralEqual(c1, c3, &why));
  CHECK(why == "call of 'self.g' vs 'self.h'");
  CHECK_FALSE(StructuralEqual(b.TensorT(b.Shape({16, 64}), DataType::kFP32),
                              b.TensorT(b.Shape({16, 64}), DataType::kFP16), &why));
  CHECK(why == "tensor dtype FP32 vs FP16");
  CHECK_FALSE(StructuralEqual(b.TensorT(b.Shape({16}), DataType::kFP32),
                              b.DistTensorT(b.Shape({16}), DataType::kFP32), &why));
  CHECK(why == "type kind TensorType vs DistributedTensorType");
  CHECK(StructuralEqual(b.TileT(b.Shape({8, 8}), DataType::kInt32),
                        b.TileT(b.Shape({8, 8}), DataType::kInt32)));
}

TEST_CASE("statement structure: counts and kinds") {
  Context ctx;
  IRBuilder b(ctx, &TestOps());
  b.Eval(b.Int(1));
  const SeqStmt* one = b.TakeBody();
  b.Eval(b.Int(1));
  b.Break();
  const SeqStmt* two = b.TakeBody();
  std::string why;
  CHECK_FALSE(StructuralEqual(one, two, &why));
  CHECK(why == "statement count 1 vs 2");
  b.Break();
  const SeqStmt* brk = b.TakeBody();
  CHECK_FALSE(StructuralEqual(one, brk, &why));
  CHECK(why == "statement kind EvalStmt vs BreakStmt");
}
