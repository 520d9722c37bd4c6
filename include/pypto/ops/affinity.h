// Which core (cube, vector, either, both) one call runs on. It knows one op's
// rule (tile.move between cube and vector spaces is MIXED), so it lives in the
// ops layer; the memory-space facts it builds on (IsCubeMemory, MemOf) are the
// IR layer's (pypto/ir/op_utils.h).
#pragma once

#include "pypto/ir/expr.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

// Affinity of one call: a declared (non-derived) OpDef affinity wins, except that
// tile.move crossing between cube and vector spaces is kMixed; otherwise derived
// from the result tile's memory space (cube space -> kCube, Vec -> kVector), then
// from the first tile argument's space, else kShared. Function calls: kShared.
CoreAffinity ClassifyCallAffinity(const Call* call);

}  // namespace pypto::ir
