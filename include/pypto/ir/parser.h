// IR text parser: our own lexer (INDENT/DEDENT) and recursive-descent parser for
// the PyPTO DSL syntax (design §5). One front end for .pir files, pypto-opt and
// the Python decorators. Reports every error it can recover from.
#pragma once

#include <string>
#include <string_view>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/program.h"

namespace pypto::ir {

class Context;

struct ParseOptions {
  // Accept internal-only ops (builtin.tensor.*): needed to re-parse compiler
  // output (round-trip after passes); user DSL source rejects them.
  bool allow_internal_ops = true;
  // Extra module-level constants supplied by the Python decorators (name -> int/float
  // literal text), as if `NAME = value` preceded the program.
  std::vector<std::pair<std::string, std::string>> constants;
  // Line offset added to every span (the decorators hand over a class body that
  // starts at this line of the user's file).
  int line_offset = 0;
};

// Parses one program from `text`. The file is registered in ctx.sources() under
// `filename`. Returns nullptr when any error was reported (all are in `diag`).
const Program* ParseProgram(Context& ctx, std::string_view text, const std::string& filename,
                            DiagnosticEngine& diag, const ParseOptions& opts = {});

// The same, but the caller hands its text over: it is moved into ctx.sources()
// instead of copied, so a large input is held once, not twice. (A distinct name,
// not an overload, so string literals keep resolving to the string_view form.)
// Diagnostics render the same source lines as ParseProgram's.
const Program* ParseProgramOwned(Context& ctx, std::string&& text, const std::string& filename,
                                 DiagnosticEngine& diag, const ParseOptions& opts = {});

}  // namespace pypto::ir
