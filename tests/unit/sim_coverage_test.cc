// Every registered op either has an executor implementation or is on the
// executor's explicit "not supported by pypto-run" list (checked against the
// live registry, so a newly registered op fails here until it is handled).
#include <catch2/catch.hpp>

#include "pypto/ir/op_registry.h"
#include "pypto/sim/interpreter.h"

TEST_CASE("every registered op has executor semantics or an explicit unsupported entry") {
  const auto& table = pypto::sim::GetOpTable();
  std::vector<std::string> missing;
  for (const pypto::ir::OpDef* op : pypto::ir::OpRegistry::Global().All()) {
    const std::string& name = op->name;
    bool impl = table.fns.count(name) > 0;
    bool listed = table.unsupported.count(name) > 0;
    if (!impl && !listed) missing.push_back(name);
    CHECK_FALSE((impl && listed));
  }
  INFO("ops without executor semantics: " << [&] {
    std::string s;
    for (auto& m : missing) s += m + " ";
    return s;
  }());
  CHECK(missing.empty());
}

TEST_CASE("unsupported-list entries name registered ops") {
  for (const auto& [name, why] : pypto::sim::GetOpTable().unsupported) {
    INFO(name);
    CHECK(pypto::ir::OpRegistry::Global().Find(name) != nullptr);
    CHECK_FALSE(why.empty());
  }
}
