// TEMPORARY: the executor (src/sim, include/pypto/sim/run.h) has not landed yet;
// run_program reports that clearly. Replaced by the real binding when it lands.
#include "bindings.h"

namespace pypto::bindings {

void InitSim(py::module_& m) {
  m.def(
      "run_program",
      [](const py::object&, const py::args&, const py::kwargs&) -> py::object {
        throw py::value_error("run_program: not supported yet: the executor is not built "
                              "into this pypto._core");
      },
      "Runs a program on simulated ranks (not available in this build).");
}

}  // namespace pypto::bindings
