// Core tensor ops (pl.tensor.*): GM-level tensor creation, views, element
// access, element-wise arithmetic and casts. Each registration carries its doc,
// argument names, kwarg schema, effects and the deducer that verifies a call and
// computes its result type (design §4).
//
// Tensor ops accept a pld.DistributedTensor wherever they accept a pl.Tensor
// (they act on this rank's own slice, user model §3). View-like ops (view,
// slice) keep the input's kind (and window_buffer); value-producing ops
// (add, cast, ...) return a plain pl.Tensor.
//
// tensor.slice signature (chosen to match upstream):
//   pl.tensor.slice(input, shape, offset[, valid_shape[, drop_dims]]; pad_value)
// `shape`/`offset` are rank-r tuples in input coordinates; `valid_shape` is an
// empty tuple (no narrowing) or rank r; `drop_dims` lists ascending axes whose
// extent in `shape` is the literal 1 and which are erased from the result type.
// The subscript `x[r]` on a world-shaped host tensor [NR, ...] is
//   pl.tensor.slice(x, [1, ...], [r, 0, ...], [], [0])
// (built by MakeSubscriptSlice, pypto/ops/subscript_slice.h).
#include <fmt/format.h>

#include <algorithm>

#include "deduce_checks.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"
#include "register_op.h"

