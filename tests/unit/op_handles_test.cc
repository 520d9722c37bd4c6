// Op handles (pypto/ops/ops.h) against the registry: every handle of
// op_list.def is registered under its own name, the registry holds nothing
// else, and the twins the registrations declare are consistent both ways.
#include <catch2/catch.hpp>

#include "pypto/ops/ops.h"

using namespace pypto;
using ir::OpFamily;
using ir::OpHandle;

TEST_CASE("every op_list.def handle is registered under its name", "[ops]") {
  const ir::OpRegistry& r = ops::Registry();
  REQUIRE(r.size() == ops::kOpCount);
  for (size_t i = 0; i < ops::kOpCount; ++i) {
    OpHandle h{static_cast<uint16_t>(i)};
    INFO(ops::kOpNames[i]);
    REQUIRE(r.Has(h));
    CHECK(r.Get(h).handle == h);
    CHECK(r.Get(h).name == ops::kOpNames[i]);
    CHECK(r.Find(ops::kOpNames[i]) == &r.Get(h));
  }
  CHECK_FALSE(r.Has(OpHandle{}));
  CHECK(ops::Get(ops::kTileStore).name == "tile.store");
  CHECK(ops::Get(ops::kPldNotify).name == "pld.system.notify");
}

TEST_CASE("element-wise twins are declared once and linked both ways", "[ops]") {
  const ir::OpDef& tensor_add = ops::Get(ops::kTensorAdd);
  CHECK(tensor_add.family == OpFamily::kElementwise);
  CHECK(tensor_add.tile_twin == ops::kTileAdd);
  CHECK(tensor_add.scalar_twin == ops::kTensorAdds);
  CHECK(ops::Get(ops::kTileAdd).tensor_twin == ops::kTensorAdd);
  CHECK(ops::Get(ops::kTileAdd).scalar_twin == ops::kTileAdds);
  CHECK(ops::Get(ops::kTileAdds).binary_twin == ops::kTileAdd);
  CHECK(ops::Get(ops::kTileAdds).family == OpFamily::kElementwiseScalar);
  CHECK_FALSE(ops::Get(ops::kTileMaximum).scalar_twin.valid());
  for (const ir::OpDef* d : ops::Registry().All()) {
    INFO(d->name);
    if (d->tile_twin.valid()) CHECK(ops::Get(d->tile_twin).tensor_twin == d->handle);
    if (d->scalar_twin.valid()) CHECK(ops::Get(d->scalar_twin).binary_twin == d->handle);
    if (d->family == OpFamily::kElementwise || d->family == OpFamily::kElementwiseScalar)
      CHECK((d->tile_twin.valid() || d->tensor_twin.valid()));
  }
}

TEST_CASE("collectives declare their returned argument and HOST builtin", "[ops]") {
  for (const ir::OpDef* d : ops::Registry().All()) {
    INFO(d->name);
    if (d->family == OpFamily::kCollective) {
      CHECK(d->returned_arg >= 0);
      REQUIRE(d->builtin_twin.valid());
      const ir::OpDef& b = ops::Get(d->builtin_twin);
      CHECK(b.family == OpFamily::kBuiltinCollective);
      CHECK(b.collective_twin == d->handle);
      CHECK(b.returned_arg == d->returned_arg);
    }
  }
  CHECK(ops::Get(ops::kPldAllgather).returned_arg == 1);
  CHECK(ops::Get(ops::kPldBarrier).returned_arg == 0);
}
