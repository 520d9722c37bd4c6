// Core affinity of a call (see include/pypto/ops/affinity.h).
#include "pypto/ops/affinity.h"

#include "pypto/ir/casting.h"
#include "pypto/ir/op_utils.h"

namespace pypto::ir {

static std::optional<CoreAffinity> AffinityOfMem(std::optional<MemorySpace> m) {
  if (!m) return std::nullopt;
  if (IsCubeMemory(*m)) return CoreAffinity::kCube;
  if (IsVectorMemory(*m)) return CoreAffinity::kVector;
  return std::nullopt;
}

CoreAffinity ClassifyCallAffinity(const Call* call) {
  if (call == nullptr || call->op == nullptr) return CoreAffinity::kShared;
  if (call->op->name == "tile.move" && !call->args.empty()) {
    auto from = MemOf(call->args[0]->type), to = MemOf(call->type);
    if (from && to &&
        ((IsCubeMemory(*from) && IsVectorMemory(*to)) ||
         (IsVectorMemory(*from) && IsCubeMemory(*to))))
      return CoreAffinity::kMixed;
  }
  if (call->op->affinity != CoreAffinity::kDerived) return call->op->affinity;
  if (auto a = AffinityOfMem(MemOf(call->type))) return *a;
  for (const Expr* arg : call->args) {
    if (!Isa<TileType>(arg->type)) continue;
    if (auto a = AffinityOfMem(MemOf(arg->type))) return *a;
    break;
  }
  return CoreAffinity::kShared;
}

}  // namespace pypto::ir