namespace pypto::ir {

namespace {

// The rank-r tuple in argument `i`; `what` names the tensor it indexes.
const MakeTuple* RankTuple(DeduceContext& dc, int i, size_t rank, const char* what) {
  return ExpectIndexTuple(dc, i, rank, fmt::format("'{}'", what));
}

Shape Elems(const MakeTuple* t) { return t->elements; }

const Type* DeduceCreate(DeduceContext& dc) {
  const MakeTuple* shape = ExpectIndexTuple(dc, 0);
  if (!shape) return nullptr;
  if (shape->elements.empty()) return dc.ErrorAt(0, "must have at least one dimension");
  if (!ExpectPositiveDims(dc, 0, shape->elements)) return nullptr;
  DataType dt = dc.Kwarg("dtype")->dtype;
  if (dt == DataType::kIndex)
    return dc.KwargError("dtype", "pl.INDEX is not a storage dtype; use pl.INT64");
  std::optional<TensorView> view;
  if (const Attr* l = dc.Kwarg("layout")) {
    TensorView v;
    v.layout = static_cast<TensorLayout>(l->i);
    view = v;
  }
  return MakeTensorType(dc.ctx, Elems(shape), dt, view);
}

const Type* DeduceView(DeduceContext& dc) {
  const TensorType* in = ExpectTensor(dc, 0, /*allow_distributed=*/true);
  if (!in) return nullptr;
  TensorView v = in->view.value_or(TensorView{});
  Shape shape = in->shape;
  if (dc.args.size() >= 2) {
    const MakeTuple* s = ExpectIndexTuple(dc, 1);
    if (!s) return nullptr;
    if (s->elements.empty()) return dc.ErrorAt(1, "must have at least one dimension");
    if (!ExpectPositiveDims(dc, 1, s->elements)) return nullptr;
    auto n_in = StaticNumel(in->shape), n_out = StaticNumel(s->elements);
    if (n_in && n_out && *n_in != *n_out)
      return dc.ErrorAt(1, fmt::format("shape {} has {} elements but 'input' {} has {}; a view "
                                       "must keep the element count",
                                       ShapeStr(s->elements), *n_out, ShapeStr(in->shape), *n_in));
    if (!SameShape(s->elements, in->shape)) {
      // Recorded strides equal to the packed ones are no stride at all.
      if (!v.stride.empty() && !SameShape(v.stride, PackedStrides(dc.ctx, in->shape)))
        return dc.ErrorAt(0, "has a strided view; reshaping requires a packed tensor");
      v.stride.clear();
      v.valid_shape.clear();  // the old valid region does not map onto the new shape
    }
    shape = Elems(s);
  }
  if (dc.args.size() >= 3) {
    const MakeTuple* vs = ExpectIndexTuple(dc, 2, shape.size(), "'shape'");
    if (!vs) return nullptr;
    for (size_t k = 0; k < shape.size(); ++k) {
      auto a = StaticInt(vs->elements[k]), b = StaticInt(shape[k]);
      if (a && (*a < 0 || (b && *a > *b)))
        return dc.ErrorAt(2, fmt::format("dim {} is {}, outside [0, {}]", k, *a, DimStr(shape[k])));
    }
    v.valid_shape = Elems(vs);
  }
  if (const Attr* l = dc.Kwarg("layout")) v.layout = static_cast<TensorLayout>(l->i);
  return MakeTensorTypeLike(dc.ctx, in, shape, in->dtype, v);
}

const Type* DeduceRead(DeduceContext& dc) {
  const TensorType* t = ExpectTensor(dc, 0, true);
  if (!t) return nullptr;
  const MakeTuple* idx = RankTuple(dc, 1, t->rank(), "tensor");
  if (!idx) return nullptr;
  Shape ones(t->rank(), dc.ctx.Int(1));
  if (!ExpectRegionInBounds(dc, 1, idx->elements, ones, t->shape, "'tensor'")) return nullptr;
  return dc.ctx.Scalar(t->dtype);
}

const Type* DeduceWrite(DeduceContext& dc) {
  const TensorType* t = ExpectTensor(dc, 0, true);
  if (!t) return nullptr;
  const MakeTuple* idx = RankTuple(dc, 1, t->rank(), "tensor");
  if (!idx) return nullptr;
  Shape ones(t->rank(), dc.ctx.Int(1));
  if (!ExpectRegionInBounds(dc, 1, idx->elements, ones, t->shape, "'tensor'")) return nullptr;
  if (!ExpectScalar(dc, 2)) return nullptr;
  if (!ScalarAssignable(dc.args[2], t->dtype))
    return dc.ErrorAt(2, fmt::format("must be a pl.Scalar[{}] (the tensor's dtype), got {}",
                                     DTypeStr(t->dtype), TypeStr(dc.args[2]->type)));
  return dc.args[0]->type;
}

// tensor ⊕ tensor (same shape and dtype) or tensor ⊕ scalar.
const Type* DeduceBinary(DeduceContext& dc) {
  const TensorType* lhs = ExpectTensor(dc, 0, true);
  if (!lhs) return nullptr;
  const Expr* rhs = dc.args[1];
  if (IsScalar(rhs)) {
    if (!ScalarAssignable(rhs, lhs->dtype))
      return dc.ErrorAt(1, fmt::format("scalar dtype {} does not match 'lhs' dtype {}",
                                       TypeStr(rhs->type), DTypeStr(lhs->dtype)));
    TensorView v;
    v.valid_shape = ValidShapeOf(lhs);
    return MakeTensorType(dc.ctx, lhs->shape, lhs->dtype, v);
  }
  const TensorType* r = AsTensorTypeLike(rhs->type);
  if (!r)
    return dc.ErrorAt(
        1, "must be a pl.Tensor, pld.DistributedTensor or scalar, got " + TypeStr(rhs->type));
  if (r->dtype != lhs->dtype)
    return dc.ErrorAt(1, fmt::format("dtype {} does not match 'lhs' dtype {}", DTypeStr(r->dtype),
                                     DTypeStr(lhs->dtype)));
  if (!ExpectShapeCompatible(dc, 1, r->shape, lhs->shape, "'lhs' shape")) return nullptr;
  // Prefer a static dim where one side is symbolic.
  Shape shape = lhs->shape;
  for (size_t k = 0; k < shape.size(); ++k)
    if (!StaticInt(shape[k]) && StaticInt(r->shape[k])) shape[k] = r->shape[k];
  Shape valid = IntersectValid(dc.ctx, ValidShapeOf(lhs), lhs->shape, ValidShapeOf(r), r->shape);
  TensorView v;
  v.valid_shape = valid;
  return MakeTensorType(dc.ctx, shape, lhs->dtype, v);
}

// tensor ⊕ scalar (upstream's adds/subs/muls/divs): the scalar (a literal
// converts) must have the tensor's dtype; the result keeps the tensor's valid region.
const Type* DeduceBinaryScalar(DeduceContext& dc) {
  const TensorType* lhs = ExpectTensor(dc, 0, true);
  if (!lhs) return nullptr;
  const Expr* rhs = dc.args.size() > 1 ? dc.args[1] : nullptr;
  if (rhs && AsTensorTypeLike(rhs->type))
    return dc.ErrorAt(1, fmt::format("must be a scalar, got {}; for two tensors use pl.{}",
                                     TypeStr(rhs->type), ops::Get(dc.op.binary_twin).name));
  if (!ExpectScalar(dc, 1)) return nullptr;
  if (!ScalarAssignable(rhs, lhs->dtype))
    return dc.ErrorAt(1, fmt::format("scalar dtype {} does not match 'lhs' dtype {}",
                                     TypeStr(rhs->type), DTypeStr(lhs->dtype)));
  TensorView v;
  v.valid_shape = ValidShapeOf(lhs);
  return MakeTensorType(dc.ctx, lhs->shape, lhs->dtype, v);
}

// tensor.assemble(target, source, offset): `source` is written into the region
// of `target` at `offset`; the result is the written target (its type).
const Type* DeduceAssemble(DeduceContext& dc) {
  const TensorType* target = ExpectTensor(dc, 0, true);
  if (!target) return nullptr;
  if (dc.args.size() > 1 && Isa<TileType>(dc.args[1]->type))
    return dc.ErrorAt(1, "must be a pl.Tensor or pld.DistributedTensor, got " +
                             TypeStr(dc.args[1]->type) +
                             "; to write a tile into a tensor use pl.tile.store(tile, offsets, "
                             "target)");
  const TensorType* src = ExpectTensor(dc, 1, true);
  if (!src) return nullptr;
  if (src->rank() != target->rank())
    return dc.ErrorAt(1, fmt::format("has rank {} but 'target' has rank {}; the source must have "
                                     "one extent per target dimension",
                                     src->rank(), target->rank()));
  if (src->dtype != target->dtype)
    return dc.ErrorAt(1, fmt::format("dtype {} does not match 'target' dtype {}; convert it with "
                                     "pl.cast first",
                                     DTypeStr(src->dtype), DTypeStr(target->dtype)));
  for (size_t k = 0; k < src->rank(); ++k) {
    auto e = StaticInt(src->shape[k]), d = StaticInt(target->shape[k]);
    if (e && d && *e > *d)
      return dc.ErrorAt(1, fmt::format("shape {} does not fit in 'target' {}: dim {} is {} > {}",
                                       ShapeStr(src->shape), ShapeStr(target->shape), k, *e, *d));
  }
  const MakeTuple* off = RankTuple(dc, 2, target->rank(), "target");
  if (!off) return nullptr;
  if (!ExpectRegionInBounds(dc, 2, off->elements, src->shape, target->shape, "'target'"))
    return nullptr;
  return dc.args[0]->type;
}

const Type* DeduceCast(DeduceContext& dc) {
  const TensorType* in = ExpectTensor(dc, 0, true);
  if (!in) return nullptr;
  DataType dt = dc.Kwarg("target_type")->dtype;
  if (dt == DataType::kIndex)
    return dc.KwargError("target_type", "pl.INDEX is not a storage dtype; use pl.INT64");
  TensorView v;
  v.valid_shape = ValidShapeOf(in);
  return MakeTensorType(dc.ctx, in->shape, dt, v);
}

const Type* DeduceSlice(DeduceContext& dc) {
  const TensorType* in = ExpectTensor(dc, 0, true);
  if (!in) return nullptr;
  size_t r = in->rank();
  const MakeTuple* shape = RankTuple(dc, 1, r, "input");
  if (!shape || !ExpectPositiveDims(dc, 1, shape->elements)) return nullptr;
  const MakeTuple* off = RankTuple(dc, 2, r, "input");
  if (!off) return nullptr;
  if (!ExpectRegionInBounds(dc, 2, off->elements, shape->elements, in->shape, "'input'"))
    return nullptr;
  Shape valid;
  if (dc.args.size() >= 4) {
    const MakeTuple* vs = ExpectIndexTuple(dc, 3);
    if (!vs) return nullptr;
    if (!vs->elements.empty()) {
      if (vs->elements.size() != r)
        return dc.ErrorAt(3, fmt::format("must be empty or have {} elements (one per dimension "
                                         "of 'input'), got {}",
                                         r, vs->elements.size()));
      for (size_t k = 0; k < r; ++k) {
        auto a = StaticInt(vs->elements[k]), b = StaticInt(shape->elements[k]);
        if (a && (*a < 0 || (b && *a > *b)))
          return dc.ErrorAt(
              3, fmt::format("dim {} is {}, outside [0, {}]", k, *a, DimStr(shape->elements[k])));
      }
      valid = vs->elements;
    }
  }
  std::vector<bool> drop(r, false);
  if (dc.args.size() >= 5) {
    const MakeTuple* dd = ExpectIndexTuple(dc, 4);
    if (!dd) return nullptr;
    int64_t prev = -1;
    for (const Expr* e : dd->elements) {
      auto a = StaticInt(e);
      if (!a) return dc.ErrorAt(4, "must list constant axes, got " + DimStr(e));
      if (*a < 0 || *a >= static_cast<int64_t>(r))
        return dc.ErrorAt(4, fmt::format("axis {} is out of range for rank {}", *a, r));
      if (*a <= prev) return dc.ErrorAt(4, "axes must be strictly ascending");
      auto ext = StaticInt(shape->elements[*a]);
      if (!ext || *ext != 1)
        return dc.ErrorAt(4, fmt::format("axis {} must have extent 1 in 'shape', got {}", *a,
                                         DimStr(shape->elements[*a])));
      drop[*a] = true;
      prev = *a;
    }
    if (dd->elements.size() == r)
      return dc.ErrorAt(4, "would drop every dimension; use pl.tensor.read for one element");
  }
  // Narrow to what the input's valid region supplies at `offset`, where provable.
  Shape in_valid = ValidShapeOf(in);
  if (!SameShape(in_valid, in->shape)) {
    if (valid.empty()) valid = shape->elements;
    for (size_t k = 0; k < r; ++k) {
      auto v = StaticInt(valid[k]), pv = StaticInt(in_valid[k]), o = StaticInt(off->elements[k]);
      int64_t avail = 0;
      if (!v || !pv || !o || __builtin_sub_overflow(*pv, *o, &avail)) continue;
      avail = std::max<int64_t>(0, avail);
      if (avail < *v) valid[k] = dc.ctx.Int(avail);
    }
  }
  // Strides of the parent: its recorded view strides, or packed ones.
  Shape parent_stride =
      in->view && !in->view->stride.empty() ? in->view->stride : PackedStrides(dc.ctx, in->shape);
  Shape out_shape, out_valid, out_stride;
  for (size_t k = 0; k < r; ++k) {
    if (drop[k]) continue;
    out_shape.push_back(shape->elements[k]);
    out_stride.push_back(parent_stride[k]);
    if (!valid.empty()) out_valid.push_back(valid[k]);
  }
  TensorView v;
  if (!SameShape(out_stride, PackedStrides(dc.ctx, out_shape))) v.stride = out_stride;
  v.layout = in->view ? in->view->layout : TensorLayout::kND;
  v.valid_shape = out_valid;
  if (const Attr* p = dc.Kwarg("pad_value")) v.pad = static_cast<PadValue>(p->i);
  return MakeTensorTypeLike(dc.ctx, in, out_shape, in->dtype, v);
}

void RegisterBinary(OpRegistry& r, OpHandle h, OpHandle tile, OpHandle scalar,
                    const std::string& what) {
  ops::RegisterOp(r, h)
      .Doc("Element-wise " + what +
           " of two tensors of the same shape and dtype, or of a tensor and a scalar "
           "(broadcast). Result: a new pl.Tensor whose valid region is the intersection "
           "of the operands' valid regions.")
      .Category("TensorOp")
      .Arg("lhs", "pl.Tensor or pld.DistributedTensor")
      .Arg("rhs", "tensor of the same shape and dtype, or a scalar of the lhs dtype")
      .NoArgWrites()
      .Family(OpFamily::kElementwise)
      .TileTwin(tile)
      .ScalarTwin(scalar)
      .Deduce(DeduceBinary);
}

void RegisterBinaryScalar(OpRegistry& r, OpHandle h, OpHandle tile, const std::string& what) {
  ops::RegisterOp(r, h)
      .Doc("Element-wise " + what +
           " of a tensor and a scalar (a literal takes the tensor's dtype). Result: a new "
           "pl.Tensor with the tensor's shape and valid region.")
      .Category("TensorOp")
      .Arg("lhs", "pl.Tensor or pld.DistributedTensor")
      .Arg("rhs", "scalar of the lhs dtype")
      .NoArgWrites()
      .Family(OpFamily::kElementwiseScalar)
      .TileTwin(tile)
      .Deduce(DeduceBinaryScalar);
}

}  // namespace

void RegisterTensorOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kTensorCreate)
      .Doc("Allocate a new GM tensor of the given shape and dtype.")
      .Category("TensorOp")
      .Arg("shape", "tuple of positive dims, e.g. [16, 64]")
      .RequiredKwarg("dtype", KwargType::kDType, "element dtype")
      .EnumKwarg("layout", EnumKind::kTensorLayout, "storage layout (default ND)")
      .NoArgWrites()
      .Deduce(DeduceCreate);

  ops::RegisterOp(r, ops::kTensorView)
      .Doc(
          "Reinterpret a tensor over the same memory: optionally a new shape with the same "
          "element count, a valid_shape narrowing, and a layout. A pld.DistributedTensor "
          "input yields a pld.DistributedTensor (same window buffer).")
      .Category("TensorOp")
      .Arg("input", "pl.Tensor or pld.DistributedTensor")
      .OptionalArg("shape", "new shape (same element count)")
      .OptionalArg("valid_shape", "valid region, one dim per shape dim")
      .EnumKwarg("layout", EnumKind::kTensorLayout, "layout of the view")
      .NoArgWrites()
      .Deduce(DeduceView);

  ops::RegisterOp(r, ops::kTensorRead)
      .Doc("Read one element of a tensor (scalar D-cache access).")
      .Category("TensorOp")
      .Arg("tensor", "pl.Tensor or pld.DistributedTensor")
      .Arg("indices", "one index per dimension")
      .NoArgWrites()
      .Deduce(DeduceRead);

  ops::RegisterOp(r, ops::kTensorWrite)
      .Doc(
          "Write one element of a tensor (scalar D-cache access). Returns the tensor, for "
          "chaining.")
      .Category("TensorOp")
      .Arg("tensor", "pl.Tensor or pld.DistributedTensor (written)")
      .Arg("indices", "one index per dimension")
      .Arg("value", "scalar of the tensor's dtype (literals convert)")
      .Effect(0, ArgEffect::kWrite)
      .Deduce(DeduceWrite);

  // The element-wise family, from op_list.def (a binary member's scalar twin is
  // the member whose PYPTO_ELEMENTWISE_SCALAR line names it; none: unset).
