// The element-wise tile op that combines two partial results of a reduction
// (pld.ReduceOp Sum -> tile.add, Max -> tile.maximum, Min -> tile.minimum,
// Prod -> tile.mul): a fact about ops, declared once here for every lowering
// that reduces tile by tile (lower-composite-ops' allreduce / reduce_scatter).
#pragma once

#include "pypto/ir/comm.h"
#include "pypto/ops/ops.h"

namespace pypto::ops {

constexpr ir::OpHandle TileCombinerOf(ir::ReduceOp op) {
  switch (op) {
    case ir::ReduceOp::kSum:
      return kTileAdd;
    case ir::ReduceOp::kMax:
      return kTileMaximum;
    case ir::ReduceOp::kMin:
      return kTileMinimum;
    case ir::ReduceOp::kProd:
      break;
  }
  return kTileMul;
}

}  // namespace pypto::ops
