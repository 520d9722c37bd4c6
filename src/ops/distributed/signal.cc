// Signal-slot ops of the pld family: pld.system.notify (TNOTIFY: write or
// atomically add a value into a peer's slot), pld.system.wait (TWAIT: block until
// this rank's slot satisfies a comparison) and pld.system.defer_wait (register a
// counter condition that defers the task's completion instead of blocking).
//
// Core placement (seed "Core placement" table): notify and wait deliberately
// declare no affinity (kDerived): they take no tile operand and have no memory
// spec, so the classifier's fallback makes them SHARED — both lanes of a mixed
// kernel keep a copy. notify alone carries NoDuplicate(): a cube-lane copy could
// publish the signal before the vector lane's data has landed (for Set as much
// as for AtomicAdd). wait stays unmarked: the cube lane's copy is load-bearing.
//
// Effects: notify's target is written (Set) or read-modify-written (AtomicAdd);
// wait and defer_wait only read their signal.
#include <fmt/format.h>

#include <limits>

#include "../register_op.h"
#include "dist_common.h"
#include "pypto/ir/context.h"

namespace pypto::ir {

using namespace dist;

static const Type* DeduceNotify(DeduceContext& dc) {
  const DistributedTensorType* target = ExpectDist(dc, 0);
  bool ok = ExpectPeer(dc, 1);
  if (target) ok = ExpectIndexTupleOf(dc, 2, target->rank(), "'target'") && ok;
  ok = ExpectAnyScalar(dc, 3) && ok;
  ok = EnumKw(dc, "op", EnumKind::kNotifyOp, 0).has_value() && ok;
  if (!target || !ok) return nullptr;
  return dc.ctx.Unknown();
}

static const Type* DeduceWait(DeduceContext& dc) {
  const DistributedTensorType* sig = ExpectDist(dc, 0);
  bool ok = true;
  if (sig) ok = ExpectIndexTupleOf(dc, 1, sig->rank(), "'signal'") && ok;
  ok = ExpectAnyScalar(dc, 2) && ok;
  ok = EnumKw(dc, "cmp", EnumKind::kWaitCmp, 0).has_value() && ok;
  if (!sig || !ok) return nullptr;
  return dc.ctx.Unknown();
}

// V1 restrictions: direct INT32 window counter of rank >= 1 with ND/DN
// addressing, integer offsets and threshold, Ge only, constant thresholds in
// [0, INT32_MAX] (polling is unsigned >=, so -1 would read as UINT32_MAX).
static const Type* DeduceDeferWait(DeduceContext& dc) {
  const DistributedTensorType* sig = ExpectDist(dc, 0);
  if (!sig) return nullptr;
  // The adapter registers the parameter's base address: an inline slice/view
  // expression or a loop-carried alias has no such base.
  if (!As<Var>(dc.args[0]))
    return ArgError(dc, 0, {},
                    "must be the window-bound signal parameter itself; defer_wait does not "
                    "support slices, views or loop-carried aliases of it");
  if (sig->dtype != DataType::kInt32)
    return ArgError(dc, 0, {},
                    fmt::format("must have element type pl.INT32 (a deferred-completion "
                                "counter), got {}",
                                DTypeStr(sig->dtype)));
  if (sig->rank() == 0)
    return ArgError(dc, 0, {}, "has rank 0; defer_wait needs a signal of rank >= 1");
  if (sig->view && sig->view->layout == TensorLayout::kNZ)
    return ArgError(dc, 0, {},
                    "has layout pl.TensorLayout.NZ; defer_wait addresses its counter with ND or "
                    "DN layouts only");
  bool ok = ExpectIndexTupleOf(dc, 1, sig->rank(), "'signal'") != nullptr;
  const Expr* expected = dc.args[2];
  if (!IsIntScalarType(expected->type)) {
    ArgError(dc, 2, {},
             fmt::format("must be an integer scalar threshold, got {}", Ty(expected->type)));
    ok = false;
  } else if (auto v = StaticInt(expected);
             v && (*v < 0 || *v > std::numeric_limits<int32_t>::max())) {
    ArgError(dc, 2, {},
             fmt::format("is {}; a defer_wait threshold must lie in [0, 2147483647] because the "
                         "counter is polled as unsigned >=",
                         *v));
    ok = false;
  }
  auto cmp = EnumKw(dc, "cmp", EnumKind::kWaitCmp, static_cast<int>(WaitCmp::kGe));
  if (cmp && *cmp != static_cast<int>(WaitCmp::kGe)) {
    dc.KwargError("cmp", fmt::format("is {}; defer_wait supports only pld.WaitCmp.Ge (use "
                                     "pld.system.wait for an equality wait)",
                                     EnumName(EnumKind::kWaitCmp, *cmp)));
    ok = false;
  }
  if (!ok || !cmp) return nullptr;
  return dc.ctx.Unknown();
}

void RegisterSignalOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kPldNotify)
      .Doc(
          "Writes `value` into the peer rank's slot `offsets` of the window-bound signal "
          "`target`: op=pld.NotifyOp.AtomicAdd adds atomically, op=pld.NotifyOp.Set stores.")
      .Category("SyncOp")
      .Arg("target", "window-bound DistributedTensor signal matrix")
      .Arg("peer", "destination rank (integer scalar)")
      .Arg("offsets", "slot index tuple (rank of target)")
      .Arg("value", "scalar value to add or store")
      .RequiredKwarg("op", KwargType::kEnum, "pld.NotifyOp", EnumKind::kNotifyOp)
      .Deduce(DeduceNotify)
      .NoDuplicate()
      .Effect(0, EffectFn([](const AttrList& kw) {
                const Attr* op = FindAttr(kw, "op");
                return op && op->i == static_cast<int>(NotifyOp::kSet) ? ArgEffect::kWrite
                                                                       : ArgEffect::kReadWrite;
              }));

  ops::RegisterOp(r, ops::kPldWait)
      .Doc(
          "Blocks until this rank's slot `offsets` of `signal` compares (cmp) true against "
          "`expected`.")
      .Category("SyncOp")
      .Arg("signal", "window-bound DistributedTensor signal matrix")
      .Arg("offsets", "slot index tuple (rank of signal)")
      .Arg("expected", "scalar to compare against")
      .RequiredKwarg("cmp", KwargType::kEnum, "pld.WaitCmp", EnumKind::kWaitCmp)
      .Deduce(DeduceWait)
      .NoArgWrites();

  ops::RegisterOp(r, ops::kPldDeferWait)
      .Doc(
          "Registers `signal[offsets] >= expected` as a completion condition of the current "
          "task (the kernel retires; the scheduler withholds the TaskId until ready).")
      .Category("SyncOp")
      .Arg("signal", "window-bound INT32 DistributedTensor counter (direct parameter)")
      .Arg("offsets", "integer slot index tuple (rank of signal)")
      .Arg("expected", "integer threshold in [0, INT32_MAX]")
      .RequiredKwarg("cmp", KwargType::kEnum, "pld.WaitCmp (Ge only)", EnumKind::kWaitCmp)
      .Deduce(DeduceDeferWait)
      .ParamOnlyArg(0)
      .NoArgWrites();
}

}  // namespace pypto::ir
