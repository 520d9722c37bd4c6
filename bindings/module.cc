// PLACEHOLDER pybind11 module (to be written).
#include <pybind11/pybind11.h>
PYBIND11_MODULE(_core, m) { m.doc() = "pypto core"; }
