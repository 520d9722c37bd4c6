// pypto._core PTO emitter surface: one PTO MLIR module text per kernel.
#include <pybind11/stl.h>

#include "bindings.h"
#include "pypto/codegen/pto_emitter.h"

namespace pypto::bindings {

void InitCodegen(py::module_& m) {
  m.def(
      "emit_pto",
      [](const ProgramHandle& p, const std::string& target_arch, bool emit_source_loc) {
        codegen::PtoOptions opts;
        opts.target_arch = target_arch;
        opts.emit_source_loc = emit_source_loc;
        std::vector<codegen::PtoModule> mods;
        DiagnosticEngine diag(&p.ctx->sources());
        bool ok;
        {
          py::gil_scoped_release nogil;
          std::lock_guard<std::mutex> lock(*p.mu);
          ok = codegen::EmitPto(*p.ctx, *p.prog, opts, &mods, diag);
        }
        if (!ok || diag.HasErrors())
          RaiseDiagnostics(ErrorKind::kEmit, diag, p.ctx->sources(),
                           "error: PTO emission failed for program '" + p.prog->name + "'");
        py::dict out;  // insertion-ordered: kernel order of the program
        for (const auto& mod : mods) out[py::str(mod.name)] = mod.text;
        return out;
      },
      py::arg("program"), py::arg("target_arch") = "", py::arg("emit_source_loc") = false,
      "Emits PTO MLIR text for every kernel of a (lowered) program: a dict kernel name -> "
      "module text, in program order. target_arch \"\" uses the program's context "
      "(\"a2a3\" | \"a5\"). Raises EmitError naming unsupported ops.");
}

}  // namespace pypto::bindings
