// Element data types shared by scalars, tensors and tiles, with their DSL names
// (pl.FP32), byte sizes and MLIR spellings (f32). The enum order is not ABI;
// names are the stable surface.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace pypto {

#define PYPTO_DTYPES(X)           \
  X(kBool, "BOOL", 1, "i1")       \
  X(kInt8, "INT8", 1, "i8")       \
  X(kInt16, "INT16", 2, "i16")    \
  X(kInt32, "INT32", 4, "i32")    \
  X(kInt64, "INT64", 8, "i64")    \
  X(kUInt8, "UINT8", 1, "ui8")    \
  X(kUInt16, "UINT16", 2, "ui16") \
  X(kUInt32, "UINT32", 4, "ui32") \
  X(kUInt64, "UINT64", 8, "ui64") \
  X(kFP16, "FP16", 2, "f16")      \
  X(kBF16, "BF16", 2, "bf16")     \
  X(kFP32, "FP32", 4, "f32")      \
  X(kFP64, "FP64", 8, "f64")      \
  X(kIndex, "INDEX", 8, "index")

enum class DataType : uint8_t {
#define PYPTO_X(e, n, b, m) e,
  PYPTO_DTYPES(PYPTO_X)
#undef PYPTO_X
};

// "FP32" (print as pl.FP32).
inline std::string_view DTypeName(DataType t) {
  switch (t) {
#define PYPTO_X(e, n, b, m) \
  case DataType::e:         \
    return n;
    PYPTO_DTYPES(PYPTO_X)
#undef PYPTO_X
  }
  return "?";
}

inline int DTypeBytes(DataType t) {
  switch (t) {
#define PYPTO_X(e, n, b, m) \
  case DataType::e:         \
    return b;
    PYPTO_DTYPES(PYPTO_X)
#undef PYPTO_X
  }
  return 0;
}

// MLIR element type spelling ("f32", "i32", "index").
inline std::string_view DTypeMlir(DataType t) {
  switch (t) {
#define PYPTO_X(e, n, b, m) \
  case DataType::e:         \
    return m;
    PYPTO_DTYPES(PYPTO_X)
#undef PYPTO_X
  }
  return "?";
}

inline std::optional<DataType> DTypeFromName(std::string_view name) {
#define PYPTO_X(e, n, b, m) \
  if (name == n) return DataType::e;
  PYPTO_DTYPES(PYPTO_X)
#undef PYPTO_X
  if (name == "FLOAT32") return DataType::kFP32;
  if (name == "FLOAT16") return DataType::kFP16;
  if (name == "BFLOAT16") return DataType::kBF16;
  return std::nullopt;
}

inline bool IsFloat(DataType t) {
  return t == DataType::kFP16 || t == DataType::kBF16 || t == DataType::kFP32 ||
         t == DataType::kFP64;
}
inline bool IsInteger(DataType t) { return !IsFloat(t) && t != DataType::kBool; }
inline bool IsSignedInt(DataType t) {
  return t == DataType::kInt8 || t == DataType::kInt16 || t == DataType::kInt32 ||
         t == DataType::kInt64 || t == DataType::kIndex;
}

}  // namespace pypto
