// The file-top example of include/pypto/ir/builder.h, run verbatim against the
// real op registry (so this test links the ops layer), and compared as text
// with the header's comment so the two can only change together.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>
#include <vector>

#include "pypto/ir/builder.h"
#include "pypto/ir/casting.h"
#include "pypto/ops/ops.h"

using namespace pypto;
using namespace pypto::ir;

TEST_CASE("the file-top example of builder.h runs as documented") {
  Context ctx;
  // --- begin example (verbatim in include/pypto/ir/builder.h; checked below) ---
  IRBuilder b(ctx);
  const TileType* t = b.TileT(b.Shape({16, 64}), DataType::kFP32);
  const Function* f = b.BuildFunction(
      {"k", FunctionType::kInCore}, {{"x", t}}, [&](const std::vector<const Var*>& p) {
        const Var* y = b.Assign("y", b.Op(ops::kTileAdd, {p[0], p[0]}));
        b.Return({y});
      });
  // --- end example ---
  REQUIRE(f != nullptr);
  const auto* body = Cast<SeqStmt>(f->body);
  REQUIRE(body->stmts.size() == 2);
  const auto* assign = Cast<AssignStmt>(body->stmts[0]);
  const auto* call = Cast<Call>(assign->value);
  CHECK(call->op->name == "tile.add");
  CHECK(call->type == t);
  CHECK(Isa<ReturnStmt>(body->stmts[1]));
}

// The example lines of this file and of the header's comment, compared as text,
// so the documented snippet can only change together with the test that runs it.
TEST_CASE("builder.h's file-top example is the code the test above runs") {
  auto read_lines = [](const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in.good());
    std::vector<std::string> lines;
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
  };
  std::vector<std::string> test_code;
  bool in_example = false;
  for (const std::string& l :
       read_lines(std::string(PYPTO_SOURCE_DIR) + "/tests/unit/builder_example_test.cc")) {
    if (l.find("// --- end example") != std::string::npos) break;
    if (in_example) test_code.push_back(l.substr(2));  // drop the body's indent
    if (l.find("// --- begin example") != std::string::npos) in_example = true;
  }
  std::vector<std::string> doc_code;  // the first block of "//   " lines
  for (const std::string& l :
       read_lines(std::string(PYPTO_SOURCE_DIR) + "/include/pypto/ir/builder.h")) {
    if (l.rfind("//   ", 0) == 0)
      doc_code.push_back(l.substr(5));
    else if (!doc_code.empty())
      break;
  }
  REQUIRE(test_code.size() == 7);
  CHECK(doc_code == test_code);
}
