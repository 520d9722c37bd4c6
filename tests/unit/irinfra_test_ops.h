// A private op registry for the IR-infrastructure unit tests (builder, mutator,
// structural equality, verifier), so those tests do not depend on the real op
// set: a tile add with a real deducer, a host-only and a kernel-only op, and an
// op with an int kwarg. Op names mimic real ones where a message quotes them;
// handles are private to this registry.
#pragma once

#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir::testing {

inline const OpRegistry& TestOps() {
  static const OpRegistry* reg = [] {
    auto* r = new OpRegistry();
    r->Register(OpHandle{0}, "test.tadd")
        .Arg("lhs")
        .Arg("rhs")
        .Deduce([](DeduceContext& dc) -> const Type* {
          const auto* a = As<TileType>(dc.args[0]->type);
          const auto* b = As<TileType>(dc.args[1]->type);
          if (!a) return dc.ErrorAt(0, "must be a pl.Tile");
          if (!b) return dc.ErrorAt(1, "must be a pl.Tile");
          if (a->dtype != b->dtype) return dc.ErrorAt(1, "must have the dtype of 'lhs'");
          return dc.ctx.Make<TileType>(a->shape, a->dtype, a->memory_space);
        });
    r->Register(OpHandle{1}, "pld.system.world_size")
        .Placement(OpPlacement::kHostOnly)
        .Deduce([](DeduceContext& dc) -> const Type* { return dc.ctx.Scalar(DataType::kIndex); });
    r->Register(OpHandle{2}, "test.kernel_only")
        .Arg("x")
        .Placement(OpPlacement::kKernelOnly)
        .Deduce([](DeduceContext& dc) -> const Type* { return dc.args[0]->type; });
    r->Register(OpHandle{3}, "test.scale")
        .Arg("x")
        .Kwarg("factor", KwargType::kInt)
        .Deduce([](DeduceContext& dc) -> const Type* { return dc.args[0]->type; });
    return r;
  }();
  return *reg;
}

}  // namespace pypto::ir::testing
