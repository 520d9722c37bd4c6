// numpy dtype <-> DataType (see numpy_dtype.h).
#include "numpy_dtype.h"

namespace pypto::bindings {

py::dtype NumpyDType(DataType t, Bf16As bf16) {
  switch (t) {
    case DataType::kBool:
      return py::dtype("bool");
    case DataType::kInt8:
      return py::dtype("int8");
    case DataType::kInt16:
      return py::dtype("int16");
    case DataType::kInt32:
      return py::dtype("int32");
    case DataType::kInt64:
    case DataType::kIndex:
      return py::dtype("int64");
    case DataType::kUInt8:
      return py::dtype("uint8");
    case DataType::kUInt16:
      return py::dtype("uint16");
    case DataType::kUInt32:
      return py::dtype("uint32");
    case DataType::kUInt64:
      return py::dtype("uint64");
    case DataType::kFP16:
      return py::dtype("float16");
    case DataType::kBF16:
      return py::dtype(bf16 == Bf16As::kBits ? "uint16" : "float32");
    case DataType::kFP32:
      return py::dtype("float32");
    case DataType::kFP64:
      return py::dtype("float64");
  }
  return py::dtype("uint8");
}

std::optional<DataType> DataTypeOfNumpy(const py::dtype& d) {
  const char kind = d.kind();
  const auto size = d.itemsize();
  if (kind == 'b') return DataType::kBool;
  if (kind == 'f' && size == 2) return DataType::kFP16;
  if (kind == 'f' && size == 4) return DataType::kFP32;
  if (kind == 'f' && size == 8) return DataType::kFP64;
  if (kind == 'i' && size == 1) return DataType::kInt8;
  if (kind == 'i' && size == 2) return DataType::kInt16;
  if (kind == 'i' && size == 4) return DataType::kInt32;
  if (kind == 'i' && size == 8) return DataType::kInt64;
  if (kind == 'u' && size == 1) return DataType::kUInt8;
  if (kind == 'u' && size == 2) return DataType::kUInt16;
  if (kind == 'u' && size == 4) return DataType::kUInt32;
  if (kind == 'u' && size == 8) return DataType::kUInt64;
  return std::nullopt;
}

}  // namespace pypto::bindings
