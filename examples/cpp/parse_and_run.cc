// Outside-project example: parse a distributed program from an IR text file
// (`parse_and_run examples/ring_exchange.pir`), run the default pipeline, emit
// PTO and run it on 4 simulated ranks; exits nonzero unless every rank received
// its left neighbour's block (the ring exchange's result). Built against an
// installed pypto (examples/cpp/README.md).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "ring_check.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: parse_and_run FILE.pir (the ring exchange: examples/ring_exchange.pir)\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "parse_and_run: error: cannot open input file '%s'\n", argv[1]);
    return 2;
  }
  std::stringstream text;
  text << in.rdbuf();
  pypto::ir::Context ctx;
  pypto::DiagnosticEngine diag(&ctx.sources());
  const pypto::ir::Program* prog = pypto::ir::ParseProgram(ctx, text.str(), argv[1], diag);
  if (prog == nullptr) {
    std::fprintf(stderr, "%s", diag.Render().c_str());
    return 1;
  }
  std::printf("parsed program %s\n", prog->name.c_str());
  return ring_example::CompileRunAndCheck(ctx, *prog, 4);
}
