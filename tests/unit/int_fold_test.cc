// Checked integer folding (pypto/core/int_fold.h) and the IR fold built on it
// (pypto/ir/int_expr_fold.h, StaticInt): Python semantics for // % ** << >>,
// exact int64 boundaries, and the reason a fold has no value. Expected values
// are Python's (e.g. -7 // 2 == -4, -7 % 2 == 1, 7 % -2 == -1).
#include "pypto/core/int_fold.h"

#include <catch2/catch.hpp>
#include <cstdint>

#include "pypto/ir/context.h"
#include "pypto/ir/int_expr_fold.h"
#include "pypto/ir/op_utils.h"

using namespace pypto;

namespace {

constexpr int64_t kMax = INT64_MAX;
constexpr int64_t kMin = INT64_MIN;

int64_t Val(IntFoldOp op, int64_t a, int64_t b) {
  IntFold f = FoldIntBinary(op, a, b);
  REQUIRE(f.ok());
  return *f.value;
}

IntFoldError Err(IntFoldOp op, int64_t a, int64_t b) {
  IntFold f = FoldIntBinary(op, a, b);
  REQUIRE_FALSE(f.ok());
  return f.error;
}

}  // namespace

TEST_CASE("int_fold: add, sub, mul are exact up to the int64 boundary") {
  CHECK(Val(IntFoldOp::kAdd, kMax - 1, 1) == kMax);
  CHECK(Err(IntFoldOp::kAdd, kMax, 1) == IntFoldError::kOverflow);
  CHECK(Val(IntFoldOp::kSub, kMin + 1, 1) == kMin);
  CHECK(Err(IntFoldOp::kSub, kMin, 1) == IntFoldError::kOverflow);
  CHECK(Err(IntFoldOp::kSub, 0, kMin) == IntFoldError::kOverflow);
  // The example: 4611686018427387904 * 4 = 2^64 does not fit.
  CHECK(Err(IntFoldOp::kMul, 4611686018427387904, 4) == IntFoldError::kOverflow);
  CHECK(Val(IntFoldOp::kMul, 4611686018427387904, 1) == 4611686018427387904);
  CHECK(Val(IntFoldOp::kMul, -4611686018427387904, 2) == kMin);
  CHECK(Err(IntFoldOp::kMul, kMin, -1) == IntFoldError::kOverflow);
  CHECK(Val(IntFoldOp::kMul, 4294967296, 2147483647) == 9223372032559808512);
}

TEST_CASE("int_fold: floor division and modulo follow Python") {
  CHECK(Val(IntFoldOp::kFloorDiv, 7, 2) == 3);
  CHECK(Val(IntFoldOp::kFloorDiv, -7, 2) == -4);
  CHECK(Val(IntFoldOp::kFloorDiv, 7, -2) == -4);
  CHECK(Val(IntFoldOp::kFloorDiv, -7, -2) == 3);
  CHECK(Val(IntFoldOp::kFloorMod, -7, 2) == 1);
  CHECK(Val(IntFoldOp::kFloorMod, 7, -2) == -1);
  CHECK(Val(IntFoldOp::kFloorMod, -8, 2) == 0);
  CHECK(Err(IntFoldOp::kFloorDiv, 1, 0) == IntFoldError::kDivByZero);
  CHECK(Err(IntFoldOp::kFloorMod, 1, 0) == IntFoldError::kDivByZero);
  // INT64_MIN // -1 traps in C++ (SIGFPE); in Python it is 2^63: overflow here.
  CHECK(Err(IntFoldOp::kFloorDiv, kMin, -1) == IntFoldError::kOverflow);
  CHECK(Val(IntFoldOp::kFloorMod, kMin, -1) == 0);
  CHECK(Val(IntFoldOp::kFloorDiv, kMin, 1) == kMin);
}

