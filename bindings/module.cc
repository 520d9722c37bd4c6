// Entry point of the pybind11 extension `pypto._core`. Each area registers its
// functions from its own file (errors.cc, ir_bindings.cc, registry_bindings.cc,
// pass_bindings.cc, codegen_bindings.cc, sim_bindings.cc); the pure-Python
// package `pypto` (bindings/pypto/) wraps them into the user-facing API.
#include "bindings.h"

PYBIND11_MODULE(_core, m) {
  m.doc() =
      "pypto._core: C++ core of pypto-dist (parser, printer, verifier, pass manager, PTO "
      "emitter, multi-rank executor). Use the `pypto`, `pypto.ir`, `pypto.language` and "
      "`pypto.sim` packages instead of calling this module directly.";
  using namespace pypto::bindings;
  InitErrors(m);
  InitIr(m);
  InitRegistry(m);
  InitPasses(m);
  InitCodegen(m);
  InitSim(m);
}
