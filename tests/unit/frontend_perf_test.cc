// Behaviour the front end's memory/speed work must keep (issue #2): tokens are
// lexed on demand and function bodies are parsed twice (checked, dropped, parsed
// again when lowered), yet lexer errors still come alone and first, syntax errors
// still suppress lowering, bodies lowered on demand (callee without a return
// annotation) still work; TileTypes are hash-consed by field identity; the
// arena's chunked destructor list runs every destructor once, newest first.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "parse_test_util.h"
#include "pypto/core/arena.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

const std::string& kHeader = test::kProgramHeader;

std::string Errors(const std::string& text) { return test::ParseOutcome(text, false); }

std::string Kernel(const std::string& name, const std::string& body) {
  return "    @pl.function(type=pl.FunctionType.InCore)\n    def " + name +
         "(self, src: pl.Tensor[[16, 64], pl.FP32]):\n" + body;
}

}  // namespace

TEST_CASE("a lexer error anywhere hides earlier syntax errors", "[parser][frontperf]") {
  // The syntax error (line 9) is found before the lexer reaches line 13: it is
  // held back and dropped, as when the whole file was lexed first.
  std::string text = std::string(kHeader) + Kernel("f", "        x = 1 +\n        return\n") +
                     Kernel("g", "        y = 1 $ 2\n        return\n");
  CHECK(Errors(text) == "13:15: unexpected character '$'\n");
  std::string no_lex_error = std::string(kHeader) +
                             Kernel("f", "        x = 1 +\n        return\n") +
                             Kernel("g", "        y = 1\n        return\n");
  CHECK(Errors(no_lex_error) == "9:16: expected an expression, found end of line\n");
}

TEST_CASE("syntax errors in a later body suppress lowering errors of earlier ones",
          "[parser][frontperf]") {
  std::string text = std::string(kHeader) +
                     Kernel("f", "        a = pl.tile.nosuchop(src)\n        return\n") + "\n" +
                     Kernel("g", "        b = = 1\n        return\n");
  CHECK(Errors(text) == "14:13: expected an expression, found '='\n");
  // Without the syntax error the lowering error of f is reported.
  std::string ok_syntax =
      std::string(kHeader) + Kernel("f", "        a = pl.tile.nosuchop(src)\n        return\n");
  CHECK(Errors(ok_syntax).find("9:13: unknown op 'pl.tile.nosuchop'") == 0);
}

TEST_CASE("bodies parsed again on demand: forward call of an unannotated function",
          "[parser][frontperf]") {
  std::string text = std::string(kHeader) +
                     "    @pl.function(type=pl.FunctionType.Orchestration)\n"
                     "    def main(self, x: pl.Tensor[[16, 64], pl.FP32]):\n"
                     "        y = self.helper(x)\n"
                     "        return y\n"
                     "\n"
                     "    @pl.function(type=pl.FunctionType.InCore)\n"
                     "    def helper(self, x: pl.Tensor[[16, 64], pl.FP32]):\n"
                     "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], "
                     "[16, 64])\n"
                     "        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)\n"
                     "        return x\n";
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, text, "t.pir", diag);
  INFO(diag.Render());
  REQUIRE(p);
  REQUIRE(p->functions.size() == 2);
  REQUIRE(p->functions[0]->return_types.size() == 1);
  CHECK(Isa<TensorType>(p->functions[0]->return_types[0]));
  // Round trip stays byte-identical.
  std::string printed = PrintProgram(*p);
  Context ctx2;
  DiagnosticEngine diag2(&ctx2.sources());
  const Program* p2 = ParseProgram(ctx2, printed, "t2.pir", diag2);
  INFO(diag2.Render());
  REQUIRE(p2);
  CHECK(PrintProgram(*p2) == printed);
}

TEST_CASE("TileTypes are hash-consed by field identity", "[ir][frontperf]") {
  Context ctx;
  const Expr* d16 = ctx.Int(16);
  const Expr* d64 = ctx.Int(64);
  const TileType* a =
      ctx.Make<TileType>(std::vector<const Expr*>{d16, d64}, DataType::kFP32, MemorySpace::kVec);
  const TileType* b =
      ctx.Make<TileType>(std::vector<const Expr*>{d16, d64}, DataType::kFP32, MemorySpace::kVec);
  CHECK(a == b);
  // Any differing field (or a different but equal-valued dim Expr) is another type.
  CHECK(ctx.Make<TileType>(std::vector<const Expr*>{d16, d64}, DataType::kFP16,
                           MemorySpace::kVec) != a);
  CHECK(ctx.Make<TileType>(std::vector<const Expr*>{d16, d64}, DataType::kFP32) != a);
  CHECK(ctx.Make<TileType>(std::vector<const Expr*>{ctx.Int(16), d64}, DataType::kFP32,
                           MemorySpace::kVec) != a);
  TileView v;
  v.valid_shape = {d16, d16};
  const TileType* c =
      ctx.Make<TileType>(std::vector<const Expr*>{d16, d64}, DataType::kFP32, MemorySpace::kVec, v);
  CHECK(c != a);
  CHECK(ctx.Make<TileType>(std::vector<const Expr*>{d16, d64}, DataType::kFP32, MemorySpace::kVec,
                           v) == c);
}

namespace {
struct Counted {
  std::vector<int>* log;
  int id;
  Counted(std::vector<int>* l, int i) : log(l), id(i) {}
  ~Counted() { log->push_back(id); }
};
}  // namespace

TEST_CASE("arena runs every destructor once, newest first, across dtor chunks",
          "[core][frontperf]") {
  std::vector<int> log;
  constexpr int kN = 10000;  // more than two chunks of destructor records
  {
    Arena arena;
    for (int i = 0; i < kN; ++i) arena.New<Counted>(&log, i);
  }
  REQUIRE(log.size() == static_cast<size_t>(kN));
  bool reversed = true;
  for (int i = 0; i < kN; ++i) reversed &= log[static_cast<size_t>(i)] == kN - 1 - i;
  CHECK(reversed);
}
