// libFuzzer target for the whole pipeline: parse arbitrary bytes; when a
// program comes out and verifies, run the default pass pipeline, emit PTO, and
// run the (verified) program briefly in the executor (random schedule, 2 ranks,
// a small step budget and deadline, windows capped at 64 MiB). Any crash,
// sanitizer report, InternalError, or rejection without diagnostics is a bug.
// Built only with clang and -DPYPTO_FUZZ=ON (see tests/CMakeLists.txt):
//   build-fuzz/tests/fuzz/pipeline_fuzz -max_len=4096 tests/fuzz/corpus/pipeline
// The same entry is replayed over the checked-in corpus by the g++-buildable
// driver tests/fuzz/corpus_replay.cc (ctest pipeline_corpus_asan).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "pypto/codegen/pto_emitter.h"
#include "pypto/core/check.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/verifier.h"
#include "pypto/passes/pass_manager.h"
#include "pypto/sim/run.h"

namespace {

[[noreturn]] void Bug(const char* what, const std::string& detail) {
  std::cerr << "pipeline_fuzz: " << what << "\n" << detail << "\n";
  std::abort();
}

// Runs `p` (verified) for a few steps; a report without "error" on failure, an
// internal error or exit code outside the documented ones is a bug.
void RunBriefly(pypto::ir::Context& ctx, const pypto::ir::Program& p) {
  using namespace pypto;
  sim::RunOptions o;
  o.ranks = 2;
  o.schedule = sim::Schedule::kRandom;
  o.seed = 1;
  o.deadline_s = 2;
  o.max_steps = 2000;
  o.memory_limit = int64_t{64} << 20;
  o.inputs_random = true;
  o.check_signals = true;
  o.detect_races = true;
  o.verify = false;  // verified by the caller
  sim::RunResult r = sim::RunProgram(ctx, p, {}, o);
  if (r.exit_code != 0 && r.exit_code != 1 && r.exit_code != 2 && r.exit_code != 3)
    Bug("executor exit code outside 0..3", r.report);
  if (r.report.find("internal error") != std::string::npos)
    Bug("executor internal error", r.report);
  if (r.exit_code != 0 && r.report.find("error") == std::string::npos)
    Bug("executor failed without an error message", r.report);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pypto;
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    ir::Context ctx;
    DiagnosticEngine diag(&ctx.sources());
    const ir::Program* p = ir::ParseProgram(ctx, text, "fuzz.pir", diag);
    if (!p) {
      if (!diag.HasErrors()) Bug("rejected without diagnostics", text);
      (void)diag.Render();
      return 0;
    }
    if (!ir::VerifyProgram(ctx, *p, diag) || diag.HasErrors()) {
      if (!diag.HasErrors()) Bug("verifier failed without diagnostics", text);
      (void)diag.Render();
      return 0;
    }
    RunBriefly(ctx, *p);
    passes::PassManagerOptions po;
    const ir::Program* low = passes::RunPipeline(ctx, *p, "default", po, diag);
    if (!low) {
      if (!diag.HasErrors()) Bug("pipeline failed without diagnostics", text);
      (void)diag.Render();
      return 0;
    }
    codegen::PtoOptions eo;
    std::vector<codegen::PtoModule> modules;
    DiagnosticEngine ediag(&ctx.sources());
    if (!codegen::EmitPto(ctx, *low, eo, &modules, ediag) && !ediag.HasErrors())
      Bug("PTO emission failed without diagnostics", text);
    (void)ediag.Render();
  } catch (const InternalError& e) {
    Bug("internal error", e.what());
  }
  return 0;
}
