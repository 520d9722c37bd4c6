// The executor's op table (pypto/sim/interpreter.h) against the live registry,
// in both directions: every registered op has an executor kernel or a declared
// reason it is not executable, and every table entry is a registered op. Also
// the facts the executor takes from declared traits rather than restating them:
// the collective families run as collectives and return a declared operand, and
// every element-wise op (tile and tensor form, binary and scalar twin) has an
// element kernel.
#include <catch2/catch.hpp>
#include <string>

#include "pypto/ops/ops.h"
#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

using pypto::ir::OpDef;
using pypto::ir::OpFamily;
using pypto::ir::OpHandle;
using pypto::sim::OpKind;

namespace {

const pypto::sim::OpTable& Table() { return pypto::sim::GetOpTable(); }

bool IsCollectiveFamily(const OpDef& d) {
  return d.family == OpFamily::kCollective || d.family == OpFamily::kBuiltinCollective;
}

}  // namespace

TEST_CASE("every registered op has executor semantics or a declared reason") {
  std::string missing;
  for (const OpDef* op : pypto::ops::Registry().All()) {
    bool impl = Table()[op->handle].fn != nullptr;
    bool listed = !Table().unsupported[op->handle.id].empty();
    INFO(op->name);
    CHECK_FALSE((impl && listed));
    if (!impl && !listed) missing += op->name + " ";
  }
  INFO("ops without executor semantics: " << missing);
  CHECK(missing.empty());
}

TEST_CASE("every executor table entry is a registered op") {
  for (size_t id = 0; id < pypto::ops::kOpCount; ++id) {
    OpHandle h{static_cast<uint16_t>(id)};
    bool used = Table()[h].fn != nullptr || !Table().unsupported[id].empty();
    INFO("handle " << id << " (" << pypto::ops::kOpNames[id] << ")");
    if (used) CHECK(pypto::ops::Registry().Has(h));
  }
}

TEST_CASE("the collective families run as collectives, returning a declared operand") {
  for (const OpDef* op : pypto::ops::Registry().All()) {
    INFO(op->name);
    bool collective = Table()[op->handle].kind == OpKind::kCollective;
    CHECK(collective == IsCollectiveFamily(*op));
    if (collective) {
      CHECK(op->returned_arg >= 0);
      CHECK(static_cast<size_t>(op->returned_arg) < op->min_args);
    }
  }
}

TEST_CASE("every element-wise op has an element kernel") {
  for (const OpDef* op : pypto::ops::Registry().All()) {
    if (op->family != OpFamily::kElementwise && op->family != OpFamily::kElementwiseScalar)
      continue;
    INFO(op->name);
    // A tensor form runs the kernel of its tile twin; a tile op its own.
    OpHandle tile = op->tile_twin.valid() ? op->tile_twin : op->handle;
    CHECK(pypto::sim::ElementwiseKernel(tile) != nullptr);
    CHECK(Table()[op->handle].fn != nullptr);
    // A binary member and its scalar twin run the same kernel.
    if (op->scalar_twin.valid()) {
      OpHandle s = pypto::ops::Get(op->scalar_twin).tile_twin.valid()
                       ? pypto::ops::Get(op->scalar_twin).tile_twin
                       : op->scalar_twin;
      CHECK(pypto::sim::ElementwiseKernel(s) == pypto::sim::ElementwiseKernel(tile));
    }
  }
}
