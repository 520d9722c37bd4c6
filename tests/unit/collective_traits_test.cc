// The traits a pld.tensor.* collective shares with its HOST builtin(s), declared
// once (src/ops/distributed/collective_traits.cc): returned operand, argument
// effects and the in-place rule agree; mode="ring" picks the ring builtin; the
// reduction combiner table (pypto/ops/reduce_combiner.h).
#include <catch2/catch.hpp>

#include "pypto/ir/context.h"
#include "pypto/ops/ops.h"
#include "pypto/ops/reduce_combiner.h"

using namespace pypto;
using ir::ArgEffect;
using ir::OpFamily;

TEST_CASE("a collective and its builtins declare the same traits", "[ops]") {
  int collectives = 0;
  for (const ir::OpDef* d : ops::Registry().All()) {
    if (d->family != OpFamily::kCollective) continue;
    ++collectives;
    INFO(d->name);
    for (ir::OpHandle bh : {d->builtin_twin, d->builtin_variant}) {
      if (!bh.valid()) continue;
      const ir::OpDef& b = ops::Get(bh);
      INFO(b.name);
      CHECK(b.collective_twin == d->handle);
      CHECK(b.returned_arg == d->returned_arg);
      CHECK(b.in_place_args[0] == d->in_place_args[0]);
      CHECK(b.in_place_args[1] == d->in_place_args[1]);
      REQUIRE(b.args.size() == d->args.size());
      for (size_t i = 0; i < d->args.size(); ++i)
        CHECK(b.EffectOf(static_cast<int>(i), {}) == d->EffectOf(static_cast<int>(i), {}));
    }
  }
  CHECK(collectives == 7);
  CHECK(ops::Get(ops::kPldAllgather).in_place_args[1] == 1);
  CHECK(ops::Get(ops::kPldAllToAll).in_place_args[0] == -1);
  CHECK(ops::Get(ops::kPldAllgather).EffectOf(1, {}) == ArgEffect::kWrite);
}

TEST_CASE("allreduce mode=\"ring\" dispatches the ring builtin", "[ops]") {
  const ir::OpDef& ar = ops::Get(ops::kPldAllreduce);
  CHECK(ar.BuiltinFor({}) == ops::kBuiltinAllreduce);
  CHECK(ar.BuiltinFor({{"mode", ir::Attr::Str("mesh")}}) == ops::kBuiltinAllreduce);
  CHECK(ar.BuiltinFor({{"mode", ir::Attr::Str("ring")}}) == ops::kBuiltinAllreduceRing);
  CHECK(ops::Get(ops::kPldBarrier).BuiltinFor({{"mode", ir::Attr::Str("ring")}}) ==
        ops::kBuiltinBarrier);
}

TEST_CASE("reductions combine tiles with one element-wise op each", "[ops]") {
  CHECK(ops::TileCombinerOf(ir::ReduceOp::kSum) == ops::kTileAdd);
  CHECK(ops::TileCombinerOf(ir::ReduceOp::kMax) == ops::kTileMaximum);
  CHECK(ops::TileCombinerOf(ir::ReduceOp::kMin) == ops::kTileMinimum);
  CHECK(ops::TileCombinerOf(ir::ReduceOp::kProd) == ops::kTileMul);
}

TEST_CASE("tensor ops that convert inside kernels declare their tile twin", "[ops]") {
  CHECK(ops::Get(ops::kTensorCast).tile_twin == ops::kTileCast);
  CHECK(ops::Get(ops::kTensorAssemble).tile_twin == ops::kTileStore);
  CHECK_FALSE(ops::Get(ops::kTensorWrite).tile_twin.valid());
}
