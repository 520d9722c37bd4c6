// Checked int64 arithmetic: the one place the compiler adds, subtracts or
// multiplies user-supplied integers (constant folding, shape products, byte
// sizes, view extents). Each returns nullopt when the exact result does not fit
// in int64, so callers report the overflow instead of computing a wrapped value.
#pragma once

#include <cstdint>
#include <optional>

namespace pypto {

inline std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> CheckedSub(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// init * d0 * d1 * ... (a shape's element count or byte size); nullopt when a
// partial product overflows.
template <class Dims>
std::optional<int64_t> CheckedProduct(const Dims& dims, int64_t init = 1) {
  std::optional<int64_t> n = init;
  for (int64_t d : dims)
    if (!(n = CheckedMul(*n, d))) return std::nullopt;
  return n;
}

}  // namespace pypto
