// The on-chip data paths tile.move may take (pto-isa's TMOV and ptoas' tmov
// verifier are the authority): Vec -> Vec (a copy) | Mat (the vector core
// handing data to the cube core), Mat -> Left | Right | Bias (feeding the cube
// unit), Acc -> Mat | Vec (draining the accumulator). Nothing moves out of Left,
// Right or Bias (only the cube unit reads them), and only matmul writes Acc.
// Read by tile.move's deducer and by infer-tile-memory-space (the space a
// spaceless tile needs to be moved where it goes).
#pragma once

#include <optional>
#include <string>

#include "pypto/ir/enums.h"

namespace pypto::ops {

bool IsMovePath(ir::MemorySpace from, ir::MemorySpace to);
// The first space (in the order above) with a path to `to`, if any.
std::optional<ir::MemorySpace> MoveSourceFor(ir::MemorySpace to);
// Why `from -> to` is not a path: the paths, and what would get the data there.
std::string NoMovePathMessage(ir::MemorySpace from, ir::MemorySpace to);

}  // namespace pypto::ops
