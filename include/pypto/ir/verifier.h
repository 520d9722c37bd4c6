// Whole-program verifier: single definition, use before definition, types
// re-checked through the op registry, call signatures, and function-kind rules
// (host-only ops only in the host orchestrator, kernel-only ops only in kernels).
// Reports all errors to `diag`; returns true when the program is well formed.
#pragma once

#include "pypto/core/diagnostics.h"
#include "pypto/ir/program.h"

namespace pypto::ir {

class Context;

struct VerifyOptions {
  // Require SSA form (after convert-to-ssa): every Var is assigned exactly once.
  bool ssa = false;
};

bool VerifyProgram(Context& ctx, const Program& p, DiagnosticEngine& diag);
bool VerifyProgram(Context& ctx, const Program& p, DiagnosticEngine& diag,
                   const VerifyOptions& opts);

}  // namespace pypto::ir
