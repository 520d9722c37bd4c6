// PlanMeshTarget / PlanRingTarget: see allreduce_layout.h.
#include "allreduce_layout.h"

#include <fmt/format.h>

#include "collective_chunks.h"
#include "pass_util.h"
#include "pypto/ir/enums.h"

namespace pypto::passes {

using namespace ir;

namespace {

// The target must be packed row-major memory: both lowerings view it as one
// [1, N] stream (or [rows, cols] rectangle) through tensor.view.
bool CheckPackedND(const Call& call, const TensorType* tt, std::string_view mode, Span span,
                   DiagnosticEngine& diag) {
  if (!tt->view) return true;
  if (tt->view->layout != TensorLayout::kND) {
    std::string layout =
        EnumValueName(EnumKind::kTensorLayout, static_cast<int>(tt->view->layout)).value_or("?");
    diag.Error(span, fmt::format("{}: argument 'target' has layout {}; an InCore mode=\"{}\" "
                                 "allreduce reads its target as packed row-major (ND) memory, so "
                                 "a {} view is not lowered; allreduce an ND tensor (a "
                                 "pld.tensor.window is one)",
                                 call.op->name, layout, mode, layout));
    return false;
  }
  if (!tt->view->stride.empty()) {
    diag.Error(span,
               fmt::format("{}: argument 'target' has a strided view (stride {} over shape "
                           "{}); an InCore mode=\"{}\" allreduce views its target as packed "
                           "rows and cannot skip the gaps a stride leaves; allreduce a "
                           "packed tensor (no stride), e.g. the window itself",
                           call.op->name, ShapeStr(tt->view->stride), ShapeStr(tt->shape), mode));
    return false;
  }
  return true;
}

// The partial valid_shape of `tt`, or empty when it is fully valid.
Shape PartialValid(const TensorType* tt) {
  if (!tt->view || tt->view->valid_shape.empty() || SameShape(tt->view->valid_shape, tt->shape))
    return {};
  return tt->view->valid_shape;
}

}  // namespace

std::optional<MeshTarget> PlanMeshTarget(IRBuilder& b, const Call& call, Span span,
                                         DiagnosticEngine& diag) {
  const TensorType* tt = util::TensorTypeOf(call.args[0]);
  if (!CheckPackedND(call, tt, "mesh", span, diag)) return std::nullopt;
  const int64_t elem = DTypeBytes(tt->dtype);
  const Shape& shape = tt->shape;
  Shape valid = PartialValid(tt);
  MeshTarget m;
  if (valid.empty()) {
    m.total = ElemCount(b, shape);
    bool row = shape.size() == 2 && StaticInt(shape[0]) == std::optional<int64_t>(1);
    m.view = row ? shape : Shape{b.Int(1), m.total};
    m.chunk = RowChunk(m.total, tt->dtype);
    return m;
  }
  std::string where = fmt::format("{}: argument 'target' has valid_shape {} in shape {}",
                                  call.op->name, ShapeStr(valid), ShapeStr(shape));
  if (!MergedValidContiguous(shape, valid)) {
    diag.Error(span, fmt::format("{}, which is not one rectangle once the leading dims are "
                                 "collapsed into rows (a collapsed inner dim is partly valid "
                                 "after a dim with more than one valid index); a partially "
                                 "valid mesh target is reduced as one 2-D [rows, cols] tile; "
                                 "make every leading dim after the first partly valid one fully "
                                 "valid, or allreduce the fully valid tensor",
                                 where));
    return std::nullopt;
  }
  Shape phys = shape.size() == 1 ? Shape{b.Int(1), shape[0]} : MergeLeadingDims(b.ctx(), shape);
  Shape box = shape.size() == 1 ? Shape{b.Int(1), valid[0]} : MergeLeadingDims(b.ctx(), valid);
  m.stream = false;
  m.view = phys;
  m.valid_rows = box[0];
  m.valid_cols = box[1];
  // Each tile dim: the static valid extent, or the physical one where the valid
  // extent is symbolic (the seed's fallback to the physical rectangle).
  int64_t tile[2];
  for (int k = 0; k < 2; ++k) {
    auto v = StaticInt(box[k]);
    if (!v) v = StaticInt(phys[k]);
    if (!v) {
      diag.Error(span, fmt::format("{}: the collapsed valid {} {} is symbolic and so is the "
                                   "physical {} {}, so the UB tile of the partially valid mesh "
                                   "allreduce has no static bound; give the target a static "
                                   "shape or a static valid_shape",
                                   where, k == 0 ? "row count" : "row length", DimStr(box[k]),
                                   k == 0 ? "row count" : "row length", DimStr(phys[k])));
      return std::nullopt;
    }
    tile[k] = std::max<int64_t>(*v, 1);
  }
  m.tile_rows = tile[0];
  m.tile_cols = (tile[1] * elem + 31) / 32 * 32 / elem;  // UB rows are 32-byte aligned
  if (m.tile_rows * m.tile_cols * elem > kCollectiveChunkBytes) {
    diag.Error(span, fmt::format("{}; its valid rectangle needs a [{}, {}] {} UB tile of {} "
                                 "bytes, more than one {}-byte chunk (a partially valid mesh "
                                 "target is reduced as one tile); make the valid box at most "
                                 "16 KiB, or allreduce a fully valid target (chunked to any "
                                 "size)",
                                 where, m.tile_rows, m.tile_cols, DTypeStr(tt->dtype),
                                 m.tile_rows * m.tile_cols * elem, kCollectiveChunkBytes));
    return std::nullopt;
  }
  return m;
}

std::optional<RingTarget> PlanRingTarget(IRBuilder& b, const Call& call, Span span,
                                         DiagnosticEngine& diag) {
  const TensorType* tt = util::TensorTypeOf(call.args[0]);
  if (!CheckPackedND(call, tt, "ring", span, diag)) return std::nullopt;
  RingTarget r;
  r.size = ElemCount(b, tt->shape);
  r.valid = r.size;
  Shape valid = PartialValid(tt);
  if (valid.empty()) return r;
  // A contiguous row-major prefix: statically-1 valid dims, then one partly
  // valid dim, then only fully valid ones.
  size_t k = 0;
  while (k < valid.size() && StaticInt(valid[k]) == std::optional<int64_t>(1)) ++k;
  for (size_t j = k + 1; j < valid.size(); ++j)
    if (!DimEqual(valid[j], tt->shape[j])) {
      diag.Error(span, fmt::format("{}: mode=\"ring\": argument 'target' has valid_shape {} in "
                                   "shape {}, which is not a contiguous row-major prefix (dim {} "
                                   "is partly valid after dim {}, which has more than one valid "
                                   "index); the ring reduces the logical prefix of the packed "
                                   "[1, prod(shape)] stream; make every dim after the first "
                                   "partly valid one fully valid, or use mode=\"mesh\" for a "
                                   "rectangular valid box",
                                   call.op->name, ShapeStr(valid), ShapeStr(tt->shape), j, k));
      return std::nullopt;
    }
  r.valid = ElemCount(b, valid);
  r.partial = true;
  return r;
}

}  // namespace pypto::passes
