// The internal builtin.tensor.* collectives: per-chip dispatch targets that
// LowerHostTensorCollectives emits for host-orchestrator pld.tensor.* calls
// (one dispatch per device; no kernel is emitted for them: pypto-run executes
// each as the whole-operation C++ oracle of src/sim/semantics/collectives.cc,
// the same one as the pld.tensor.* form, on the dispatch's device).
// internal_only: user source cannot name them; they print as
// `pl.builtin.tensor.<x>(...)`.
//
// They re-check the per-chip dispatch contract: INT32 window signals of the
// layout a per-chip collective indexes (allreduce: [ws] or [ws, stride >=
// core_num]; ring: [2 * (NR - 1) + 1, NR] with the extra return-barrier row;
// the others [NR] or [NR, 1]), a `dtype` kwarg equal to the data's element type
// (the dispatch is typed per dtype), and window-bound operands everywhere the
// HOST dispatch passes a window (all_to_all_v's input and send_counts too).
// Returned operand, effects and the in-place rule are the pld.tensor.* forms'
// (distributed/collective_traits.h).
#include <fmt/format.h>

#include "distributed/collective_traits.h"
#include "distributed/dist_common.h"
#include "pypto/ir/context.h"
#include "register_op.h"

namespace pypto::ir {

using namespace dist;

// dtype= kwarg must equal the data operand's element type.
static bool CheckDtypeKwarg(DeduceContext& dc, int idx, const TensorType* t) {
  const Attr* a = dc.Kwarg("dtype");
  if (a->dtype == t->dtype) return true;
  dc.KwargError("dtype", fmt::format("is {} but argument '{}' has element type {}; they must match",
                                     DTypeStr(a->dtype), ArgName(dc, idx), DTypeStr(t->dtype)));
  return false;
}

static bool CheckReduceDtype(DeduceContext& dc, int idx, const TensorType* t) {
  if (t->dtype == DataType::kFP16 || t->dtype == DataType::kFP32) return true;
  ArgError(dc, idx, {},
           fmt::format("has element type {}; the allreduce kernels support pl.FP16 and pl.FP32",
                       DTypeStr(t->dtype)));
  return false;
}

static const Type* DeduceBuiltinAllreduce(DeduceContext& dc, bool ring) {
  const DistributedTensorType* src = ExpectDist(dc, 0);
  const DistributedTensorType* sig = ExpectSignal(dc, 1);
  if (!src || !sig || !CheckReduceDtype(dc, 0, src) || !CheckDtypeKwarg(dc, 0, src)) return nullptr;
  if (!EnumKw(dc, "op", EnumKind::kReduceOp, 0)) return nullptr;
  if (ring) {
    if (!CheckRingSignal(dc, 1, sig, false, true)) return nullptr;
  } else {
    int64_t core_num = IntKw(dc, "core_num", 1);
    if (!CheckCoreNumPositive(dc, core_num)) return nullptr;
    if (!CheckMeshSignal(dc, 1, sig, core_num)) return nullptr;
  }
  return dc.args[dc.op.returned_arg]->type;
}

static const Type* DeduceBuiltinBroadcast(DeduceContext& dc) {
  const DistributedTensorType* target = ExpectDist(dc, 0);
  const DistributedTensorType* sig = ExpectSignal(dc, 1);
  if (!target || !sig || !ExpectNrSignalShape(dc, 1, sig, true) || !CheckDtypeKwarg(dc, 0, target))
    return nullptr;
  int64_t root = IntKw(dc, "root", 0);
  auto nr = StaticInt(sig->shape[0]);
  if (root < 0 || (nr && root >= *nr))
    return dc.KwargError("root", fmt::format("is {}; the root rank must lie in [0, NR)", root));
  return dc.args[dc.op.returned_arg]->type;
}

static const Type* DeduceBuiltinReduceScatter(DeduceContext& dc) {
  const DistributedTensorType* target = ExpectDist(dc, 0);
  const DistributedTensorType* sig = ExpectSignal(dc, 1);
  if (!target || !sig || !ExpectRank(dc, 0, target, 2, "[NR, SIZE]") ||
      !ExpectNrSignalShape(dc, 1, sig, true) || !CheckDtypeKwarg(dc, 0, target))
    return nullptr;
  // Any pld.ReduceOp (Sum, Max, Min, Prod), as upstream.
  if (!EnumKw(dc, "op", EnumKind::kReduceOp, 0)) return nullptr;
  return dc.args[dc.op.returned_arg]->type;
}

static const Type* DeduceBuiltinGatherLike(DeduceContext& dc) {
  const TensorType* input = ExpectTensorLike(dc, 0);
  const DistributedTensorType* target = ExpectDist(dc, 1);
  const DistributedTensorType* sig = ExpectSignal(dc, 2);
  // An in-place allgather (pre-staged [NR, SIZE] window) passes target twice.
  bool in_place = dc.op.InPlace(dc.args);
  if (!input || !target || !sig || !ExpectRank(dc, 1, target, 2, "[NR, SIZE]") ||
      !ExpectNrSignalShape(dc, 2, sig, true) || (!in_place && !ExpectDistinct(dc, 0, 1)) ||
      !CheckDtypeKwarg(dc, 1, target))
    return nullptr;
  if (!CheckSameDtype(dc, 0, input, target)) return nullptr;
  return dc.args[dc.op.returned_arg]->type;
}

static const Type* DeduceBuiltinAllToAllV(DeduceContext& dc) {
  // The HOST dispatch passes only window-bound (or tile) args: all five are windows.
  const DistributedTensorType* input = ExpectDist(dc, 0);
  const DistributedTensorType* target = ExpectDist(dc, 1);
  const DistributedTensorType* sig = ExpectSignal(dc, 2);
  const DistributedTensorType* send = ExpectDist(dc, 3);
  const DistributedTensorType* recv = ExpectDist(dc, 4);
  if (!input || !target || !sig || !send || !recv) return nullptr;
  for (int a = 0; a < 5; ++a)
    for (int b = a + 1; b < 5; ++b)
      if (!ExpectDistinct(dc, a, b)) return nullptr;
  if (!ExpectRank(dc, 0, input, 2, "[NR * MAX_RECV, SIZE]") ||
      !ExpectRank(dc, 1, target, 2, "[NR * MAX_RECV, SIZE]") || !CheckPackedLayout(dc, 0, input) ||
      !CheckPackedLayout(dc, 1, target) || !ExpectNrSignalShape(dc, 2, sig, false) ||
      !CheckCountsShape(dc, 3, send, true) || !CheckCountsShape(dc, 4, recv, false) ||
      !CheckDtypeKwarg(dc, 1, target))
    return nullptr;
  if (!CheckSameDtype(dc, 0, input, target)) return nullptr;
  return dc.args[dc.op.returned_arg]->type;
}

void RegisterBuiltinOps(OpRegistry& r) {
  // Returned operand, effects and in-place rule: those of the collective each
  // builtin dispatches (dist::DeclareCollectiveTraits).
  auto reg = [&](OpHandle h, OpHandle collective) {
    OpBuilder b = ops::RegisterOp(r, h);
    DeclareCollectiveTraits(b, collective);
    return b;
  };
  reg(ops::kBuiltinAllreduce, ops::kPldAllreduce)
      .Family(OpFamily::kBuiltinCollective)
      .Doc("Host chip-dispatch of a mesh pld.tensor.allreduce (core_num AIV blocks per rank).")
      .Category("DistributedOp")
      .Arg("src", "window-bound FP16/FP32 DistributedTensor (InOut)")
      .Arg("signal", "INT32 [ws] or [ws, stride >= core_num]")
      .EnumKwarg("op", EnumKind::kReduceOp, "pld.ReduceOp", 0)
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match src)")
      .Kwarg("core_num", KwargType::kInt, "AIV blocks per rank", Attr::Int(1))
      .Deduce([](DeduceContext& dc) { return DeduceBuiltinAllreduce(dc, false); })
      .InternalOnly();

