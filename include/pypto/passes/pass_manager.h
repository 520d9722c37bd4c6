// The pass manager: runs a list of passes over a program, checking each pass's
// required properties first, and optionally verifying, round-tripping (print ->
// parse -> StructuralEqual, and print again -> identical text), printing the IR
// and timing after each pass. Pipelines are text: "a,b,c" or a named pipeline
// ("default").
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/context.h"
#include "pypto/ir/program.h"
#include "pypto/passes/pass.h"

namespace pypto::passes {

struct PassManagerOptions {
  bool verify_each = false;              // VerifyProgram (+ held property checks) after each pass
  bool roundtrip_each = false;           // print/parse/StructuralEqual/print after each pass
  std::vector<std::string> print_after;  // pass names whose output is printed
  bool print_after_all = false;
  bool time_passes = false;  // timing table on the log stream after the run
  // Where printed IR and timing tables go (nullptr = std::cerr).
  std::ostream* log = nullptr;
};

// One resolved pipeline: the passes to run in order and where it came from.
struct PipelineSpec {
  std::string name;  // "default" for a named pipeline, "" for an explicit list
  std::vector<const PassInfo*> passes;
};

// Names of the named pipelines ("default", ...), sorted.
std::vector<std::string> PipelineNames();
// The pass names of a named pipeline; nullopt when unknown.
std::optional<std::vector<std::string>> NamedPipeline(std::string_view name);

// Resolves "default" (a named pipeline) or "a,b,c" (explicit pass names). On
// failure returns nullopt and sets `error` to a usage message that lists the
// valid names (unknown pass or pipeline, empty entry).
std::optional<PipelineSpec> ResolvePipeline(std::string_view text, std::string* error);

// Static property check of a pipeline starting from properties `initial`.
// Returns "" when every pass's requirements are met, else "pass X requires property P, produced by
// pass Y; add it earlier in the pipeline".
std::string CheckPipelineProperties(const PipelineSpec& spec, PropertySet initial);

class PassManager {
 public:
  explicit PassManager(PassManagerOptions opts = {}) : opts_(std::move(opts)) {}

  // Runs `spec` on `prog`. `initial` are the properties known to hold (the
  // caller verified the program: include TypeChecked). Returns the final
  // program or nullptr after reporting errors to `diag`.
  const ir::Program* Run(ir::Context& ctx, const ir::Program& prog, const PipelineSpec& spec,
                         PropertySet initial, DiagnosticEngine& diag);

  // Properties holding after the last Run.
  PropertySet properties() const { return props_; }

  struct Timing {
    std::string pass;
    double seconds = 0;
  };
  const std::vector<Timing>& timings() const { return timings_; }
  // The --time-passes table for timings() (also written by Run when enabled).
  std::string TimingReport() const;

 private:
  bool VerifyAfter(ir::Context& ctx, const ir::Program& p, const std::string& pass,
                   DiagnosticEngine& diag);
  bool RoundTripAfter(const ir::Program& p, const std::string& pass, DiagnosticEngine& diag);
  std::ostream& log() const;

  PassManagerOptions opts_;
  PropertySet props_;
  std::vector<Timing> timings_;
};

// The entry point for tools and bindings: resolves `pipeline` ("default" or
// "a,b"), detects the input's properties (the program must already have been
// verified by VerifyProgram), checks the pipeline's property contract and runs
// it. Usage errors (unknown names, unmet requirements) are reported to `diag`
// with no source location. Returns nullptr on any error.
const ir::Program* RunPipeline(ir::Context& ctx, const ir::Program& prog, std::string_view pipeline,
                               const PassManagerOptions& opts, DiagnosticEngine& diag);

}  // namespace pypto::passes
