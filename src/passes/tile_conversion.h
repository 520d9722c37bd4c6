// Private: which calls ConvertTensorToTileOps rewrites inside kernels. Shared by
// the pass and by the IncoreTileOps property detector so both agree.
#pragma once

#include "pypto/ir/expr.h"

namespace pypto::passes {

// True for calls the pass converts: ops whose registration declares a tile
// twin (element-wise compute, tensor.cast, tensor.assemble, pld.tensor.put /
// get / remote_store).
bool NeedsTileConversion(const ir::Call& c);

}  // namespace pypto::passes
