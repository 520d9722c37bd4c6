// CheckRowOperand, RowChunk, ElemCount, ForColumnChunks: see collective_chunks.h.
#include "collective_chunks.h"

#include <fmt/format.h>

#include <algorithm>

#include "pass_util.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/op_utils.h"

namespace pypto::passes {

using namespace ir;

bool CheckRowOperand(Context& ctx, const Call& call, size_t arg, Span span,
                     DiagnosticEngine& diag) {
  const TensorType* t = util::TensorTypeOf(call.args[arg]);
  if (!t || !t->view) return true;
  const TensorView& v = *t->view;
  auto fail = [&](const std::string& what, const std::string& fix) {
    diag.Error(span, fmt::format("{}: argument '{}' {}; the InCore lowering moves packed "
                                 "row-major rows of it through UB in chunks, so it needs a "
                                 "packed, fully valid ND view; {}",
                                 call.op->name, call.op->args[arg].name, what, fix));
    return false;
  };
  if (v.layout != TensorLayout::kND)
    return fail(
        fmt::format(
            "has layout {}",
            EnumValueName(EnumKind::kTensorLayout, static_cast<int>(v.layout)).value_or("?")),
        "pass an ND window (the default layout)");
  if (!v.stride.empty() && !SameShape(v.stride, PackedStrides(ctx, t->shape)))
    return fail(fmt::format("has strides {} for shape {} (packed: {})", ShapeStr(v.stride),
                            ShapeStr(t->shape), ShapeStr(PackedStrides(ctx, t->shape))),
                "pass a window whose shape is its storage (a packed view)");
  if (!v.valid_shape.empty() && !SameShape(v.valid_shape, t->shape))
    return fail(fmt::format("is partially valid (valid_shape {} of shape {})",
                            ShapeStr(v.valid_shape), ShapeStr(t->shape)),
                "pass the whole window and narrow the result after the call");
  return true;
}

int64_t RowChunk(int64_t size, DataType dt) {
  int64_t elem = DTypeBytes(dt);
  if (size * elem >= kCollectiveChunkBytes) return kCollectiveChunkBytes / elem;
  return std::max<int64_t>((size * elem + 31) / 32 * 32 / elem, 1);
}

int64_t RowChunk(const Expr* size, DataType dt) {
  if (auto n = StaticInt(size)) return RowChunk(*n, dt);
  return kCollectiveChunkBytes / DTypeBytes(dt);
}

const Expr* ElemCount(IRBuilder& b, const std::vector<const Expr*>& dims) {
  const Expr* n = nullptr;
  for (const Expr* d : dims) n = n ? b.Mul(n, d) : d;
  return n ? n : b.Int(1);
}

void ForColumnChunks(IRBuilder& b, const std::string& name, const Expr* size, int64_t chunk,
                     const std::function<void(const Var* col, const Var* valid)>& body) {
  b.For(name + "_col", b.Int(0), size, b.Int(chunk), {},
        [&](const Var* col, const std::vector<const IterArg*>&) {
          body(col, b.Assign(name + "_valid", b.Min(b.Int(chunk), b.Sub(size, col))));
        });
}

}  // namespace pypto::passes
