// Tensor-level collectives of the pld family: allreduce, barrier, broadcast,
// reduce_scatter, allgather, all_to_all and all_to_all_v. They are composites:
// LowerCompositeOps expands them inside kernels (notify/wait/put/remote_load)
// and LowerHostTensorCollectives turns host-orchestrator calls into the internal
// builtin.tensor.* dispatches registered in src/ops/builtins.cc.
//
// Window-as-result: each returns its window operand's type unchanged
// (`x = pld.tensor.allreduce(x, sig)`), so the data dependency is explicit.
// Every one synchronises through the self-clearing credit barrier on an INT32
// signal window; the signal and the window they update are ReadWrite (the
// gather-style ops only write their target).
#include <fmt/format.h>

#include "../register_op.h"
#include "collective_traits.h"
#include "dist_common.h"
#include "pypto/ir/context.h"

namespace pypto::ir {

using namespace dist;

// Static NR of a [NR] / [NR, 1] signal, when known.
static std::optional<int64_t> StaticNr(const DistributedTensorType* sig) {
  return sig->rank() >= 1 ? StaticInt(sig->shape[0]) : std::nullopt;
}

// target.shape[0] must be a multiple of NR when both are static.
static bool CheckRowsPerRank(DeduceContext& dc, int idx, const TensorType* t,
                             const DistributedTensorType* sig, const std::string& layout) {
  auto nr = StaticNr(sig);
  auto rows = StaticInt(t->shape[0]);
  if (!nr || !rows || (*nr > 0 && *rows % *nr == 0)) return true;
  ArgError(dc, idx, {},
           fmt::format("has shape {} but 'signal' has {} ranks; the layout is {}",
                       ShapeStr(t->shape), *nr, layout));
  return false;
}

static const Type* DeduceAllreduce(DeduceContext& dc) {
  const DistributedTensorType* target = ExpectDist(dc, 0);
  if (!target) return nullptr;
  if (target->dtype != DataType::kFP16 && target->dtype != DataType::kFP32)
    return ArgError(dc, 0, {},
                    fmt::format("has element type {}; allreduce supports pl.FP16 and pl.FP32",
                                DTypeStr(target->dtype)));
  auto op = EnumKw(dc, "op", EnumKind::kReduceOp, 0);
  std::string mode = StrKw(dc, "mode", "mesh");
  int64_t core_num = IntKw(dc, "core_num", 1);
  bool ok = op.has_value() && CheckCoreNumPositive(dc, core_num);
  if (mode != "mesh" && mode != "ring") {
    dc.KwargError("mode", fmt::format("is \"{}\"; expected \"mesh\" or \"ring\"", mode));
    ok = false;
  }
  if (!ok) return nullptr;
  bool ring = mode == "ring";
  if (ring && core_num != 1)
    return dc.KwargError("core_num",
                         fmt::format("is {}; mode=\"ring\" requires core_num=1 (multi-core "
                                     "allreduce is mesh only)",
                                     core_num));
  if (dc.args.size() < 2) {
    if (ring)
      return dc.Error(
          "mode=\"ring\" requires an explicit signal argument (a [2 * (NR - 1), NR] "
          "INT32 window); only mesh signals are synthesized");
    return dc.args[dc.op.returned_arg]->type;
  }
  const DistributedTensorType* sig = ExpectSignal(dc, 1);
  if (!sig) return nullptr;
  if (ring ? !CheckRingSignal(dc, 1, sig, true, true) : !CheckMeshSignal(dc, 1, sig, core_num))
    return nullptr;
  return dc.args[dc.op.returned_arg]->type;
}

static const Type* DeduceBroadcast(DeduceContext& dc) {
  const DistributedTensorType* target = ExpectDist(dc, 0);
  const DistributedTensorType* sig = ExpectSignal(dc, 1);
  if (!target || !sig || !ExpectNrSignalShape(dc, 1, sig, true)) return nullptr;
  int64_t root = IntKw(dc, "root", 0);
  if (root < 0)
    return dc.KwargError("root", fmt::format("is {}; the root rank must be >= 0", root));
  if (auto nr = StaticNr(sig); nr && root >= *nr)
    return dc.KwargError("root", fmt::format("is {} but 'signal' has {} ranks; the root rank "
                                             "must be < NR",
                                             root, *nr));
  return dc.args[dc.op.returned_arg]->type;
}

static const Type* DeduceReduceScatter(DeduceContext& dc) {
  const DistributedTensorType* target = ExpectDist(dc, 0);
  const DistributedTensorType* sig = ExpectSignal(dc, 1);
  if (!target || !sig) return nullptr;
  // Any pld.ReduceOp (Sum, Max, Min, Prod), as upstream.
  if (!EnumKw(dc, "op", EnumKind::kReduceOp, 0)) return nullptr;
  if (!ExpectRank(dc, 0, target, 2, "[NR, SIZE]") || !ExpectNrSignalShape(dc, 1, sig, true) ||
      !CheckRowsPerRank(dc, 0, target, sig, "[NR * k, SIZE]"))
    return nullptr;
  return dc.args[dc.op.returned_arg]->type;
}

// allgather / all_to_all: (input, target, signal), input Tensor-like.
static const Type* DeduceGatherLike(DeduceContext& dc, bool all_to_all) {
  const TensorType* input = ExpectTensorLike(dc, 0);
  const DistributedTensorType* target = ExpectDist(dc, 1);
  const DistributedTensorType* sig = ExpectSignal(dc, 2);
  if (!input || !target || !sig) return nullptr;
  // allgather in place: the pre-staged [NR, SIZE] window is input and target
  // (rank r reads only its own row r and writes only row r of its peers).
  bool in_place = dc.op.InPlace(dc.args);
  if (!ExpectRank(dc, 0, input, 2, all_to_all ? "[NR, SIZE]" : "[1, SIZE] (or [NR, SIZE])") ||
      !ExpectRank(dc, 1, target, 2, "[NR, SIZE]") || !ExpectNrSignalShape(dc, 2, sig, true) ||
      (!in_place && !ExpectDistinct(dc, 0, 1)))
    return nullptr;
  if (!CheckSameDtype(dc, 0, input, target)) return nullptr;
  // Columns always agree; rows: all_to_all needs [NR, SIZE] on both sides,
  // allgather takes a [1, SIZE] chunk or a pre-staged [NR, SIZE] window.
  auto in_rows = StaticInt(input->shape[0]);
  bool rows_ok = DimEqual(input->shape[0], target->shape[0]) ||
                 (!all_to_all && in_rows && *in_rows == 1) ||
                 !(in_rows && StaticInt(target->shape[0]));
  if (!rows_ok || (StaticInt(input->shape[1]) && StaticInt(target->shape[1]) &&
                   !DimEqual(input->shape[1], target->shape[1])))
    return ArgError(dc, 0, {},
                    fmt::format("has shape {} but 'target' is {}; expected {}",
                                ShapeStr(input->shape), ShapeStr(target->shape),
                                all_to_all ? "the same [NR, SIZE] shape"
                                           : "[1, SIZE] or [NR, SIZE] with the same SIZE"));
  auto nr = StaticNr(sig), trows = StaticInt(target->shape[0]);
  if (nr && trows && *nr != *trows)
    return ArgError(
        dc, 1, {},
        fmt::format("has {} rows but 'signal' has {} ranks; target is [NR, SIZE]", *trows, *nr));
  return dc.args[dc.op.returned_arg]->type;
}

static const Type* DeduceAllToAllV(DeduceContext& dc) {
  const TensorType* input = ExpectTensorLike(dc, 0);
  const DistributedTensorType* target = ExpectDist(dc, 1);
  const DistributedTensorType* sig = ExpectSignal(dc, 2);
  const TensorType* send = ExpectTensorLike(dc, 3);
  const DistributedTensorType* recv = ExpectDist(dc, 4);
  if (!input || !target || !sig || !send || !recv) return nullptr;
  int64_t core_num = IntKw(dc, "core_num", 1);
  if (!CheckCoreNumPositive(dc, core_num)) return nullptr;
  if (core_num != 1)
    return dc.KwargError("core_num",
                         fmt::format("is {}; every all_to_all_v rail is single-block today, so "
                                     "only core_num=1 is accepted (multi-block launch is planned "
                                     "for the CHIP rail)",
                                     core_num));
  for (int a = 0; a < 5; ++a)
    for (int b = a + 1; b < 5; ++b)
      if (!ExpectDistinct(dc, a, b)) return nullptr;
  if (!ExpectRank(dc, 0, input, 2, "[NR * MAX_RECV, SIZE]") ||
      !ExpectRank(dc, 1, target, 2, "[NR * MAX_RECV, SIZE]") || !CheckPackedLayout(dc, 0, input) ||
      !CheckPackedLayout(dc, 1, target) || !ExpectNrSignalShape(dc, 2, sig, false) ||
      !CheckCountsShape(dc, 3, send, true) || !CheckCountsShape(dc, 4, recv, false))
    return nullptr;
  if (!CheckSameDtype(dc, 0, input, target)) return nullptr;
  for (size_t k = 0; k < 2; ++k) {
    auto a = StaticInt(input->shape[k]), b = StaticInt(target->shape[k]);
    if (a && b && *a != *b)
      return ArgError(dc, 0, {},
                      fmt::format("has shape {} but 'target' is {}; both are the flat "
                                  "[NR * MAX_RECV, SIZE] staging layout",
                                  ShapeStr(input->shape), ShapeStr(target->shape)));
  }
  if (!CheckRowsPerRank(dc, 1, target, sig, "[NR * MAX_RECV, SIZE]")) return nullptr;
  return dc.args[dc.op.returned_arg]->type;
}

void RegisterCollectiveOps(OpRegistry& r) {
  // Returned operand, effects and in-place rule: shared with the builtins.
  auto reg = [&](OpHandle h) {
    OpBuilder b = ops::RegisterOp(r, h);
    DeclareCollectiveTraits(b, h);
    return b;
  };
  reg(ops::kPldAllreduce)
      .Family(OpFamily::kCollective)
      .BuiltinTwin(ops::kBuiltinAllreduce)
      .BuiltinVariant("mode", "ring", ops::kBuiltinAllreduceRing)
      .Doc(
          "Reduces every rank's window slice in place (mode \"mesh\" or \"ring\"); returns "
          "target's type. Without a signal (host, mesh only) one is synthesized.")
      .Category("DistributedOp")
      .Arg("target", "window-bound FP16/FP32 DistributedTensor (InOut)")
      .OptionalArg("signal",
                   "INT32 signal: mesh [NR] / [NR, stride>=core_num]; ring "
                   "[2*(NR-1)(+1), NR]")
      .EnumKwarg("op", EnumKind::kReduceOp, "pld.ReduceOp", 0)
      .Kwarg("mode", KwargType::kString, "\"mesh\" or \"ring\"", Attr::Str("mesh"))
      .Kwarg("core_num", KwargType::kInt, "AIV blocks per rank (host mesh only)", Attr::Int(1))
      .Deduce(DeduceAllreduce);

  reg(ops::kPldBarrier)
      .Family(OpFamily::kCollective)
      .BuiltinTwin(ops::kBuiltinBarrier)
      .Doc("Cross-rank barrier on an INT32 [NR] / [NR, 1] signal window; returns its type.")
      .Category("DistributedOp")
      .Arg("signal", "window-bound INT32 DistributedTensor (InOut)")
      .Deduce(DeduceSignalBarrier);

  reg(ops::kPldBroadcast)
      .Family(OpFamily::kCollective)
      .BuiltinTwin(ops::kBuiltinBroadcast)
      .Doc("Replicates rank `root`'s window slice to every rank; returns target's type.")
      .Category("DistributedOp")
      .Arg("target", "window-bound DistributedTensor (InOut)")
      .Arg("signal", "INT32 [NR] / [NR, 1] signal (InOut)")
      .RequiredKwarg("root", KwargType::kInt, "source rank (0 <= root < NR)")
      .Deduce(DeduceBroadcast);

  reg(ops::kPldReduceScatter)
      .Family(OpFamily::kCollective)
      .BuiltinTwin(ops::kBuiltinReduceScatter)
      .Doc(
          "Reduces (op: Sum, Max, Min or Prod) [NR, SIZE] window slices and scatters row r to "
          "rank r; returns target's type.")
      .Category("DistributedOp")
      .Arg("target", "window-bound [NR, SIZE] DistributedTensor (InOut)")
      .Arg("signal", "INT32 [NR] / [NR, 1] signal (InOut)")
      .EnumKwarg("op", EnumKind::kReduceOp, "pld.ReduceOp", 0)
      .Deduce(DeduceReduceScatter);

  reg(ops::kPldAllgather)
      .Family(OpFamily::kCollective)
      .BuiltinTwin(ops::kBuiltinAllgather)
      .Doc(
          "Gathers every rank's [1, SIZE] chunk into the [NR, SIZE] window `target`; returns "
          "target's type.")
      .Category("DistributedOp")
      .Arg("local_data", "local [1, SIZE] chunk (Tensor or DistributedTensor)")
      .Arg("target", "window-bound [NR, SIZE] DistributedTensor (result)")
      .Arg("signal", "INT32 [NR] / [NR, 1] signal (InOut)")
      .Deduce([](DeduceContext& dc) { return DeduceGatherLike(dc, false); });

  reg(ops::kPldAllToAll)
      .Family(OpFamily::kCollective)
      .BuiltinTwin(ops::kBuiltinAllToAll)
      .Doc(
          "Symmetric personalised exchange: row d of every rank's input lands in row r of "
          "rank d's window; returns target's type.")
      .Category("DistributedOp")
      .Arg("input", "local [NR, SIZE] (Tensor or DistributedTensor)")
      .Arg("target", "window-bound [NR, SIZE] DistributedTensor (result)")
      .Arg("signal", "INT32 [NR] / [NR, 1] signal (InOut)")
      .Deduce([](DeduceContext& dc) { return DeduceGatherLike(dc, true); });

  reg(ops::kPldAllToAllV)
      .Family(OpFamily::kCollective)
      .BuiltinTwin(ops::kBuiltinAllToAllV)
      .Doc(
          "Variable-size all-to-all: pushes clamp(send_counts[d], 0, MAX_RECV) rows to each "
          "rank d and publishes the count into recv_counts; returns target's type.")
      .Category("DistributedOp")
      .Arg("input", "packed [NR * MAX_RECV, SIZE] (Tensor or DistributedTensor)")
      .Arg("target", "window-bound packed [NR * MAX_RECV, SIZE] (result)")
      .Arg("signal", "INT32 [NR, 1] signal (InOut)")
      .Arg("send_counts", "INT32 [NR] / [NR, 1] rows per destination")
      .Arg("recv_counts", "window-bound INT32 [NR, 1] received rows per source")
      .Kwarg("core_num", KwargType::kInt, "AIV blocks (must be 1 today)", Attr::Int(1))
      .Deduce(DeduceAllToAllV);
}

}  // namespace pypto::ir
