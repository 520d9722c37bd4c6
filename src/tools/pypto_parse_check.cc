// pypto-parse-check: parses an IR text file and prints its canonical form (no
// verification, no passes). A minimal driver for the parser's own tests:
// exit 0 when the file parsed, 1 with `file:line:col: error:` diagnostics on
// stderr when it did not, 2 for usage errors.
//   pypto-parse-check FILE [--roundtrip]   (FILE '-' reads stdin)
// --roundtrip also re-parses the printed text and fails (exit 1) unless printing
// it again gives identical bytes.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "pypto/core/check.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"

int main(int argc, char** argv) {
  using namespace pypto;
  std::string file;
  bool roundtrip = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--roundtrip")
      roundtrip = true;
    else if (file.empty())
      file = a;
    else {
      std::cerr << "pypto-parse-check: error: unexpected argument '" << a << "'\n";
      return 2;
    }
  }
  if (file.empty()) {
    std::cerr << "usage: pypto-parse-check FILE [--roundtrip]\n";
    return 2;
  }
  std::stringstream buf;
  if (file == "-") {
    buf << std::cin.rdbuf();
  } else {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cerr << "pypto-parse-check: error: cannot open '" << file << "'\n";
      return 2;
    }
    buf << in.rdbuf();
  }
  try {
    ir::Context ctx;
    DiagnosticEngine diag(&ctx.sources());
    const ir::Program* p = ir::ParseProgram(ctx, buf.str(), file == "-" ? "<stdin>" : file, diag);
    if (!p) {
      std::cerr << diag.Render();
      return 1;
    }
    std::string text = ir::PrintProgram(*p);
    if (roundtrip) {
      const ir::Program* q = ir::ParseProgram(ctx, text, "<printed>", diag);
      if (!q) {
        std::cerr << "pypto-parse-check: printed text does not re-parse:\n" << diag.Render();
        return 1;
      }
      std::string again = ir::PrintProgram(*q);
      if (again != text) {
        std::cerr << "pypto-parse-check: print -> parse -> print is not identical:\n"
                  << text << "---\n"
                  << again;
        return 1;
      }
    }
    std::cout << text;
    return 0;
  } catch (const InternalError& e) {
    std::cerr << e.what() << "\n";
    return 3;
  }
}
