// The parser's single-pass fast path (ParseOutline skips each function body with
// a byte-level skim; the body is parsed once when lowered) must be invisible:
// bodies laid out in every way the skim has to understand (strings, comments and
// brackets at any indentation, continuations, blank lines, no final newline)
// give the same program as the plain layout; a file with any syntax error still
// reports exactly its syntax errors (none of the lowering errors of functions
// lowered before the bad body was reached), Var ids do not depend on which path
// was taken, and errors in bodies that are never lowered are still reported.
#include <catch2/catch.hpp>
#include <string>

#include "parse_test_util.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

const std::string& kHeader = test::kProgramHeader;

std::string ParseResult(const std::string& text) { return test::ParseOutcome(text, true); }

}  // namespace

TEST_CASE("bodies skipped by the outline pass parse as in the plain layout", "[parser][outline]") {
  std::string plain =
      kHeader +
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def a(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
      "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])\n"
      "        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)\n"
      "        return\n"
      "\n"
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def b(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
      "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])\n"
      "        return\n";
  std::string tricky =
      kHeader +
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def a(self, src: pl.Tensor[[16, 64], pl.FP32]):  # header comment\n"
      "        \"\"\"Docstring whose lines\n"
      "def fake(self):\n"
      "  are not indented ''' \\\"\"\" (nor closed here)\n"
      "    \"\"\"\n"
      "  \n"
      "# a comment at column 1\n"
      "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(\n"
      "src, [0,\n"
      "  0], # comment inside brackets )]\n"
      "\n"
      "    [16, 64])\n"
      "        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = \\\n"
      "pl.tile.add(t, t)\n"
      "        'a string with # and ) and \\' inside'\n"
      "        return\n"
      "\t\n"
      "    # comment at the class level\n"
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def b(self, src: pl.Tensor[[16, 64], pl.FP32]):\r\n"
      "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])\r\n"
      "        return";  // no final newline
  std::string expected = ParseResult(plain);
  REQUIRE(expected.find("def a(") != std::string::npos);
  CHECK(ParseResult(tricky) == expected);
  // The body running into the end of the file, then blank and comment lines.
  CHECK(ParseResult(plain + "\n   \n# trailing comment") == expected);
}

TEST_CASE("a syntax error anywhere still reports only the syntax errors", "[parser][outline]") {
  std::string text = kHeader +
                     "    @pl.function(type=pl.FunctionType.InCore)\n"
                     "    def a(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
                     "        x = undefined_name\n"  // lowering error (not reported)
                     "        return\n"
                     "\n"
                     "    @pl.function(type=pl.FunctionType.InCore)\n"
                     "    def b(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
                     "        y = (1 +\n"  // line 14
                     "        )\n"
                     "        z = 1 2\n"  // line 16
                     "        return\n";
  CHECK(ParseResult(text) ==
        "15:9: expected an expression, found ')'\n"
        "16:15: unexpected number 2; expected end of line after the statement\n");
  // Without the syntax errors the lowering error is what is reported.
  std::string fixed = text.substr(0, text.find("        y = (1 +")) + "        return\n";
  CHECK(ParseResult(fixed) == "9:13: undefined name 'undefined_name'\n");
}

TEST_CASE("Var ids do not depend on the path the parser took", "[parser][outline]") {
  std::string good =
      kHeader +
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def a(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
      "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])\n"
      "        return\n";
  // `a` is lowered (its Vars made) before the syntax error in `b` is found.
  std::string bad = good +
                    "\n"
                    "    @pl.function(type=pl.FunctionType.InCore)\n"
                    "    def b(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
                    "        x = )\n";
  Context fresh;
  DiagnosticEngine d1(&fresh.sources());
  const Program* p1 = ParseProgram(fresh, good, "good.pir", d1);
  REQUIRE(p1);

  Context ctx;
  DiagnosticEngine d2(&ctx.sources());
  CHECK_FALSE(ParseProgram(ctx, bad, "bad.pir", d2));
  CHECK(d2.ErrorCount() == 1);
  DiagnosticEngine d3(&ctx.sources());
  const Program* p2 = ParseProgram(ctx, good, "good.pir", d3);
  REQUIRE(p2);
  CHECK(p2->functions[0]->params[0]->id == p1->functions[0]->params[0]->id);
}

TEST_CASE("bodies that are never lowered are still checked", "[parser][outline]") {
  std::string prog = kHeader +
                     "    @pl.function(type=pl.FunctionType.InCore)\n"
                     "    def a(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
                     "        return\n"
                     "\n"
                     "\n";
  // A harness function (not a program function): its lexer errors are reported,
  // its syntax errors are not (module-level code outside @pl definitions is
  // parsed leniently), and the program parses.
  CHECK(ParseResult(prog + "def main():\n    x = 1 $ 2\n") == "13:11: unexpected character '$'\n");
  std::string ok = ParseResult(prog);
  REQUIRE(ok.find("def a(") != std::string::npos);
  CHECK(ParseResult(prog + "def main():\n    x = 1 2\n    y = 2\n") == ok);
  // A second definition of `a` is not lowered, but its syntax errors win.
  std::string twice = prog +
                      "    @pl.function(type=pl.FunctionType.InCore)\n"
                      "    def a(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
                      "        x = 1 2\n"
                      "        return\n";
  CHECK(ParseResult(twice).find("function 'a' is defined twice") == std::string::npos);
  CHECK(ParseResult(twice) ==
        "14:15: unexpected number 2; expected end of line after the statement\n");
}
