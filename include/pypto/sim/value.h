// Runtime values of the executor: scalars, tensor views (host memory or a window
// allocation, resolved per executing rank), tiles (local, row-major, held as
// their dtype's bytes, exactly as a tensor of that dtype holds them), tuples,
// window-buffer handles and comm contexts. Values are cheap to copy: aggregates
// are shared_ptr, and SSA means a tile is never mutated after it is produced.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pypto/core/dtype.h"

namespace pypto::sim {

struct DirGuard;  // pypto/sim/arg_directions.h

// Bit-exact element conversions. Every store rounds to the element type
// (round-to-nearest-even for FP16/BF16/FP32, two's-complement wrap for ints).
float HalfToFloat(uint16_t h);
uint16_t FloatToHalf(float f);
float BF16ToFloat(uint16_t b);
uint16_t FloatToBF16(float f);
double LoadElem(const uint8_t* p, DataType t);
void StoreElem(uint8_t* p, DataType t, double v);
// *p += v as an atomic add computes it, without the atomicity: FP16 / BF16 add
// in FP32 and round once; other types add in double and round on the store
// (the FP32 and integer atomic adds of src/sim/exec.cc are native).
void AddElem(uint8_t* p, DataType t, double v);
// The value `v` becomes when stored as `t` (what a tile element holds).
double RoundTo(DataType t, double v);
// Float -> int64 conversion as every integer store does it: truncation toward
// zero, saturating at the int64 range, NaN -> 0 (narrower ints then wrap).
int64_t SaturateToInt64(double v);

// Plain host memory (inputs, outputs, temporaries), 64-byte aligned.
struct HostStorage {
  explicit HostStorage(size_t n);
  ~HostStorage();
  HostStorage(const HostStorage&) = delete;
  HostStorage& operator=(const HostStorage&) = delete;
  uint8_t* data = nullptr;
  size_t size = 0;
};

// A strided view of GM memory. Exactly one of `host` / `alloc >= 0` is set. A
// window view names its allocation, not a rank's bytes: the executing rank (or
// the peer of a remote op) picks which rank's copy is addressed.
struct TensorVal {
  std::shared_ptr<HostStorage> host;
  int alloc = -1;
  DataType dtype = DataType::kFP32;
  int64_t offset = 0;  // elements from the start of the storage
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // elements
  std::vector<int64_t> valid;    // valid extent per dim (== shape when full)
  std::string name;              // for diagnostics
  // A host tensor dispatched to a device is, on the hardware, its own device
  // buffer: the element offset of that buffer's start (for --check-alignment).
  int64_t gm_base = 0;
  // Set while the view is an argument bound to a pl.In / pl.Out parameter of a
  // running call (pypto/sim/arg_directions.h); views made from it inherit it.
  std::shared_ptr<DirGuard> dir;

  size_t rank() const { return shape.size(); }
  int64_t NumElements() const;
  bool IsWindow() const { return alloc >= 0; }
};

// A tile: row-major over `shape`, DTypeBytes(dtype) bytes per element (the
// element-wise kernels of semantics/tile.cc work on typed spans of `bytes`).
struct TileVal {
  DataType dtype = DataType::kFP32;
  std::vector<int64_t> shape;
  std::vector<int64_t> valid;  // == shape when full
  std::vector<uint8_t> bytes;  // row-major over `shape`
  int64_t NumElements() const;
  // Element i as a double / stored (rounded to dtype) from a double.
  double Get(int64_t i) const { return LoadElem(bytes.data() + i * DTypeBytes(dtype), dtype); }
  void Set(int64_t i, double v) { StoreElem(bytes.data() + i * DTypeBytes(dtype), dtype, v); }
  // The elements as T (T must match dtype's size).
  template <typename T>
  T* As() {
    return reinterpret_cast<T*>(bytes.data());
  }
  template <typename T>
  const T* As() const {
    return reinterpret_cast<const T*>(bytes.data());
  }
};

// The pending result of a task in a pl.manual_scope (interpreter.h).
struct FutureCell;

struct Value {
  // kFuture: a task result not known yet; Interpreter::Eval waits for it.
  enum class Kind : uint8_t { kNone, kScalar, kTensor, kTile, kTuple, kPtr, kCommCtx, kFuture };
  Kind kind = Kind::kNone;
  DataType dtype = DataType::kIndex;  // scalars
  int64_t i = 0;                      // integer/bool scalar; kPtr, kCommCtx: allocation id
  double f = 0;                       // float scalar
  std::shared_ptr<TensorVal> tensor;
  std::shared_ptr<TileVal> tile;
  std::shared_ptr<std::vector<Value>> tuple;
  std::shared_ptr<FutureCell> future;

  static Value None() { return Value(); }
  static Value Int(int64_t v, DataType t = DataType::kIndex);
  static Value Float(double v, DataType t = DataType::kFP32);
  static Value Bool(bool b);
  static Value Of(std::shared_ptr<TensorVal> t);
  static Value Of(std::shared_ptr<TileVal> t);
  static Value Tuple(std::vector<Value> v);
  static Value Ptr(int alloc);
  static Value Ctx(int alloc);

  bool IsScalar() const { return kind == Kind::kScalar; }
  bool IsFloatScalar() const { return kind == Kind::kScalar && IsFloat(dtype); }
  int64_t AsInt() const { return IsFloat(dtype) ? static_cast<int64_t>(f) : i; }
  double AsDouble() const { return IsFloat(dtype) ? f : static_cast<double>(i); }
  bool AsBool() const { return IsFloat(dtype) ? f != 0 : i != 0; }
};

// A short description of a value's kind for "expected X, got Y" errors.
std::string DescribeValue(const Value& v);
std::string ShapeString(const std::vector<int64_t>& s);

}  // namespace pypto::sim
