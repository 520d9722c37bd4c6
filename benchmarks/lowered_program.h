// Shared by the simulator benchmarks: parses a program text, verifies it and
// runs the lower-composite-ops pass on it (the notify/wait/remote_load form the
// schedules and the race detector are measured on). Exits on any error.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/verifier.h"
#include "pypto/passes/pass_manager.h"

inline const pypto::ir::Program* LoweredProgram(pypto::ir::Context& ctx, const std::string& text) {
  pypto::DiagnosticEngine diag(&ctx.sources());
  const pypto::ir::Program* p = pypto::ir::ParseProgram(ctx, text, "bench.pir", diag);
  if (p && pypto::ir::VerifyProgram(ctx, *p, diag))
    p = pypto::passes::RunPipeline(ctx, *p, "lower-composite-ops", {}, diag);
  else
    p = nullptr;
  if (!p) {
    std::fputs(diag.Render().c_str(), stderr);
    std::exit(1);
  }
  return p;
}
