// Which calls ConvertTensorToTileOps rewrites (see tile_conversion.h).
#include "tile_conversion.h"

#include "pypto/ir/op_registry.h"

namespace pypto::passes {

// An op converts when its registration declares the tile op it becomes
// (OpDef::tile_twin: the element-wise family, tensor.cast, tensor.assemble ->
// tile.store, pld.tensor.put / get / remote_store).
bool NeedsTileConversion(const ir::Call& c) { return c.op && c.op->tile_twin.valid(); }

}  // namespace pypto::passes