TEST_CASE("int_fold: powers and shifts") {
  CHECK(Val(IntFoldOp::kPow, 2, 62) == 4611686018427387904);
  CHECK(Err(IntFoldOp::kPow, 2, 63) == IntFoldError::kOverflow);
  CHECK(Val(IntFoldOp::kPow, -2, 63) == kMin);
  CHECK(Val(IntFoldOp::kPow, 0, 0) == 1);
  CHECK(Val(IntFoldOp::kPow, 1, kMax) == 1);
  CHECK(Val(IntFoldOp::kPow, -1, kMax) == -1);
  CHECK(Val(IntFoldOp::kPow, 3, 39) == 4052555153018976267);
  CHECK(Err(IntFoldOp::kPow, 3, 40) == IntFoldError::kOverflow);
  CHECK(Err(IntFoldOp::kPow, 2, -1) == IntFoldError::kNegativeExponent);
  CHECK(Val(IntFoldOp::kShl, 1, 62) == 4611686018427387904);
  CHECK(Err(IntFoldOp::kShl, 1, 63) == IntFoldError::kOverflow);
  CHECK(Val(IntFoldOp::kShl, -1, 63) == kMin);
  CHECK(Err(IntFoldOp::kShl, 3, 62) == IntFoldError::kOverflow);
  CHECK(Val(IntFoldOp::kShl, 0, 1000) == 0);
  CHECK(Err(IntFoldOp::kShl, 1, -1) == IntFoldError::kNegativeShift);
  CHECK(Val(IntFoldOp::kShr, -7, 1) == -4);  // floor, as Python
  CHECK(Val(IntFoldOp::kShr, -7, 1000) == -1);
  CHECK(Val(IntFoldOp::kShr, 7, 64) == 0);
  CHECK(Err(IntFoldOp::kShr, 7, -2) == IntFoldError::kNegativeShift);
}

TEST_CASE("int_fold: unary ops and dtype ranges") {
  CHECK(*FoldIntNeg(kMax).value == -kMax);
  CHECK(FoldIntNeg(kMin).error == IntFoldError::kOverflow);
  CHECK(FoldIntAbs(kMin).error == IntFoldError::kOverflow);
  CHECK(*FoldIntAbs(-5).value == 5);
  CHECK(*FoldIntBitNot(2).value == -3);
  CHECK(IntFitsBits(2147483647, 32, true));
  CHECK_FALSE(IntFitsBits(2147483648, 32, true));
  CHECK(IntFitsBits(-128, 8, true));
  CHECK_FALSE(IntFitsBits(-129, 8, true));
  CHECK(IntFitsBits(255, 8, false));
  CHECK_FALSE(IntFitsBits(-1, 8, false));
  CHECK(IntFitsBits(kMin, 64, true));
  CHECK(IntFoldErrorText(IntFoldError::kOverflow) == "integer overflow");
  CHECK(IntFoldErrorText(IntFoldError::kDivByZero) == "integer division by zero");
}

TEST_CASE("int_fold: the IR fold sees constant arithmetic; StaticInt uses it") {
  ir::Context ctx;
  auto idx = ctx.Scalar(DataType::kIndex);
  auto i32 = ctx.Scalar(DataType::kInt32);
  auto bin = [&](ir::BinaryOp op, const ir::Expr* a, const ir::Expr* b, const ir::Type* t) {
    return ctx.Make<ir::BinaryExpr>(op, a, b, t);
  };
  const ir::Expr* one_minus_one = bin(ir::BinaryOp::kSub, ctx.Int(1), ctx.Int(1), idx);
  CHECK(ir::StaticInt(one_minus_one) == 0);
  const ir::Expr* not2 = ctx.Make<ir::UnaryExpr>(ir::UnaryOp::kBitNot, ctx.Int(2), idx);
  CHECK(ir::StaticInt(not2) == -3);
  const ir::Expr* nested =
      bin(ir::BinaryOp::kFloorMod, bin(ir::BinaryOp::kSub, ctx.Int(0), ctx.Int(7), idx), ctx.Int(2),
          idx);
  CHECK(ir::StaticInt(nested) == 1);
  // 4611686018427387904 * 4 + 16: no value, and the fold names the product.
  const ir::Expr* prod = bin(ir::BinaryOp::kMul, ctx.Int(4611686018427387904), ctx.Int(4), idx);
  const ir::Expr* sum = bin(ir::BinaryOp::kAdd, prod, ctx.Int(16), idx);
  ir::IntExprFold f = ir::FoldIntExpr(sum);
  CHECK(f.failed());
  CHECK(f.fold.error == IntFoldError::kOverflow);
  CHECK(f.at == prod);
  CHECK_FALSE(ir::StaticInt(sum).has_value());
  // An INT32-typed sum overflows at 2^31 even though int64 holds it.
  const ir::Expr* big32 =
      bin(ir::BinaryOp::kAdd, ctx.Int(2147483647, DataType::kInt32), ctx.Int(1), i32);
  CHECK(ir::FoldIntExpr(big32).fold.error == IntFoldError::kOverflow);
  // A Var is not constant (no error); division by zero is an error.
  const ir::Var* n = ctx.NewVar("n", idx);
  ir::IntExprFold fv = ir::FoldIntExpr(bin(ir::BinaryOp::kAdd, n, ctx.Int(1), idx));
  CHECK_FALSE(fv.constant());
  CHECK_FALSE(fv.failed());
  CHECK(ir::FoldIntExpr(bin(ir::BinaryOp::kFloorDiv, ctx.Int(1), ctx.Int(0), idx)).fold.error ==
        IntFoldError::kDivByZero);
}
