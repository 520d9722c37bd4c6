// Core affinity of a call (see include/pypto/ops/affinity.h), in the seed's
// precedence: declared affinity -> tile.move crossing the cores -> the result
// tile's memory space (ops with a memory spec) -> the first tile argument's
// space -> SHARED; then core_placement="aiv" pins a SHARED / VECTOR call to the
// vector lane.
#include "pypto/ops/affinity.h"

#include "pypto/ir/casting.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/ops.h"

namespace pypto::ir {

namespace {

std::optional<CoreAffinity> AffinityOfMem(std::optional<MemorySpace> m) {
  if (!m) return std::nullopt;
  if (IsCubeMemory(*m)) return CoreAffinity::kCube;
  if (IsVectorMemory(*m)) return CoreAffinity::kVector;
  return std::nullopt;
}

CoreAffinity Unplaced(const Call* call) {
  const OpDef& op = *call->op;
  if (op.affinity != CoreAffinity::kDerived) return op.affinity;
  if (op.Is(ops::kTileMove) && !call->args.empty()) {
    auto from = MemOf(call->args[0]->type), to = MemOf(call->type);
    if (from && to && AffinityOfMem(from) && AffinityOfMem(to) &&
        AffinityOfMem(from) != AffinityOfMem(to))
      return CoreAffinity::kMixed;
  }
  if (op.memory_spec)
    if (auto a = AffinityOfMem(MemOf(call->type))) return *a;
  for (const Expr* arg : call->args) {
    if (!Isa<TileType>(arg->type)) continue;
    if (auto a = AffinityOfMem(MemOf(arg->type))) return *a;
    break;
  }
  return CoreAffinity::kShared;
}

}  // namespace

bool IsAivPlaced(const Call* call) {
  const Attr* p = call ? FindAttr(call->attrs, kCorePlacementAttr) : nullptr;
  return p && p->kind == Attr::Kind::kString && p->s == "aiv";
}

CoreAffinity ClassifyCallAffinity(const Call* call) {
  if (call == nullptr || call->op == nullptr) return CoreAffinity::kShared;
  CoreAffinity a = Unplaced(call);
  if (IsAivPlaced(call) && (a == CoreAffinity::kShared || a == CoreAffinity::kVector))
    return CoreAffinity::kVector;
  return a;
}

}  // namespace pypto::ir
