// The IR layer alone (linked with pypto_ir only, see tests/CMakeLists.txt): no
// op is registered, an op-free program parses and prints, and the parser
// reports an op call as an unknown op instead of reaching into the ops layer.
#include <catch2/catch.hpp>
#include <string>

#include "parse_test_util.h"
#include "pypto/ir/op_registry.h"

using namespace pypto::ir;

TEST_CASE("ir layer alone: the op registry is empty") {
  CHECK(OpRegistry::Global().size() == 0);
  CHECK(OpRegistry::Global().Find("tensor.add") == nullptr);
}

TEST_CASE("ir layer alone: an op-free program parses and prints") {
  std::string text = test::kProgramHeader +
                     "    @pl.function\n"
                     "    def f(self, a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
                     "        return a + 1\n";
  std::string printed = test::ParseOutcome(text, /*print_ok=*/true);
  CHECK(printed.find("def f(") != std::string::npos);
  CHECK(printed.find("unknown op") == std::string::npos);
}

TEST_CASE("ir layer alone: an op call is an unknown op") {
  std::string text = test::kProgramHeader +
                     "    @pl.function\n"
                     "    def f(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:\n"
                     "        y: pl.Tensor[[16], pl.FP32] = pl.tensor.add(x, x)\n"
                     "        return y\n";
  CHECK_THAT(test::ParseOutcome(text, /*print_ok=*/false), Catch::Contains("unknown op"));
}
