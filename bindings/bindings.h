// Shared declarations of the pybind11 module `pypto._core`: the Program handle
// every binding passes around, the exception types, and the per-area Init*
// entry points module.cc calls. A Program handle owns (a shared_ptr to) the
// ir::Context whose arena holds its nodes, so a Python Program can never outlive
// the memory it points into; programs derived by passes share that context.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/context.h"
#include "pypto/ir/program.h"

namespace pypto::bindings {

namespace py = pybind11;

// ir::Context is not thread-safe for building, and passes, the verifier (op
// re-deduction), the emitter and the executor may all allocate in it; every
// binding that releases the GIL takes `mu` (shared by all handles of one
// context) so Python threads can never build in one arena concurrently.
struct ProgramHandle {
  std::shared_ptr<ir::Context> ctx;
  std::shared_ptr<std::mutex> mu = std::make_shared<std::mutex>();
  const ir::Program* prog = nullptr;
};

// The exception classes (created once in InitErrors, exported as
// pypto._core.PyptoError / ParseError / VerifyError / PassError / EmitError /
// SimError).
enum class ErrorKind { kParse, kVerify, kPass, kEmit, kSim };

// Raises the Python exception of `kind` whose message is the rendered
// diagnostics (`file:line:col: error: ...` + source line + caret) and whose
// `diagnostics` attribute is a list of dicts (severity, file, line, col, length,
// message, notes). `fallback` is used as the message when `diag` is empty.
[[noreturn]] void RaiseDiagnostics(ErrorKind kind, const DiagnosticEngine& diag,
                                   const SourceManager& sources, const std::string& fallback);

// Raises pypto._core.ArgumentError (a PyptoError, TypeError and ValueError):
// a pypto function got an argument of the wrong type or value.
[[noreturn]] void RaiseArgumentError(const std::string& message);

// Structured form of a diagnostic list (the `diagnostics` attribute above).
py::list DiagnosticsToPython(const DiagnosticEngine& diag, const SourceManager& sources);

}  // namespace pypto::bindings

#include "pypto/sim/run.h"

namespace pypto::bindings {

// sim_subworker.cc: HOST SubWorker calls from the executor into Python.
// `dispatcher(name, args)` gets the function's name and a list of numpy arrays
// (Out / InOut writable, In read-only; BF16 as float32) and Python scalars, and
// returns None (nothing returned) or a list of (arg index or -1, array) pairs.
// A Python exception it raises is kept in `*pending` (re-raised by the binding
// once the run is over, so the user sees their own exception and traceback)
// and fails the run with its type and message.
struct PendingPyError {
  std::unique_ptr<py::error_already_set> error;  // destroyed with the GIL held
};
sim::SubWorkerFn MakeSubWorkerBridge(py::object dispatcher,
                                     std::shared_ptr<PendingPyError> pending);

void InitErrors(py::module_& m);
void InitIr(py::module_& m);
void InitRegistry(py::module_& m);
void InitPasses(py::module_& m);
void InitCodegen(py::module_& m);
void InitSim(py::module_& m);

}  // namespace pypto::bindings
