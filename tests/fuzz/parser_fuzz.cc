// libFuzzer target for the IR text front end: parse arbitrary bytes, and when a
// program comes out, verify and print it, then re-parse the printed text (which
// must succeed: the printer only prints what the parser accepts). Any crash,
// sanitizer report, internal error, or rejection without diagnostics is a bug.
// Built only with clang and -DPYPTO_FUZZ=ON (see tests/CMakeLists.txt):
//   build/tests/fuzz/parser_fuzz -max_len=4096 tests/lit/roundtrip
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "pypto/core/check.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace pypto;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    ir::Context ctx;
    DiagnosticEngine diag(&ctx.sources());
    const ir::Program* p = ir::ParseProgram(ctx, text, "fuzz.pir", diag);
    if (!p) {
      if (!diag.HasErrors()) {
        std::cerr << "rejected without diagnostics\n";
        std::abort();
      }
      (void)diag.Render();
      return 0;
    }
    bool ok = ir::VerifyProgram(ctx, *p, diag);
    if (!ok && !diag.HasErrors()) std::abort();
    std::string printed = ir::PrintProgram(*p);
    ir::Context ctx2;
    DiagnosticEngine diag2(&ctx2.sources());
    if (!ir::ParseProgram(ctx2, printed, "printed.pir", diag2)) {
      std::cerr << "printed program does not re-parse:\n" << diag2.Render() << printed;
      std::abort();
    }
  } catch (const InternalError& e) {
    std::cerr << e.what() << "\n";
    std::abort();
  }
  return 0;
}
