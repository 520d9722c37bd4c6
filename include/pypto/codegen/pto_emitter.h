// PTO MLIR text emitter: one `module attributes {pto.target_arch = ...}` per
// kernel function (InCore/AIC/AIV; a Group's AIC+AIV pair shares one module),
// written as text with no MLIR dependency, for `ptoas`. Deterministic:
// byte-identical output for the same input.
#pragma once

#include <string>
#include <vector>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/program.h"

namespace pypto::ir {
class Context;
}

namespace pypto::codegen {

struct PtoModule {
  std::string name;  // kernel (or group) function name; the file is <name>.pto
  std::string text;
};

struct PtoOptions {
  std::string target_arch;       // "a2a3" | "a5"; empty = ctx.target_arch
  bool emit_source_loc = false;  // append loc("file":line:col) to op lines
};

// Emits every kernel of `p`. Ops without an emitter are reported as
// "<op>: not supported by the PTO backend". Returns false when anything failed.
bool EmitPto(ir::Context& ctx, const ir::Program& p, const PtoOptions& opts,
             std::vector<PtoModule>* out, DiagnosticEngine& diag);

}  // namespace pypto::codegen
