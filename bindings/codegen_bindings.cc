// TEMPORARY: the PTO emitter implementation (src/codegen) has not landed yet;
// emit_pto reports that clearly. Replaced by the real binding when it lands.
#include "bindings.h"

namespace pypto::bindings {

void InitCodegen(py::module_& m) {
  m.def(
      "emit_pto",
      [](const py::object&, const py::args&, const py::kwargs&) -> py::object {
        throw py::value_error("emit_pto: not supported yet: the PTO emitter is not built "
                              "into this pypto._core");
      },
      "Emits PTO MLIR (not available in this build).");
}

}  // namespace pypto::bindings
