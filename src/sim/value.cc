// Element conversions (bit-exact, round-to-nearest-even) and value helpers.
#include "pypto/sim/value.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace pypto::sim {

float HalfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: value = mant * 2^-24
      float v = std::ldexp(static_cast<float>(mant), -24);
      return sign ? -v : v;
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return sign | (ax > 0x7f800000u ? 0x7e00 : 0x7c00);  // NaN / Inf
  if (ax >= 0x477ff000u) return sign | 0x7c00;  // rounds to >= 65520 -> Inf
  if (ax < 0x38800000u) {                       // below the smallest normal half: subnormal or zero
    // value = ax as float; half subnormal unit is 2^-24. Round to nearest even.
    float a;
    std::memcpy(&a, &ax, 4);
    float scaled = a * 16777216.0f;    // exact (power of two)
    float r = std::nearbyint(scaled);  // default rounding mode: nearest-even
    return sign | static_cast<uint16_t>(r);
  }
  uint32_t exp = (ax >> 23) - 112;
  uint32_t mant = ax & 0x7fffff;
  uint32_t h = (exp << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) ++h;
  return sign | static_cast<uint16_t>(h);
}

float BF16ToFloat(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t FloatToBF16(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40);
  uint32_t lsb = (x >> 16) & 1;
  x += 0x7fff + lsb;
  return static_cast<uint16_t>(x >> 16);
}

