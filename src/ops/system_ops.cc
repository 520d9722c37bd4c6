// Core system ops (pl.system.*): memory ordering and cache maintenance that the
// distributed lowerings insert around cross-rank traffic.
//   pl.system.fence()                           GM fence (pto.fence.barrier_all)
//   pl.system.cacheinvalid()                    invalidate the whole GM data cache
//   pl.system.cacheinvalid(tensor, shapes, offsets)   one region of a tensor
//   pl.system.check(cond[, values], msg="...")  a run-time precondition
// All are side-effect-only (result Unknown), read-only on their arguments, and
// kernel-only. system.check is what a lowering emits for a fact it assumed but
// cannot prove at compile time (a ring allreduce lowered for a static rank
// count checks the run's nranks): the executor stops with `msg` at the check's
// line (its `{}`s replaced by `values` in order), the device traps.
#include <fmt/format.h>

#include "deduce_checks.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"
#include "register_op.h"

namespace pypto::ir {

namespace {

const Type* DeduceFence(DeduceContext& dc) { return dc.ctx.Unknown(); }

const Type* DeduceCacheInvalid(DeduceContext& dc) {
  if (dc.args.empty()) return dc.ctx.Unknown();
  if (dc.args.size() != 3)
    return dc.Error(
        fmt::format("expects no arguments (whole GM) or (tensor, shapes, offsets) "
                    "for one region, got {} arguments",
                    dc.args.size()));
  const TensorType* t = ExpectTensor(dc, 0, /*allow_distributed=*/true);
  if (!t) return nullptr;
  const MakeTuple* shp = ExpectIndexTuple(dc, 1, t->rank(), "'tensor'");
  if (!shp || !ExpectPositiveDims(dc, 1, shp->elements)) return nullptr;
  const MakeTuple* off = ExpectIndexTuple(dc, 2, t->rank(), "'tensor'");
  if (!off) return nullptr;
  if (!ExpectRegionInBounds(dc, 2, off->elements, shp->elements, t->shape, "'tensor'"))
    return nullptr;
  return dc.ctx.Unknown();
}

const Type* DeduceCheck(DeduceContext& dc) {
  const Expr* c = dc.args[0];
  const auto* st = As<ScalarType>(c->type);
  if (!st || st->dtype != DataType::kBool)
    return dc.ErrorAt(
        0, "must be a BOOL scalar (the condition that must hold), got " + TypeToString(c->type));
  if (dc.args.size() > 1 && !ExpectIndexTuple(dc, 1)) return nullptr;
  const Attr* m = dc.Kwarg("msg");
  if (!m || m->s.empty()) return dc.KwargError("msg", "must be a non-empty message");
  return dc.ctx.Unknown();
}

}  // namespace

void RegisterSystemOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kSystemFence)
      .Doc(
          "Order all preceding GM accesses of this core before all following ones "
          "(a full GM fence).")
      .Category("SyncOp")
      .Affinity(CoreAffinity::kShared)
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceFence);

  ops::RegisterOp(r, ops::kSystemCacheinvalid)
      .Doc(
          "Invalidate data-cache lines so later reads see GM: with no arguments the whole GM "
          "cache, or with (tensor, shapes, offsets) one region of a tensor.")
      .Category("SyncOp")
      .OptionalArg("tensor", "pl.Tensor or pld.DistributedTensor")
      .OptionalArg("shapes", "region extents, one per tensor dim")
      .OptionalArg("offsets", "region start, one per tensor dim")
      .Affinity(CoreAffinity::kShared)
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceCacheInvalid);

  ops::RegisterOp(r, ops::kSystemCheck)
      .Doc(
          "Stop the kernel unless `cond` holds: the executor reports `msg` (its `{}`s replaced "
          "by the integers `values`, in order) at this line; the device traps (pto.trap).")
      .Category("SyncOp")
      .Arg("cond", "BOOL scalar that must be true")
      .OptionalArg("values", "tuple of integers shown in msg (the actual values)")
      .RequiredKwarg("msg", KwargType::kString, "what failed, why, and what would work")
      .Affinity(CoreAffinity::kShared)
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceCheck);
}

}  // namespace pypto::ir
