// Window and communicator ops of the pld family: allocating a symmetric
// communication window (pld.tensor.alloc_window_buffer), viewing it as a
// DistributedTensor (pld.tensor.window), and the communicator queries
// (pld.system.world_size / get_comm_ctx / rank / nranks).
//
// Placement: alloc_window_buffer and world_size are host-orchestrator ops (the
// window is allocated per rank by the host runtime); rank/nranks read the
// kernel's CommContext, so they are kernel-only. window and get_comm_ctx are
// pure type plumbing and may appear anywhere.
#include <fmt/format.h>

#include "../register_op.h"
#include "dist_common.h"
#include "pypto/ir/context.h"

namespace pypto::ir {

using namespace dist;

// size: integer scalar byte count (static > 0), or a shape tuple with dtype=.
static const Type* DeduceAllocWindowBuffer(DeduceContext& dc) {
  const Attr* name = dc.Kwarg("name");
  if (!name || name->s.empty())
    return dc.KwargError("name",
                         "must be a non-empty string (the parser takes it from the assignment's "
                         "left-hand side: `buf = pld.tensor.alloc_window_buffer(...)`)");
  const Expr* size = dc.args[0];
  if (const auto* tup = As<MakeTuple>(size)) {
    if (!dc.Kwarg("dtype"))
      return ArgError(dc, 0, {},
                      "is a shape, which needs an element type: pass dtype=pl.FP32 (or give the "
                      "size in bytes)");
    if (tup->elements.empty())
      return ArgError(dc, 0, {}, "is an empty shape; a window needs at least one dimension");
    for (size_t k = 0; k < tup->elements.size(); ++k) {
      const Expr* e = tup->elements[k];
      if (!IsIntScalarType(e->type))
        return ArgError(
            dc, 0, {}, fmt::format("element {} must be an integer scalar, got {}", k, Ty(e->type)));
      auto v = StaticInt(e);
      if (v && *v <= 0)
        return ArgError(dc, 0, {},
                        fmt::format("element {} is {}; window dimensions must be positive", k, *v));
    }
    return dc.ctx.Ptr();
  }
  if (!IsIntScalarType(size->type))
    return ArgError(dc, 0, {},
                    fmt::format("must be an integer byte count or a shape tuple [d0, d1, ...], "
                                "got {}",
                                Ty(size->type)));
  if (dc.Kwarg("dtype"))
    return dc.KwargError("dtype",
                         "is only meaningful with a shape argument; with a byte count omit it");
  auto v = StaticInt(size);
  if (v && *v <= 0)
    return ArgError(dc, 0, {},
                    fmt::format("is {} bytes; a window buffer needs a positive size", *v));
  return dc.ctx.Ptr();
}

static const Type* DeduceWindow(DeduceContext& dc) {
  const Type* bt = dc.args[0]->type;
  if (!As<PtrType>(bt))
    return ArgError(dc, 0, {},
                    fmt::format("must be a pl.Ptr returned by pld.tensor.alloc_window_buffer, got "
                                "{}",
                                Ty(bt)));
  const auto* tup = As<MakeTuple>(dc.args[1]);
  if (!tup || tup->elements.empty())
    return ArgError(
        dc, 1, {},
        fmt::format("must be a non-empty shape tuple [d0, d1, ...], got {}", Ty(dc.args[1]->type)));
  for (size_t k = 0; k < tup->elements.size(); ++k) {
    const Expr* e = tup->elements[k];
    if (!IsIntScalarType(e->type))
      return ArgError(dc, 1, {},
                      fmt::format("element {} must be an integer scalar, got {}", k, Ty(e->type)));
    auto v = StaticInt(e);
    if (v && *v <= 0)
      return ArgError(dc, 1, {},
                      fmt::format("element {} is {}; window dimensions must be positive", k, *v));
  }
  const Attr* dt = dc.Kwarg("dtype");
  return dc.ctx.Make<DistributedTensorType>(tup->elements, dt->dtype);
}

static const Type* DeduceWorldSize(DeduceContext& dc) { return dc.ctx.Scalar(DataType::kInt64); }

static const Type* DeduceGetCommCtx(DeduceContext& dc) {
  if (!ExpectDist(dc, 0)) return nullptr;
  return dc.ctx.CommCtx();
}

static const Type* DeduceRankQuery(DeduceContext& dc) {
  const Type* t = dc.args[0]->type;
  if (!As<CommCtxType>(t))
    return ArgError(
        dc, 0, {},
        fmt::format("must be a pld.CommCtx (from pld.system.get_comm_ctx), got {}", Ty(t)));
  return dc.ctx.Scalar(DataType::kInt32);
}

void RegisterWindowOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kPldAllocWindowBuffer)
      .Doc(
          "Allocates a symmetric per-rank communication window and returns its base pointer. "
          "Host orchestrator only.")
      .Category("DistributedOp")
      .Arg("size", "byte count (integer scalar) or shape tuple (with dtype=)")
      .Kwarg("dtype", KwargType::kDType, "element type when `size` is a shape")
      .RequiredKwarg("name", KwargType::kString,
                     "window name; the parser injects it from the assignment's LHS")
      .Deduce(DeduceAllocWindowBuffer)
      .NoArgWrites()
      .Placement(OpPlacement::kHostOnly);

  ops::RegisterOp(r, ops::kPldWindow)
      .Doc(
          "Views a window buffer as a per-rank DistributedTensor slice of the given shape and "
          "dtype (window binding is filled in by MaterializeCommDomainScopes).")
      .Category("DistributedOp")
      .Arg("buf", "pl.Ptr from pld.tensor.alloc_window_buffer")
      .Arg("shape", "shape tuple of the per-rank slice")
      .RequiredKwarg("dtype", KwargType::kDType, "element type")
      .Deduce(DeduceWindow)
      .NoArgWrites();

  ops::RegisterOp(r, ops::kPldWorldSize)
      .Doc("Number of ranks of the running job (Scalar INT64). Host orchestrator only.")
      .Category("DistributedOp")
      .Deduce(DeduceWorldSize)
      .NoArgWrites()
      .Placement(OpPlacement::kHostOnly);

  ops::RegisterOp(r, ops::kPldGetCommCtx)
      .Doc("The CommContext a window-bound DistributedTensor parameter was bound with.")
      .Category("DistributedOp")
      .Arg("dist_tensor", "window-bound DistributedTensor")
      .Deduce(DeduceGetCommCtx)
      .NoArgWrites();

  ops::RegisterOp(r, ops::kPldRank)
      .Doc("This rank's index in the communicator (Scalar INT32). Kernel only.")
      .Category("DistributedOp")
      .Arg("ctx", "pld.CommCtx")
      .Deduce(DeduceRankQuery)
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly);

  ops::RegisterOp(r, ops::kPldNranks)
      .Doc("Number of ranks in the communicator (Scalar INT32). Kernel only.")
      .Category("DistributedOp")
      .Arg("ctx", "pld.CommCtx")
      .Deduce(DeduceRankQuery)
      .NoArgWrites()
      .Placement(OpPlacement::kKernelOnly);
}

}  // namespace pypto::ir
