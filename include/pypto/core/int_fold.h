// Checked constant folding of integer operators with Python semantics: the one
// definition of what `a + b`, `a // b`, `a % b`, `a ** b`, `a << b`, `-a`, ...
// mean on int64 constants, shared by the parser's constant evaluation, the IR
// fold (StaticInt, the verifier) and the simplify pass. Built on
// checked_int.h. Each fold returns the value or the reason it has none
// (overflow, division by zero, a negative shift count or exponent), so callers
// report the reason instead of computing a wrapped value or crashing (SIGFPE on
// INT64_MIN // -1, UB on a shift by 64).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "pypto/core/checked_int.h"

namespace pypto {

enum class IntFoldOp : uint8_t {
  kAdd,
  kSub,
  kMul,
  kFloorDiv,
  kFloorMod,
  kPow,
  kMin,
  kMax,
  kBitAnd,
  kBitOr,
  kBitXor,
  kShl,
  kShr,
};

enum class IntFoldError : uint8_t {
  kNone,
  kOverflow,          // the exact result does not fit in int64 (or the value's dtype)
  kDivByZero,         // `// 0` or `% 0`
  kNegativeShift,     // `a << -1`, `a >> -1` (Python: ValueError)
  kNegativeExponent,  // `a ** -1` is not an integer
};

// The value, or the error that prevents it.
struct IntFold {
  std::optional<int64_t> value;
  IntFoldError error = IntFoldError::kNone;
  static IntFold Ok(int64_t v) { return {v, IntFoldError::kNone}; }
  static IntFold Fail(IntFoldError e) { return {std::nullopt, e}; }
  bool ok() const { return value.has_value(); }
};

// "integer overflow", "division by zero", ... (for "... in 'a * b'" messages).
inline std::string_view IntFoldErrorText(IntFoldError e) {
  switch (e) {
    case IntFoldError::kNone:
      return "no error";
    case IntFoldError::kOverflow:
      return "integer overflow";
    case IntFoldError::kDivByZero:
      return "integer division by zero";
    case IntFoldError::kNegativeShift:
      return "negative shift count";
    case IntFoldError::kNegativeExponent:
      return "negative exponent of an integer power";
  }
  return "?";
}

inline IntFold FromChecked(std::optional<int64_t> v) {
  return v ? IntFold::Ok(*v) : IntFold::Fail(IntFoldError::kOverflow);
}

// Python's a // b and a % b (the quotient rounds toward -inf, the remainder has
// the sign of b).
inline IntFold FoldFloorDivMod(int64_t a, int64_t b, bool want_mod) {
  if (b == 0) return IntFold::Fail(IntFoldError::kDivByZero);
  if (b == -1) {  // INT64_MIN / -1 traps; x % -1 is 0
    if (want_mod) return IntFold::Ok(0);
    return FromChecked(CheckedSub(0, a));
  }
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) {
    q -= 1;
    r += b;
  }
  return IntFold::Ok(want_mod ? r : q);
}

// a ** b for b >= 0 by repeated squaring, overflow-checked.
inline IntFold FoldPow(int64_t a, int64_t b) {
  if (b < 0) return IntFold::Fail(IntFoldError::kNegativeExponent);
  int64_t result = 1, base = a;
  while (b > 0) {
    if (b & 1) {
      auto r = CheckedMul(result, base);
      if (!r) return IntFold::Fail(IntFoldError::kOverflow);
      result = *r;
    }
    b >>= 1;
    if (b > 0) {
      auto sq = CheckedMul(base, base);
      if (!sq) return IntFold::Fail(IntFoldError::kOverflow);
      base = *sq;
    }
  }
  return IntFold::Ok(result);
}

// a << b (exact: overflow when bits are shifted out) and a >> b (floor, like
// Python: any count >= 63 gives 0 or -1).
inline IntFold FoldShift(int64_t a, int64_t b, bool left) {
  if (b < 0) return IntFold::Fail(IntFoldError::kNegativeShift);
  if (!left) return IntFold::Ok(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
  if (a == 0) return IntFold::Ok(0);
  if (b > 63) return IntFold::Fail(IntFoldError::kOverflow);
  int64_t lim = INT64_MAX >> b;  // |a| must fit in 63 - b bits
  if (a > lim || a < -lim - 1) return IntFold::Fail(IntFoldError::kOverflow);
  return IntFold::Ok(static_cast<int64_t>(static_cast<uint64_t>(a) << b));
}

inline IntFold FoldIntBinary(IntFoldOp op, int64_t a, int64_t b) {
  switch (op) {
    case IntFoldOp::kAdd:
      return FromChecked(CheckedAdd(a, b));
    case IntFoldOp::kSub:
      return FromChecked(CheckedSub(a, b));
    case IntFoldOp::kMul:
      return FromChecked(CheckedMul(a, b));
    case IntFoldOp::kFloorDiv:
      return FoldFloorDivMod(a, b, false);
    case IntFoldOp::kFloorMod:
      return FoldFloorDivMod(a, b, true);
    case IntFoldOp::kPow:
      return FoldPow(a, b);
    case IntFoldOp::kMin:
      return IntFold::Ok(a < b ? a : b);
    case IntFoldOp::kMax:
      return IntFold::Ok(a > b ? a : b);
    case IntFoldOp::kBitAnd:
      return IntFold::Ok(a & b);
    case IntFoldOp::kBitOr:
      return IntFold::Ok(a | b);
    case IntFoldOp::kBitXor:
      return IntFold::Ok(a ^ b);
    case IntFoldOp::kShl:
      return FoldShift(a, b, true);
    case IntFoldOp::kShr:
      return FoldShift(a, b, false);
  }
  return IntFold::Fail(IntFoldError::kOverflow);
}

inline IntFold FoldIntNeg(int64_t a) { return FromChecked(CheckedSub(0, a)); }
inline IntFold FoldIntAbs(int64_t a) { return a < 0 ? FoldIntNeg(a) : IntFold::Ok(a); }
inline IntFold FoldIntBitNot(int64_t a) { return IntFold::Ok(~a); }

// Whether `v` is representable in an integer of `bits` bits (signed or not);
// 64-bit unsigned values are held as int64, so any int64 fits.
inline bool IntFitsBits(int64_t v, int bits, bool is_signed) {
  if (bits >= 64) return true;
  if (is_signed) {
    int64_t lo = -(int64_t{1} << (bits - 1)), hi = (int64_t{1} << (bits - 1)) - 1;
    return v >= lo && v <= hi;
  }
  return v >= 0 && v <= (int64_t{1} << bits) - 1;
}

}  // namespace pypto
