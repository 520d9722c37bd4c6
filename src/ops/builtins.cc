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
// Effects mirror the pld.tensor.* forms.
#include <fmt/format.h>

#include "distributed/dist_common.h"
#include "pypto/ir/context.h"

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
    if (core_num <= 0)
      return dc.KwargError("core_num",
                           fmt::format("is {}; core_num must be a positive integer", core_num));
    if (!CheckMeshSignal(dc, 1, sig, core_num)) return nullptr;
  }
  return dc.args[0]->type;
}

static const Type* DeduceBuiltinBarrier(DeduceContext& dc) {
  const DistributedTensorType* sig = ExpectSignal(dc, 0);
  if (!sig || !ExpectNrSignalShape(dc, 0, sig, true)) return nullptr;
  return dc.args[0]->type;
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
  return dc.args[0]->type;
}

static const Type* DeduceBuiltinReduceScatter(DeduceContext& dc) {
  const DistributedTensorType* target = ExpectDist(dc, 0);
  const DistributedTensorType* sig = ExpectSignal(dc, 1);
  if (!target || !sig || !ExpectRank(dc, 0, target, 2, "[NR, SIZE]") ||
      !ExpectNrSignalShape(dc, 1, sig, true) || !CheckDtypeKwarg(dc, 0, target))
    return nullptr;
  // Any pld.ReduceOp (Sum, Max, Min, Prod), as upstream.
  if (!EnumKw(dc, "op", EnumKind::kReduceOp, 0)) return nullptr;
  return dc.args[0]->type;
}

static const Type* DeduceBuiltinGatherLike(DeduceContext& dc) {
  const TensorType* input = ExpectTensorLike(dc, 0);
  const DistributedTensorType* target = ExpectDist(dc, 1);
  const DistributedTensorType* sig = ExpectSignal(dc, 2);
  // An in-place allgather (pre-staged [NR, SIZE] window) passes target twice.
  bool in_place = dc.op.name == "builtin.tensor.allgather" && dc.args[0] == dc.args[1];
  if (!input || !target || !sig || !ExpectRank(dc, 1, target, 2, "[NR, SIZE]") ||
      !ExpectNrSignalShape(dc, 2, sig, true) || (!in_place && !ExpectDistinct(dc, 0, 1)) ||
      !CheckDtypeKwarg(dc, 1, target))
    return nullptr;
  if (input->dtype != target->dtype)
    return ArgError(dc, 0, {},
                    fmt::format("has element type {} but 'target' has {}", DTypeStr(input->dtype),
                                DTypeStr(target->dtype)));
  return dc.args[1]->type;
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
  if (input->dtype != target->dtype)
    return ArgError(dc, 0, {},
                    fmt::format("has element type {} but 'target' has {}", DTypeStr(input->dtype),
                                DTypeStr(target->dtype)));
  return dc.args[1]->type;
}

void RegisterBuiltinOps(OpRegistry& r) {
  r.Register("builtin.tensor.allreduce")
      .Doc("Host chip-dispatch of a mesh pld.tensor.allreduce (core_num AIV blocks per rank).")
      .Category("DistributedOp")
      .Arg("src", "window-bound FP16/FP32 DistributedTensor (InOut)")
      .Arg("signal", "INT32 [ws] or [ws, stride >= core_num]")
      .EnumKwarg("op", EnumKind::kReduceOp, "pld.ReduceOp", 0)
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match src)")
      .Kwarg("core_num", KwargType::kInt, "AIV blocks per rank", Attr::Int(1))
      .Deduce([](DeduceContext& dc) { return DeduceBuiltinAllreduce(dc, false); })
      .Effect(0, ArgEffect::kReadWrite)
      .Effect(1, ArgEffect::kReadWrite)
      .InternalOnly();

  r.Register("builtin.tensor.allreduce_ring")
      .Doc(
          "Host chip-dispatch of a ring pld.tensor.allreduce (TPUT push reduce-scatter + "
          "allgather).")
      .Category("DistributedOp")
      .Arg("src", "window-bound FP16/FP32 DistributedTensor (InOut)")
      .Arg("signal", "INT32 [2 * (NR - 1) + 1, NR]")
      .EnumKwarg("op", EnumKind::kReduceOp, "pld.ReduceOp", 0)
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match src)")
      .Deduce([](DeduceContext& dc) { return DeduceBuiltinAllreduce(dc, true); })
      .Effect(0, ArgEffect::kReadWrite)
      .Effect(1, ArgEffect::kReadWrite)
      .InternalOnly();

  r.Register("builtin.tensor.barrier")
      .Doc("Host chip-dispatch of pld.tensor.barrier.")
      .Category("DistributedOp")
      .Arg("signal", "INT32 [NR] / [NR, 1]")
      .Deduce(DeduceBuiltinBarrier)
      .Effect(0, ArgEffect::kReadWrite)
      .InternalOnly();

  r.Register("builtin.tensor.broadcast")
      .Doc("Host chip-dispatch of pld.tensor.broadcast.")
      .Category("DistributedOp")
      .Arg("target", "window-bound DistributedTensor (InOut)")
      .Arg("signal", "INT32 [NR] / [NR, 1]")
      .RequiredKwarg("root", KwargType::kInt, "source rank")
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match target)")
      .Deduce(DeduceBuiltinBroadcast)
      .Effect(0, ArgEffect::kReadWrite)
      .Effect(1, ArgEffect::kReadWrite)
      .InternalOnly();

  r.Register("builtin.tensor.reduce_scatter")
      .Doc("Host chip-dispatch of pld.tensor.reduce_scatter.")
      .Category("DistributedOp")
      .Arg("target", "window-bound [NR, SIZE] DistributedTensor (InOut)")
      .Arg("signal", "INT32 [NR] / [NR, 1]")
      .EnumKwarg("op", EnumKind::kReduceOp, "pld.ReduceOp", 0)
      .RequiredKwarg("dtype", KwargType::kDType, "element type (must match target)")
      .Deduce(DeduceBuiltinReduceScatter)
      .Effect(0, ArgEffect::kReadWrite)
      .Effect(1, ArgEffect::kReadWrite)
      .InternalOnly();

  for (const char* name : {"builtin.tensor.allgather", "builtin.tensor.all_to_all"}) {
    r.Register(name)
        .Doc(std::string("Host chip-dispatch of pld.tensor.") + (name + 15) + ".")
        .Category("DistributedOp")
        .Arg("input", "local data (Tensor or DistributedTensor)")
        .Arg("target", "window-bound [NR, SIZE] DistributedTensor (result)")
        .Arg("signal", "INT32 [NR] / [NR, 1]")
        .RequiredKwarg("dtype", KwargType::kDType, "element type (must match target)")
        .Deduce(DeduceBuiltinGatherLike)
        .Effect(1, ArgEffect::kWrite)
        .Effect(2, ArgEffect::kReadWrite)
        .InternalOnly();
  }

  r.Register("builtin.tensor.all_to_all_v")
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
      .Effect(1, ArgEffect::kWrite)
      .Effect(2, ArgEffect::kReadWrite)
      .Effect(4, ArgEffect::kWrite)
      .InternalOnly();
}

}  // namespace pypto::ir