template <typename T>
static T Rd(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <typename T>
static void Wr(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// Float -> integer conversion that never invokes UB (saturates, NaN -> 0).
template <typename T>
static T ToInt(double v) {
  if (std::isnan(v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (v >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

int64_t SaturateToInt64(double v) { return ToInt<int64_t>(v); }

double LoadElem(const uint8_t* p, DataType t) {
  switch (t) {
    case DataType::kBool:
      return p[0] != 0 ? 1 : 0;
    case DataType::kInt8:
      return Rd<int8_t>(p);
    case DataType::kInt16:
      return Rd<int16_t>(p);
    case DataType::kInt32:
      return Rd<int32_t>(p);
    case DataType::kInt64:
    case DataType::kIndex:
      return static_cast<double>(Rd<int64_t>(p));
    case DataType::kUInt8:
      return Rd<uint8_t>(p);
    case DataType::kUInt16:
      return Rd<uint16_t>(p);
    case DataType::kUInt32:
      return Rd<uint32_t>(p);
    case DataType::kUInt64:
      return static_cast<double>(Rd<uint64_t>(p));
    case DataType::kFP16:
      return HalfToFloat(Rd<uint16_t>(p));
    case DataType::kBF16:
      return BF16ToFloat(Rd<uint16_t>(p));
    case DataType::kFP32:
      return Rd<float>(p);
    case DataType::kFP64:
      return Rd<double>(p);
  }
  return 0;
}

// double -> float rounded to odd, so that a second rounding to FP16/BF16 is
// correctly rounded (float has more than 2 extra bits over both formats).
static float ToFloatOdd(double v) {
  float f = static_cast<float>(v);
  if (std::isfinite(f) && static_cast<double>(f) != v) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    if ((bits & 1) == 0) f = std::nextafter(f, v > f ? INFINITY : -INFINITY);
  }
  return f;
}

void StoreElem(uint8_t* p, DataType t, double v) {
  switch (t) {
    case DataType::kBool:
      p[0] = v != 0;
      return;
    case DataType::kInt8:
      Wr<int8_t>(p, static_cast<int8_t>(ToInt<int64_t>(v)));
      return;
    case DataType::kInt16:
      Wr<int16_t>(p, static_cast<int16_t>(ToInt<int64_t>(v)));
      return;
    case DataType::kInt32:
      Wr<int32_t>(p, static_cast<int32_t>(ToInt<int64_t>(v)));
      return;
    case DataType::kInt64:
    case DataType::kIndex:
      Wr<int64_t>(p, ToInt<int64_t>(v));
      return;
    case DataType::kUInt8:
      Wr<uint8_t>(p, static_cast<uint8_t>(ToInt<int64_t>(v)));
      return;
    case DataType::kUInt16:
      Wr<uint16_t>(p, static_cast<uint16_t>(ToInt<int64_t>(v)));
      return;
    case DataType::kUInt32:
      Wr<uint32_t>(p, static_cast<uint32_t>(ToInt<int64_t>(v)));
      return;
    case DataType::kUInt64:
      Wr<uint64_t>(p, ToInt<uint64_t>(v));
      return;
    case DataType::kFP16:
      Wr<uint16_t>(p, FloatToHalf(ToFloatOdd(v)));
      return;
    case DataType::kBF16:
      Wr<uint16_t>(p, FloatToBF16(ToFloatOdd(v)));
      return;
    case DataType::kFP32:
      Wr<float>(p, static_cast<float>(v));
      return;
    case DataType::kFP64:
      Wr<double>(p, v);
      return;
  }
}

double RoundTo(DataType t, double v) {
  uint8_t buf[8];
  StoreElem(buf, t, v);
  return LoadElem(buf, t);
}

void AddElem(uint8_t* p, DataType t, double v) {
  if (t == DataType::kFP16 || t == DataType::kBF16) {
    // Two FP32 values added, the sum rounded once to the 16-bit type.
    StoreElem(p, t, static_cast<float>(LoadElem(p, t)) + static_cast<float>(v));
    return;
  }
  StoreElem(p, t, LoadElem(p, t) + v);
}

HostStorage::HostStorage(size_t n) : size(n) {
  size_t cap = ((n + 63) / 64) * 64;
  if (cap == 0) cap = 64;
  data = static_cast<uint8_t*>(std::aligned_alloc(64, cap));
  std::memset(data, 0, cap);
}
HostStorage::~HostStorage() { std::free(data); }

int64_t TensorVal::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}
int64_t TileVal::NumElements() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

Value Value::Int(int64_t v, DataType t) {
  Value r;
  r.kind = Kind::kScalar;
  r.dtype = t;
  r.i = v;
  return r;
}
Value Value::Float(double v, DataType t) {
  Value r;
  r.kind = Kind::kScalar;
  r.dtype = t;
  r.f = v;
  return r;
}
Value Value::Bool(bool b) { return Int(b ? 1 : 0, DataType::kBool); }
Value Value::Of(std::shared_ptr<TensorVal> t) {
  Value r;
  r.kind = Kind::kTensor;
  r.tensor = std::move(t);
  return r;
}
Value Value::Of(std::shared_ptr<TileVal> t) {
  Value r;
  r.kind = Kind::kTile;
  r.tile = std::move(t);
  return r;
}
Value Value::Tuple(std::vector<Value> v) {
  Value r;
  r.kind = Kind::kTuple;
  r.tuple = std::make_shared<std::vector<Value>>(std::move(v));
  return r;
}
Value Value::Ptr(int alloc) {
  Value r;
  r.kind = Kind::kPtr;
  r.i = alloc;
  return r;
}
Value Value::Ctx(int alloc) {
  Value r;
  r.kind = Kind::kCommCtx;
  r.i = alloc;
  return r;
}

std::string ShapeString(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  return out + "]";
}

std::string DescribeValue(const Value& v) {
  switch (v.kind) {
    case Value::Kind::kNone:
      return "no value";
    case Value::Kind::kScalar:
      return "scalar " + std::string(DTypeName(v.dtype));
    case Value::Kind::kTensor:
      return std::string(v.tensor->IsWindow() ? "window tensor " : "tensor ") +
             ShapeString(v.tensor->shape) + " " + std::string(DTypeName(v.tensor->dtype));
    case Value::Kind::kTile:
      return "tile " + ShapeString(v.tile->shape) + " " + std::string(DTypeName(v.tile->dtype));
    case Value::Kind::kTuple:
      return "tuple of " + std::to_string(v.tuple->size());
    case Value::Kind::kPtr:
      return "window buffer";
    case Value::Kind::kCommCtx:
      return "comm context";
    case Value::Kind::kFuture:
      return "pending task result";
  }
  return "?";
}

}  // namespace pypto::sim