#define PYPTO_ELEMENTWISE(N, name, what, sop) \
  RegisterBinary(r, ops::kTensor##N, ops::kTile##N, ops::ScalarTwinOf(ops::kTensor##N), what);
#define PYPTO_ELEMENTWISE_SCALAR(N, name, B, what) \
  RegisterBinaryScalar(r, ops::kTensor##N, ops::kTile##N, what);
#include "pypto/ops/op_list.def"

  ops::RegisterOp(r, ops::kTensorAssemble)
      .Doc(
          "Write `source` into the region of `target` starting at `offset` (same rank and "
          "dtype; the region must fit). Only the source's valid region is written. Returns "
          "the written target (its type), like pl.tile.store. On a pld.DistributedTensor it "
          "writes this rank's own slice.")
      .Category("TensorOp")
      .Arg("target", "pl.Tensor or pld.DistributedTensor (written)")
      .Arg("source", "pl.Tensor or pld.DistributedTensor of the target's rank and dtype")
      .Arg("offset", "region start, one per target dim")
      .Effect(0, ArgEffect::kWrite)
      .TileTwin(ops::kTileStore)  // tile.store(source_tile, offset, target) in kernels
      .Deduce(DeduceAssemble);

  ops::RegisterOp(r, ops::kTensorCast)
      .Doc("Convert every element to target_type; same shape and valid region.")
      .Category("TensorOp")
      .Arg("input", "pl.Tensor or pld.DistributedTensor")
      .RequiredKwarg("target_type", KwargType::kDType, "result element dtype")
      .NoArgWrites()
      .TileTwin(ops::kTileCast)
      .Deduce(DeduceCast);

  ops::RegisterOp(r, ops::kTensorSlice)
      .Doc(
          "A view of a rectangular region [offset, offset + shape) of a tensor. valid_shape "
          "(empty = none) narrows the valid region; drop_dims erases extent-1 axes from the "
          "result type, so x[r] on a world-shaped [NR, ...] host tensor is "
          "slice(x, [1, ...], [r, 0, ...], [], [0]). Keeps the input's kind.")
      .Category("TensorOp")
      .Arg("input", "pl.Tensor or pld.DistributedTensor")
      .Arg("shape", "region extents, one per input dim")
      .Arg("offset", "region start, one per input dim")
      .OptionalArg("valid_shape", "[] or one valid extent per input dim")
      .OptionalArg("drop_dims", "ascending constant axes of extent 1 to erase")
      .EnumKwarg("pad_value", EnumKind::kPadValue, "value of the padding outside the valid region")
      .NoArgWrites()
      .Deduce(DeduceSlice);
}

}  // namespace pypto::ir
