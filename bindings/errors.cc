// Python exception types of pypto._core and the conversion of a C++
// DiagnosticEngine into one of them. User errors (parse, verify, pass, emit,
// run) always arrive as diagnostics; the exception message is exactly the
// rendered text so `str(e)` reads like compiler output, and `e.diagnostics`
// carries the same facts structured for programs (tests, IDE integrations).
#include <pybind11/stl.h>

#include "bindings.h"
#include "pypto/core/check.h"

namespace pypto::bindings {

namespace {

// Borrowed forever: the types live as long as the interpreter (module attrs).
PyObject* g_types[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
PyObject* g_internal = nullptr;
PyObject* g_argument = nullptr;

PyObject* TypeOf(ErrorKind k) { return g_types[static_cast<int>(k)]; }

py::dict SpanDict(const SourceManager& sm, Span s) {
  py::dict d;
  if (s.IsKnown()) {
    d["file"] = sm.FileName(s.file);
    d["line"] = s.line;
    d["col"] = s.col;
    d["length"] = s.length;
  } else {
    d["file"] = py::none();
    d["line"] = 0;
    d["col"] = 0;
    d["length"] = 0;
  }
  return d;
}

}  // namespace

py::list DiagnosticsToPython(const DiagnosticEngine& diag, const SourceManager& sources) {
  py::list out;
  for (const Diagnostic& d : diag.diagnostics()) {
    py::dict e = SpanDict(sources, d.span);
    e["severity"] = d.severity == Severity::kError     ? "error"
                    : d.severity == Severity::kWarning ? "warning"
                                                       : "note";
    e["message"] = d.message;
    py::list notes;
    for (const auto& n : d.notes) {
      py::dict nd = SpanDict(sources, n.span);
      nd["message"] = n.message;
      notes.append(nd);
    }
    e["notes"] = notes;
    out.append(e);
  }
  return out;
}

void RaiseDiagnostics(ErrorKind kind, const DiagnosticEngine& diag, const SourceManager& sources,
                      const std::string& fallback) {
  // Re-render against `sources` whatever engine the diagnostics came from.
  DiagnosticEngine render(&sources);
  for (const Diagnostic& d : diag.diagnostics()) {
    Diagnostic& nd = d.severity == Severity::kError ? render.Error(d.span, d.message)
                                                    : render.Warning(d.span, d.message);
    nd.severity = d.severity;
    nd.notes = d.notes;
  }
  std::string msg = render.Render();
  if (diag.ErrorCount() > static_cast<int>(diag.diagnostics().size()))
    msg += std::to_string(diag.ErrorCount() - static_cast<int>(diag.diagnostics().size())) +
           " more errors not shown\n";
  if (msg.empty()) msg = fallback;
  if (!msg.empty() && msg.back() == '\n') msg.pop_back();
  py::object type = py::reinterpret_borrow<py::object>(TypeOf(kind));
  py::object exc = type(msg);
  exc.attr("diagnostics") = DiagnosticsToPython(diag, sources);
  PyErr_SetObject(TypeOf(kind), exc.ptr());
  throw py::error_already_set();
}

void RaiseArgumentError(const std::string& message) {
  PyErr_SetString(g_argument, message.c_str());
  throw py::error_already_set();
}

void InitErrors(py::module_& m) {
  PyObject* base = PyErr_NewExceptionWithDoc(
      "pypto._core.PyptoError",
      "Base class of every error pypto reports about a user's program. The message is the "
      "rendered diagnostics (`file:line:col: error: ...`, source line, caret); the "
      "`diagnostics` attribute lists them as dicts (severity, file, line, col, length, "
      "message, notes).",
      PyExc_Exception, nullptr);
  PYPTO_CHECK(base != nullptr);
  m.attr("PyptoError") = py::handle(base);
  struct Sub {
    ErrorKind kind;
    const char* name;
    const char* qual;
    const char* doc;
  };
  const Sub subs[] = {
      {ErrorKind::kParse, "ParseError", "pypto._core.ParseError",
       "The program text (or decorated Python source) is not valid PyPTO DSL."},
      {ErrorKind::kVerify, "VerifyError", "pypto._core.VerifyError",
       "The program parsed but breaks a typing or placement rule of the verifier."},
      {ErrorKind::kPass, "PassError", "pypto._core.PassError",
       "A pass pipeline could not be resolved or a pass rejected the program."},
      {ErrorKind::kEmit, "EmitError", "pypto._core.EmitError",
       "The PTO MLIR emitter could not translate the program."},
      {ErrorKind::kSim, "SimError", "pypto._core.SimError",
       "The simulated run failed (deadlock, race, bounds, bad inputs, ...)."},
  };
  for (const Sub& s : subs) {
    PyObject* t = PyErr_NewExceptionWithDoc(s.qual, s.doc, base, nullptr);
    PYPTO_CHECK(t != nullptr);
    g_types[static_cast<int>(s.kind)] = t;
    m.attr(s.name) = py::handle(t);
  }
  // Also a TypeError and a ValueError, so code that catches what Python itself
  // raises for a bad argument keeps working.
  py::tuple arg_bases =
      py::make_tuple(py::handle(base), py::handle(PyExc_TypeError), py::handle(PyExc_ValueError));
  g_argument = PyErr_NewExceptionWithDoc(
      "pypto._core.ArgumentError",
      "A pypto function was called with an argument of the wrong type or value, or with an "
      "unknown keyword. Also a TypeError and a ValueError.",
      arg_bases.ptr(), nullptr);
  PYPTO_CHECK(g_argument != nullptr);
  m.attr("ArgumentError") = py::handle(g_argument);
  g_internal = PyErr_NewExceptionWithDoc(
      "pypto._core.InternalError",
      "A compiler invariant failed (a bug in pypto, not in the user's program).",
      PyExc_RuntimeError, nullptr);
  m.attr("InternalError") = py::handle(g_internal);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InternalError& e) {
      PyErr_SetString(g_internal, e.what());
    }
  });
}

}  // namespace pypto::bindings
