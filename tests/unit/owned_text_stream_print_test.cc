// Large-input entry points of the front end (issue #2 memory): ParseProgramOwned
// hands the text to the SourceManager without a copy and must behave exactly like
// ParseProgram (same IR, same rendered diagnostics, line_offset included);
// PrintProgramTo streams the printer's output in pieces (header, then one per
// function) that concatenate to exactly PrintProgram; SourceManager::Line (now
// built on first use) still returns the right source lines.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

const std::string kProgram =
    "# pypto.program: Two\n"
    "import pypto.language as pl\n"
    "import pypto.language.distributed as pld\n"
    "\n"
    "N = pl.dynamic(\"N\")\n"
    "\n"
    "\n"
    "@pl.program\n"
    "class Two:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def a(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
    "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])\n"
    "        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)\n"
    "        return\n"
    "\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def b(self, src: pl.Tensor[[N, 64], pl.FP32]):\n"
    "        return\n";

// Line 13 uses an undefined name `q`.
const std::string kBad =
    "import pypto.language as pl\n"
    "import pypto.language.distributed as pld\n"
    "\n"
    "\n"
    "@pl.program\n"
    "class P:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def a(self, src: pl.Tensor[[16, 64], pl.FP32]):\n"
    "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])\n"
    "        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, q)\n"
    "        return\n";

std::string RenderedErrors(const std::string& text, bool owned, const ParseOptions& opts = {}) {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = owned ? ParseProgramOwned(ctx, std::string(text), "bad.pir", diag, opts)
                           : ParseProgram(ctx, text, "bad.pir", diag, opts);
  if (p) return "<parsed>";
  return diag.Render();
}

}  // namespace

TEST_CASE("ParseProgramOwned moves the text into the SourceManager and parses like ParseProgram") {
  Context c1, c2;
  DiagnosticEngine d1(&c1.sources()), d2(&c2.sources());
  const Program* p1 = ParseProgram(c1, kProgram, "two.pir", d1);
  std::string moved = kProgram;
  const char* buffer = moved.data();
  const Program* p2 = ParseProgramOwned(c2, std::move(moved), "two.pir", d2);
  INFO(d1.Render() + d2.Render());
  REQUIRE(p1 != nullptr);
  REQUIRE(p2 != nullptr);
  // The SourceManager holds the caller's very buffer (no copy was made).
  CHECK(c2.sources().FileText(0).data() == buffer);
  CHECK(c2.sources().FileText(0) == kProgram);
  CHECK(c2.sources().FileName(0) == "two.pir");
  CHECK(PrintProgram(*p2) == kProgram);
  CHECK(PrintProgram(*p1) == PrintProgram(*p2));
}

TEST_CASE("ParseProgramOwned renders diagnostics exactly as ParseProgram") {
  std::string copied = RenderedErrors(kBad, false);
  std::string owned = RenderedErrors(kBad, true);
  CHECK(owned == copied);
  const std::string line = "        u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, q)";
  const std::string caret = std::string(67, ' ') + "^\n";
  CHECK(owned == "bad.pir:10:68: error: undefined name 'q'\n" + line + "\n" + caret);
  // With a line offset, positions and rendered source lines shift alike.
  ParseOptions opts;
  opts.line_offset = 20;
  std::string copied_off = RenderedErrors(kBad, false, opts);
  std::string owned_off = RenderedErrors(kBad, true, opts);
  CHECK(owned_off == copied_off);
  CHECK(owned_off == "bad.pir:30:68: error: undefined name 'q'\n" + line + "\n" + caret);
}

TEST_CASE("PrintProgramTo streams the header then one piece per function") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, kProgram, "two.pir", diag);
  INFO(diag.Render());
  REQUIRE(p != nullptr);
  std::vector<std::string> pieces;
  PrintProgramTo(*p, [&](std::string_view s) { pieces.emplace_back(s); });
  REQUIRE(pieces.size() == 3);
  CHECK(pieces[0] ==
        "# pypto.program: Two\n"
        "import pypto.language as pl\n"
        "import pypto.language.distributed as pld\n"
        "\n"
        "N = pl.dynamic(\"N\")\n"
        "\n"
        "\n"
        "@pl.program\n"
        "class Two:\n");
  CHECK(pieces[2] ==
        "\n"
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def b(self, src: pl.Tensor[[N, 64], pl.FP32]):\n"
        "        return\n");
  CHECK(pieces[0] + pieces[1] + pieces[2] == kProgram);
  std::ostringstream os;
  PrintProgramTo(*p, os);
  CHECK(os.str() == kProgram);
  CHECK(os.str() == PrintProgram(*p));
}

TEST_CASE("SourceManager::Line returns lines on demand") {
  SourceManager sm;
  int32_t f = sm.AddFile("x.pir", "first\r\nsecond\n\nlast");
  CHECK(sm.Line(f, 1) == "first");
  CHECK(sm.Line(f, 2) == "second");
  CHECK(sm.Line(f, 3) == "");
  CHECK(sm.Line(f, 4) == "last");
  CHECK(sm.Line(f, 5) == "");
  CHECK(sm.Line(f, 0) == "");
  CHECK(sm.Line(f + 1, 1) == "");
  int32_t g = sm.AddFile("y.pir", "");
  CHECK(sm.Line(g, 1) == "");
  CHECK(sm.Line(f, 2) == "second");
}
