// pypto._core pass-manager surface: run a named pipeline ("default") or an
// explicit pass list ("a,b") over a Program, and list passes and pipelines. The
// result shares its context with the input (passes build new nodes in the same
// arena), so both Program handles stay valid.
#include <pybind11/stl.h>

#include <sstream>

#include "bindings.h"
#include "pypto/passes/pass.h"
#include "pypto/passes/pass_manager.h"

namespace pypto::bindings {

void InitPasses(py::module_& m) {
  m.def(
      "run_passes",
      [](const ProgramHandle& p, const std::string& pipeline, bool verify_each, bool roundtrip_each,
         std::vector<std::string> print_after, bool print_after_all, bool time_passes) {
        std::ostringstream log;
        passes::PassManagerOptions opts;
        opts.verify_each = verify_each;
        opts.roundtrip_each = roundtrip_each;
        opts.print_after = std::move(print_after);
        opts.print_after_all = print_after_all;
        opts.time_passes = time_passes;
        opts.log = &log;
        DiagnosticEngine diag(&p.ctx->sources());
        const ir::Program* out = nullptr;
        {
          py::gil_scoped_release nogil;
          std::lock_guard<std::mutex> lock(*p.mu);
          out = passes::RunPipeline(*p.ctx, *p.prog, pipeline, opts, diag);
        }
        if (!out || diag.HasErrors())
          RaiseDiagnostics(ErrorKind::kPass, diag, p.ctx->sources(),
                           "error: pipeline '" + pipeline + "' failed");
        auto h = std::make_shared<ProgramHandle>();
        h->ctx = p.ctx;
        h->mu = p.mu;
        h->prog = out;
        py::object obj = py::cast(h);
        obj.attr("pass_log") = log.str();
        return obj;
      },
      py::arg("program"), py::arg("pipeline") = "default", py::arg("verify_each") = false,
      py::arg("roundtrip_each") = false, py::arg("print_after") = std::vector<std::string>{},
      py::arg("print_after_all") = false, py::arg("time_passes") = false,
      "Runs a pass pipeline — a named one (\"default\") or a comma-separated pass list — "
      "over a verified program and returns the resulting Program. Printed IR, timing tables "
      "and skipped-pass warnings are in the result's `pass_log` attribute. Raises PassError.");
  m.def("pipeline_names", &passes::PipelineNames, "Names of the named pipelines, sorted.");
  m.def(
      "named_pipeline",
      [](const std::string& name) -> py::object {
        auto p = passes::NamedPipeline(name);
        if (!p) return py::none();
        return py::cast(*p);
      },
      py::arg("name"), "Pass names of a named pipeline (None when unknown).");
  m.def(
      "pass_names",
      // Every registered pass is implemented: `implemented_only` is accepted for
      // compatibility and selects the same list.
      [](bool /*implemented_only*/) {
        std::vector<std::string> out;
        for (const passes::PassInfo& pi : passes::AllPasses()) out.push_back(pi.name);
        return out;
      },
      py::arg("implemented_only") = false, "Every known pass in default-pipeline order.");
}

}  // namespace pypto::bindings
