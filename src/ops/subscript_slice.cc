// The tensor.slice call a view subscript `base[i0, ..]` stands for (see
// include/pypto/ops/subscript_slice.h).
#include "pypto/ops/subscript_slice.h"

#include <fmt/format.h>

#include "pypto/core/check.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"

namespace pypto::ir {

const Call* MakeSubscriptSlice(Context& ctx, const Expr* base,
                               const std::vector<const Expr*>& indices, Span span,
                               DiagnosticEngine& diag) {
  const OpDef* op = OpRegistry::Global().Find("tensor.slice");
  PYPTO_CHECK(op != nullptr, "tensor.slice not registered");
  const TensorType* tt = AsTensorTypeLike(base ? base->type : nullptr);
  if (!tt) {
    diag.Error(span, "subscript: only a pl.Tensor or pld.DistributedTensor can be indexed, got " +
                         TypeStr(base ? base->type : nullptr));
    return nullptr;
  }
  if (indices.empty() || indices.size() >= tt->rank()) {
    diag.Error(span, fmt::format("subscript: {} indices on a rank-{} tensor; a view subscript "
                                 "takes 1 to {} leading indices (use pl.read for an element)",
                                 indices.size(), tt->rank(), tt->rank() - 1));
    return nullptr;
  }
  std::vector<const Expr*> shape, offs, drops;
  for (size_t k = 0; k < tt->rank(); ++k) {
    bool dropped = k < indices.size();
    shape.push_back(dropped ? ctx.Int(1, DataType::kIndex, span) : tt->shape[k]);
    offs.push_back(dropped ? indices[k] : ctx.Int(0, DataType::kIndex, span));
    if (dropped) drops.push_back(ctx.Int(static_cast<int64_t>(k), DataType::kIndex, span));
  }
  std::vector<const Expr*> args = {base, MakeTupleOf(ctx, shape, span),
                                   MakeTupleOf(ctx, offs, span), MakeTupleOf(ctx, {}, span),
                                   MakeTupleOf(ctx, drops, span)};
  return MakeOpCall(ctx, *op, std::move(args), {}, {}, span, diag);
}

}  // namespace pypto::ir
