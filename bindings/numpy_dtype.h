// numpy dtype <-> DataType, one mapping for every binding that moves arrays
// (pypto.sim.run inputs/outputs, the SubWorker bridge).
#pragma once

#include <pybind11/numpy.h>

#include <optional>

#include "pypto/core/dtype.h"

namespace pypto::bindings {

namespace py = pybind11;

// How BF16 crosses to Python: as its uint16 bit patterns (pypto.sim.run's
// outputs, converted by the Python layer) or converted to float32 (SubWorker
// arguments, which user Python code computes on).
enum class Bf16As { kBits, kFloat32 };

py::dtype NumpyDType(DataType t, Bf16As bf16);
// The DataType of a numpy dtype; nullopt for dtypes the executor has no type for.
std::optional<DataType> DataTypeOfNumpy(const py::dtype& d);

}  // namespace pypto::bindings
