// The traits and deducer pieces a collective shares with its HOST builtin
// (see collective_traits.h).
#include "collective_traits.h"

#include <fmt/format.h>

#include "dist_common.h"
#include "pypto/ops/ops.h"

namespace pypto::ir::dist {

void DeclareCollectiveTraits(OpBuilder& b, OpHandle collective) {
  constexpr ArgEffect kRW = ArgEffect::kReadWrite, kW = ArgEffect::kWrite;
  if (collective == ops::kPldBarrier) {
    b.ReturnsArg(0).Effect(0, kRW);  // the signal
  } else if (collective == ops::kPldAllreduce || collective == ops::kPldBroadcast ||
             collective == ops::kPldReduceScatter) {
    // (target, signal): the window is updated in place.
    b.ReturnsArg(0).Effect(0, kRW).Effect(1, kRW);
  } else if (collective == ops::kPldAllgather || collective == ops::kPldAllToAll) {
    // (input, target, signal): the gather-style ops only write their target.
    b.ReturnsArg(1).Effect(1, kW).Effect(2, kRW);
    // allgather in place: the pre-staged [NR, SIZE] window is input and target
    // (rank r reads only its own row r and writes only row r of its peers).
    if (collective == ops::kPldAllgather) b.InPlaceWhenSame(0, 1);
  } else if (collective == ops::kPldAllToAllV) {
    // (input, target, signal, send_counts, recv_counts).
    b.ReturnsArg(1).Effect(1, kW).Effect(2, kRW).Effect(4, kW);
  }
}

bool CheckCoreNumPositive(DeduceContext& dc, int64_t core_num) {
  if (core_num > 0) return true;
  dc.KwargError("core_num", fmt::format("is {}; core_num must be a positive integer", core_num));
  return false;
}

const Type* DeduceSignalBarrier(DeduceContext& dc) {
  const DistributedTensorType* sig = ExpectSignal(dc, 0);
  if (!sig || !ExpectNrSignalShape(dc, 0, sig, true)) return nullptr;
  return dc.args[dc.op.returned_arg]->type;
}

bool CheckSameDtype(DeduceContext& dc, int input, const TensorType* in, const TensorType* target) {
  if (in->dtype == target->dtype) return true;
  ArgError(dc, input, {},
           fmt::format("has element type {} but 'target' has {}", DTypeStr(in->dtype),
                       DTypeStr(target->dtype)));
  return false;
}

}  // namespace pypto::ir::dist
