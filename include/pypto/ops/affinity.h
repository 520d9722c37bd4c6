// Which core (cube, vector, either, both) one call runs on — the seed's "Core
// placement in a mixed kernel" table. It knows one op's rule (tile.move between
// cube and vector spaces is MIXED), so it lives in the ops layer; the
// memory-space facts it builds on (IsCubeMemory, MemOf) are the IR layer's
// (pypto/ir/op_utils.h).
#pragma once

#include "pypto/ir/expr.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

// The call attr lower-auto-vector-split stamps on the no-duplicate calls of a
// pl.split_aiv region ("aiv": run on the vector lane only); expand-mixed-kernel
// reads it through ClassifyCallAffinity.
inline constexpr const char* kCorePlacementAttr = "core_placement";

// Whether the call carries core_placement="aiv".
bool IsAivPlaced(const Call* call);

// Affinity of one call, first rule that applies:
//  1. the op's declared (non-derived) affinity (pld put/get: VECTOR, matmul: CUBE);
//  2. tile.move crossing between cube and vector spaces: MIXED;
//  3. the result tile's memory space, for ops with a memory spec (cube space ->
//     CUBE, Vec -> VECTOR; pld.tile.remote_load has none);
//  4. the first tile argument's space (pld.tile.remote_store: VECTOR from its src);
//  5. SHARED (pld.system.notify / wait, remote_load, function calls).
// core_placement="aiv" then makes a SHARED or VECTOR call VECTOR (a CUBE or MIXED
// one keeps its affinity).
CoreAffinity ClassifyCallAffinity(const Call* call);

}  // namespace pypto::ir
