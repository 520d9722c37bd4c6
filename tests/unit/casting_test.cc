// Exact-kind casting: As<TensorType> rejects DistributedTensorType, As<Var>
// rejects IterArg; the *Like escape hatches accept both.
#include "pypto/ir/casting.h"

#include <catch2/catch.hpp>

#include "pypto/ir/context.h"

using namespace pypto;
using namespace pypto::ir;

TEST_CASE("As<TensorType> is exact", "[casting]") {
  Context ctx;
  std::vector<const Expr*> shape = {ctx.Int(16), ctx.Int(64)};
  const Type* plain = ctx.Make<TensorType>(shape, DataType::kFP32);
  const Type* dist = ctx.Make<DistributedTensorType>(shape, DataType::kFP32);
  CHECK(As<TensorType>(plain) != nullptr);
  CHECK(As<TensorType>(dist) == nullptr);
  CHECK(As<DistributedTensorType>(plain) == nullptr);
  CHECK(As<DistributedTensorType>(dist) != nullptr);
  CHECK(AsTensorTypeLike(plain) != nullptr);
  CHECK(AsTensorTypeLike(dist) != nullptr);
  CHECK(AsTensorTypeLike(ctx.Make<TileType>(shape, DataType::kFP32)) == nullptr);
  CHECK(Isa<Type>(dist));
  CHECK_FALSE(Isa<Expr>(static_cast<const Node*>(dist)));
}

TEST_CASE("As<Var> does not match IterArg", "[casting]") {
  Context ctx;
  const Var* v = ctx.NewVar("x", ctx.Scalar(DataType::kIndex));
  const IterArg* ia = ctx.NewIterArg("acc", ctx.Scalar(DataType::kIndex), ctx.Int(0));
  CHECK(As<Var>(static_cast<const Expr*>(v)) == v);
  CHECK(As<Var>(static_cast<const Expr*>(ia)) == nullptr);
  CHECK(As<IterArg>(static_cast<const Expr*>(ia)) == ia);
  CHECK(AsVarLike(ia) == ia);
  CHECK(AsVarLike(v) == v);
  CHECK(AsVarLike(ctx.Int(3)) == nullptr);
  CHECK(v->id != ia->id);
}

TEST_CASE("Arena frees and counts", "[arena]") {
  Arena a;
  for (int i = 0; i < 10000; ++i) a.New<std::string>(100, 'x');
  CHECK(a.BytesAllocated() >= 10000 * sizeof(std::string));
}