  reg(ops::kBuiltinAllreduceRing, ops::kPldAllreduce)
      .Family(OpFamily::kBuiltinCollective)
      .Doc(
          "Host chip-dispatch of a ring pld.tensor.allreduce (TPUT push reduce-scatter + "
          "allgather).")
      .Category("DistributedOp")
      .Arg("src", "window-bound FP16/FP32 DistributedTensor (InOut)")
      .Arg("signal", "INT32 [2 * (NR - 1) + 1, NR]")
      .EnumKwarg("op", EnumKind::kReduceOp, "pld.ReduceOp", 0)
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match src)")
      .Deduce([](DeduceContext& dc) { return DeduceBuiltinAllreduce(dc, true); })
      .InternalOnly();

  reg(ops::kBuiltinBarrier, ops::kPldBarrier)
      .Family(OpFamily::kBuiltinCollective)
      .Doc("Host chip-dispatch of pld.tensor.barrier.")
      .Category("DistributedOp")
      .Arg("signal", "INT32 [NR] / [NR, 1]")
      .Deduce(DeduceSignalBarrier)
      .InternalOnly();

  reg(ops::kBuiltinBroadcast, ops::kPldBroadcast)
      .Family(OpFamily::kBuiltinCollective)
      .Doc("Host chip-dispatch of pld.tensor.broadcast.")
      .Category("DistributedOp")
      .Arg("target", "window-bound DistributedTensor (InOut)")
      .Arg("signal", "INT32 [NR] / [NR, 1]")
      .RequiredKwarg("root", KwargType::kInt, "source rank")
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match target)")
      .Deduce(DeduceBuiltinBroadcast)
      .InternalOnly();

  reg(ops::kBuiltinReduceScatter, ops::kPldReduceScatter)
      .Family(OpFamily::kBuiltinCollective)
      .Doc("Host chip-dispatch of pld.tensor.reduce_scatter.")
      .Category("DistributedOp")
      .Arg("target", "window-bound [NR, SIZE] DistributedTensor (InOut)")
      .Arg("signal", "INT32 [NR] / [NR, 1]")
      .EnumKwarg("op", EnumKind::kReduceOp, "pld.ReduceOp", 0)
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match target)")
      .Deduce(DeduceBuiltinReduceScatter)
      .InternalOnly();

  for (OpHandle h : {ops::kBuiltinAllgather, ops::kBuiltinAllToAll}) {
    reg(h, h == ops::kBuiltinAllgather ? ops::kPldAllgather : ops::kPldAllToAll)
        .Family(OpFamily::kBuiltinCollective)
        .Doc(fmt::format("Host chip-dispatch of {}.", h == ops::kBuiltinAllgather
                                                          ? "pld.tensor.allgather"
                                                          : "pld.tensor.all_to_all"))
        .Category("DistributedOp")
        .Arg("input", "local data (Tensor or DistributedTensor)")
        .Arg("target", "window-bound [NR, SIZE] DistributedTensor (result)")
        .Arg("signal", "INT32 [NR] / [NR, 1]")
        .RequiredKwarg("dtype", KwargType::kDType, "element type (must match target)")
        .Deduce(DeduceBuiltinGatherLike)
        .InternalOnly();
  }

  reg(ops::kBuiltinAllToAllV, ops::kPldAllToAllV)
      .Family(OpFamily::kBuiltinCollective)
      .Doc(
          "Host chip-dispatch of pld.tensor.all_to_all_v (in-kernel TPUT, MAX_RECV derived "
          "from the runtime rank count).")
      .Category("DistributedOp")
      .Arg("input", "window-bound packed [NR * MAX_RECV, SIZE]")
      .Arg("target", "window-bound packed [NR * MAX_RECV, SIZE] (result)")
      .Arg("signal", "INT32 [NR, 1]")
      .Arg("send_counts", "window-bound INT32 [NR] / [NR, 1]")
      .Arg("recv_counts", "window-bound INT32 [NR, 1]")
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match target)")
      .Deduce(DeduceBuiltinAllToAllV)
      .InternalOnly();
}

}  // namespace pypto::ir
