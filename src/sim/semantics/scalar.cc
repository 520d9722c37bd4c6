// Scalar arithmetic semantics: integer ops wrap to the result dtype, `//` and
// `%` follow Python (floor), float ops round to the result dtype (FP16/BF16 are
// computed exactly in double and rounded once, which is IEEE-correct).
#include <cmath>

#include "pypto/sim/interpreter.h"

namespace pypto::sim {

using ir::BinaryOp;
using ir::UnaryOp;

static int64_t WrapInt(DataType dt, int64_t v) {
  switch (dt) {
    case DataType::kInt8:
      return static_cast<int8_t>(v);
    case DataType::kInt16:
      return static_cast<int16_t>(v);
    case DataType::kInt32:
      return static_cast<int32_t>(v);
    case DataType::kUInt8:
      return static_cast<uint8_t>(v);
    case DataType::kUInt16:
      return static_cast<uint16_t>(v);
    case DataType::kUInt32:
      return static_cast<uint32_t>(v);
    case DataType::kBool:
      return v != 0;
    default:
      return v;
  }
}

Value CastScalar(const Value& a, DataType dt) {
  if (IsFloat(dt)) return Value::Float(RoundTo(dt, a.AsDouble()), dt);
  if (a.IsFloatScalar()) {
    double f = a.f;
    if (std::isnan(f)) return Value::Int(0, dt);
    f = std::trunc(f);
    if (f >= 9.2e18) return Value::Int(INT64_MAX, dt);
    if (f <= -9.2e18) return Value::Int(INT64_MIN, dt);
    return Value::Int(WrapInt(dt, static_cast<int64_t>(f)), dt);
  }
  return Value::Int(WrapInt(dt, a.i), dt);
}

namespace {

// `x <op> y` for a comparison op, on doubles or on int64s alike.
template <class T>
bool Compare(BinaryOp op, T x, T y) {
  switch (op) {
    case BinaryOp::kEq:
      return x == y;
    case BinaryOp::kNe:
      return x != y;
    case BinaryOp::kLt:
      return x < y;
    case BinaryOp::kLe:
      return x <= y;
    case BinaryOp::kGt:
      return x > y;
    default:
      return x >= y;
  }
}

// Arithmetic in double (a float operand, a float result dtype, or true
// division), rounded to `dt`; integer-only ops convert both operands to INT64
// and take the integer path.
Value FloatBinary(BinaryOp op, const Value& a, const Value& b, DataType dt, bool* div_zero) {
  double x = a.AsDouble(), y = b.AsDouble(), r = 0;
  switch (op) {
    case BinaryOp::kAdd:
      r = x + y;
      break;
    case BinaryOp::kSub:
      r = x - y;
      break;
    case BinaryOp::kMul:
      r = x * y;
      break;
    case BinaryOp::kDiv:
      r = x / y;
      break;
    case BinaryOp::kFloorDiv:
      r = std::floor(x / y);
      break;
    case BinaryOp::kFloorMod:
      r = x - std::floor(x / y) * y;
      break;
    case BinaryOp::kPow:
      r = std::pow(x, y);
      break;
    case BinaryOp::kMin:
      r = std::fmin(x, y);
      break;
    case BinaryOp::kMax:
      r = std::fmax(x, y);
      break;
    default: {
      *div_zero = false;
      return CastScalar(ScalarBinary(op, CastScalar(a, DataType::kInt64),
                                     CastScalar(b, DataType::kInt64), DataType::kInt64, div_zero),
                        dt);
    }
  }
  if (!IsFloat(dt)) return CastScalar(Value::Float(r, DataType::kFP64), dt);
  return Value::Float(RoundTo(dt, r), dt);
}

// Integer arithmetic on int64 operands: wraps (two's complement) to `dt`;
// `//` and `%` floor like Python; division by zero sets *div_zero.
Value IntBinary(BinaryOp op, const Value& a, const Value& b, DataType dt, bool* div_zero) {
  int64_t x = a.i, y = b.i, r = 0;
  auto ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  switch (op) {
    case BinaryOp::kAdd:
      r = static_cast<int64_t>(ux + uy);
      break;
    case BinaryOp::kSub:
      r = static_cast<int64_t>(ux - uy);
      break;
    case BinaryOp::kMul:
      r = static_cast<int64_t>(ux * uy);
      break;
    case BinaryOp::kFloorDiv:
    case BinaryOp::kFloorMod: {
      if (y == 0) {
        *div_zero = true;
        return Value::Int(0, dt);
      }
      if (x == INT64_MIN && y == -1) {
        r = op == BinaryOp::kFloorDiv ? INT64_MIN : 0;
        break;
      }
      int64_t q = x / y, m = x % y;
      if (m != 0 && ((m < 0) != (y < 0))) {
        q -= 1;
        m += y;
      }
      r = op == BinaryOp::kFloorDiv ? q : m;
      break;
    }
    case BinaryOp::kPow: {
      r = 1;
      for (int64_t k = 0; k < y && k < 64; ++k)
        r = static_cast<int64_t>(static_cast<uint64_t>(r) * ux);
      if (y < 0) r = 0;
      break;
    }
    case BinaryOp::kMin:
      r = std::min(x, y);
      break;
    case BinaryOp::kMax:
      r = std::max(x, y);
      break;
    case BinaryOp::kBitAnd:
      r = x & y;
      break;
    case BinaryOp::kBitOr:
      r = x | y;
      break;
    case BinaryOp::kBitXor:
      r = x ^ y;
      break;
    case BinaryOp::kShl:
      r = y >= 64 || y < 0 ? 0 : static_cast<int64_t>(ux << y);
      break;
    case BinaryOp::kShr:
      r = y >= 64 || y < 0 ? (x < 0 ? -1 : 0) : x >> y;
      break;
    default:
      break;
  }
  return Value::Int(WrapInt(dt, r), dt);
}

}  // namespace

Value ScalarBinary(BinaryOp op, const Value& a, const Value& b, DataType dt, bool* div_zero) {
  bool fl = a.IsFloatScalar() || b.IsFloatScalar();
  if (ir::IsComparison(op))
    return Value::Bool(fl ? Compare(op, a.AsDouble(), b.AsDouble()) : Compare(op, a.i, b.i));
  if (op == BinaryOp::kAnd) return Value::Bool(a.AsBool() && b.AsBool());
  if (op == BinaryOp::kOr) return Value::Bool(a.AsBool() || b.AsBool());
  if (fl || IsFloat(dt) || op == BinaryOp::kDiv) return FloatBinary(op, a, b, dt, div_zero);
  return IntBinary(op, a, b, dt, div_zero);
}

Value ScalarUnary(UnaryOp op, const Value& a, DataType dt) {
  switch (op) {
    case UnaryOp::kNeg:
      if (a.IsFloatScalar()) return Value::Float(-a.f, a.dtype);
      return Value::Int(WrapInt(dt, static_cast<int64_t>(0 - static_cast<uint64_t>(a.i))), dt);
    case UnaryOp::kNot:
      return Value::Bool(!a.AsBool());
    case UnaryOp::kBitNot:
      return Value::Int(WrapInt(dt, ~a.AsInt()), dt);
    case UnaryOp::kAbs:
      if (a.IsFloatScalar()) return Value::Float(std::fabs(a.f), a.dtype);
      return Value::Int(
          WrapInt(dt, a.i < 0 ? static_cast<int64_t>(0 - static_cast<uint64_t>(a.i)) : a.i), dt);
    case UnaryOp::kCast:
      return CastScalar(a, dt);
  }
  return a;
}

}  // namespace pypto::sim
