// Private to src/ops: the tile op registrations are split over two files
// (memory/data-movement ops and element-wise compute ops); RegisterTileOps in
// tile_ops.cc is the one public entry point and calls both.
#pragma once

#include "pypto/ir/op_registry.h"

namespace pypto::ir {

void RegisterTileMemoryOps(OpRegistry& r);      // tile_memory_ops.cc
void RegisterTileElementwiseOps(OpRegistry& r); // tile_ops.cc

}  // namespace pypto::ir
