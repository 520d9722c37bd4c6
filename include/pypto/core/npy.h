// Minimal NumPy .npy (format 1.0/2.0/3.0) reader and writer for the executor's
// host arrays. Supported element types (little-endian only, C order only):
//   <f4 FP32, <f2 FP16, <f8 FP64, <i4 INT32, <i8 INT64, <i2 INT16, |i1 INT8,
//   |u1 UINT8, |b1 BOOL, <u2 UINT16, <u4 UINT32, <u8 UINT64.
// The header is validated strictly (exactly the keys descr / fortran_order /
// shape, integer dims); the element count and byte size are overflow-checked
// and must match the data that follows exactly, so a short file can never
// claim a huge array.
// BF16 convention: numpy has no bfloat16, so a BF16 array is written as <u2 holding
// the raw bf16 bit patterns (the upper half of the FP32 pattern). Reading <u2 gives
// UINT16; the caller reinterprets it as BF16 when the consumer expects BF16.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/core/dtype.h"

namespace pypto {

struct NpyArray {
  DataType dtype = DataType::kFP32;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;  // row-major element bytes, little-endian
};

// Parses the bytes of a .npy file. On failure returns false and sets *error.
bool ParseNpy(std::string_view data, NpyArray* out, std::string* error);
// Serialises to .npy version 1.0 bytes (BF16 written as <u2, see above).
std::string SerializeNpy(const NpyArray& a);

bool ReadNpyFile(const std::string& path, NpyArray* out, std::string* error);
bool WriteNpyFile(const std::string& path, const NpyArray& a, std::string* error);

// The numpy descr for a dtype ("<f4"), or "" when it has no .npy form.
std::string NpyDescr(DataType t);

}  // namespace pypto
