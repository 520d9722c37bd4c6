// Private to src/ops: the tile op registrations are split over three files
// (memory/data-movement ops, element-wise compute ops, shape-changing ops); RegisterTileOps in
// tile_ops.cc is the one public entry point and calls all three.
#pragma once

#include "pypto/ir/op_registry.h"

namespace pypto::ir {

void RegisterTileMemoryOps(OpRegistry& r);       // tile_memory_ops.cc
void RegisterTileElementwiseOps(OpRegistry& r);  // tile_ops.cc
void RegisterTileShapeOps(OpRegistry& r);        // tile_shape_ops.cc

// tile.create's deducer (shape tuple, dtype=, target_memory=), which tile.full
// (cube_ops.cc) shares.
const Type* DeduceCreate(DeduceContext& dc);  // tile_memory_ops.cc

}  // namespace pypto::ir
