// Shared helpers for parser unit tests: the module header every test program
// starts with, and the outcome of parsing a text (its diagnostics as
// "line:col: message" lines, or the printed program).
#pragma once

#include <string>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"

namespace pypto::ir::test {

inline const std::string kProgramHeader =
    "import pypto.language as pl\n"
    "import pypto.language.distributed as pld\n"
    "\n"
    "\n"
    "@pl.program\n"
    "class P:\n";

// "line:col: message\n" per diagnostic of parsing `text` as t.pir. A clean
// parse gives the printed program when `print_ok`, else "". A program returned
// despite diagnostics is flagged so a test cannot miss it.
inline std::string ParseOutcome(const std::string& text, bool print_ok) {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, text, "t.pir", diag);
  std::string out;
  for (const auto& d : diag.diagnostics())
    out += std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + ": " + d.message + "\n";
  if (p && out.empty()) return print_ok ? PrintProgram(*p) : out;
  if (p) out += "<program returned despite errors>\n";
  return out;
}

}  // namespace pypto::ir::test
