// The tile.move data paths (see include/pypto/ops/move_paths.h): one table,
// in the order its header lists it.
#include "pypto/ops/move_paths.h"

#include <fmt/format.h>

#include <iterator>
#include <utility>

#include "pypto/ir/op_utils.h"

namespace pypto::ops {

using ir::MemorySpace;

namespace {

constexpr std::pair<MemorySpace, MemorySpace> kMovePaths[] = {
    {MemorySpace::kVec, MemorySpace::kVec},  {MemorySpace::kVec, MemorySpace::kMat},
    {MemorySpace::kMat, MemorySpace::kLeft}, {MemorySpace::kMat, MemorySpace::kRight},
    {MemorySpace::kMat, MemorySpace::kBias}, {MemorySpace::kAcc, MemorySpace::kMat},
    {MemorySpace::kAcc, MemorySpace::kVec},
};

// What would get the data of a `from` tile into `to` when no move does.
std::string MoveFix(MemorySpace from, MemorySpace to) {
  for (const auto& [f, via] : kMovePaths)
    if (f == from && via != from && IsMovePath(via, to))
      return fmt::format("move it to {} first, then to {}", ir::MemStr(via), ir::MemStr(to));
  if (from == MemorySpace::kLeft || from == MemorySpace::kRight || from == MemorySpace::kBias)
    return fmt::format(
        "nothing moves out of {} (only the cube unit reads it); move the "
        "pl.Mem.Mat tile it came from instead",
        ir::MemStr(from));
  if (to == MemorySpace::kAcc) return "only pl.matmul / pl.matmul_acc write pl.Mem.Acc";
  if (to == MemorySpace::kVec || to == MemorySpace::kMat)
    return fmt::format("load the data from GM with pl.load(..., target_memory={})", ir::MemStr(to));
  return fmt::format("move a pl.Mem.Mat tile to {}", ir::MemStr(to));
}

}  // namespace

bool IsMovePath(MemorySpace from, MemorySpace to) {
  for (const auto& [f, t] : kMovePaths)
    if (f == from && t == to) return true;
  return false;
}

std::optional<MemorySpace> MoveSourceFor(MemorySpace to) {
  for (const auto& [f, t] : kMovePaths)
    if (t == to) return f;
  return std::nullopt;
}

std::string NoMovePathMessage(MemorySpace from, MemorySpace to) {
  std::string paths;  // grouped by source: "pl.Mem.Vec -> pl.Mem.Vec | pl.Mem.Mat, ..."
  for (size_t i = 0; i < std::size(kMovePaths); ++i) {
    bool first = i == 0 || kMovePaths[i - 1].first != kMovePaths[i].first;
    if (first) paths += fmt::format("{}{} -> ", i ? ", " : "", ir::MemStr(kMovePaths[i].first));
    paths += fmt::format("{}{}", first ? "" : " | ", ir::MemStr(kMovePaths[i].second));
  }
  return fmt::format("cannot move a {} tile to {}: the on-chip data paths are {}; {}",
                     ir::MemStr(from), ir::MemStr(to), paths, MoveFix(from, to));
}

}  // namespace pypto::ops
