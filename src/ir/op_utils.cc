// Generic type, shape and expression helpers of the IR layer (see
// include/pypto/ir/op_utils.h for the policy on symbolic shapes).
#include "pypto/ir/op_utils.h"

#include <fmt/format.h>

#include <algorithm>

#include "pypto/ir/builder.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/int_expr_fold.h"
#include "pypto/ir/printer.h"

namespace pypto::ir {

// ---- expression queries -------------------------------------------------------

std::optional<int64_t> StaticInt(const Expr* e) {
  if (const auto* c = As<ConstInt>(e)) return c->value;
  if (!e || (e->kind != NodeKind::kBinaryExpr && e->kind != NodeKind::kUnaryExpr))
    return std::nullopt;
  return FoldIntExpr(e).fold.value;  // `1 - 1`, `~2`: checks see the folded value
}

const MakeTuple* AsTuple(const Expr* e) { return As<MakeTuple>(e); }

std::optional<DataType> ScalarDType(const Expr* e) {
  if (e == nullptr) return std::nullopt;
  if (const auto* s = As<ScalarType>(e->type)) return s->dtype;
  return std::nullopt;
}

bool IsScalar(const Expr* e) { return ScalarDType(e).has_value(); }

bool IsIntegerScalar(const Expr* e) {
  auto d = ScalarDType(e);
  return d && IsInteger(*d);
}

bool IsFloatScalar(const Expr* e) {
  auto d = ScalarDType(e);
  return d && IsFloat(*d);
}

// ---- shapes -------------------------------------------------------------------

bool DimEqual(const Expr* a, const Expr* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  auto sa = StaticInt(a), sb = StaticInt(b);
  if (sa || sb) return sa && sb && *sa == *sb;
  if (AsVarLike(a) || AsVarLike(b)) return false;  // distinct Var nodes
  if (const auto* ba = As<BinaryExpr>(a)) {
    const auto* bb = As<BinaryExpr>(b);
    return bb && ba->op == bb->op && DimEqual(ba->lhs, bb->lhs) && DimEqual(ba->rhs, bb->rhs);
  }
  if (const auto* ua = As<UnaryExpr>(a)) {
    const auto* ub = As<UnaryExpr>(b);
    return ub && ua->op == ub->op && DimEqual(ua->operand, ub->operand);
  }
  return false;
}

bool DimConflict(const Expr* a, const Expr* b) {
  auto sa = StaticInt(a), sb = StaticInt(b);
  return sa && sb && *sa != *sb;
}

bool SameShape(const Shape& a, const Shape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!DimEqual(a[i], b[i])) return false;
  return true;
}

std::optional<size_t> FirstShapeConflict(const Shape& a, const Shape& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (DimConflict(a[i], b[i])) return i;
  if (a.size() != b.size()) return n;
  return std::nullopt;
}

bool ShapesCompatible(const Shape& a, const Shape& b) { return !FirstShapeConflict(a, b); }

std::optional<int64_t> StaticNumel(const Shape& s) {
  std::optional<int64_t> n = 1;
  for (const Expr* d : s) {
    auto v = StaticInt(d);
    if (!v || !(n = CheckedMul(*n, *v))) return std::nullopt;  // overflow: not static
  }
  return n;
}

static std::string DimStrImpl(const Expr* e, bool nested) {
  if (e == nullptr) return "?";
  if (auto v = StaticInt(e)) return fmt::format("{}", *v);
  if (const auto* v = AsVarLike(e)) return v->name_hint;
  if (const auto* b = As<BinaryExpr>(e)) {
    if (b->op == BinaryOp::kMin || b->op == BinaryOp::kMax)
      return fmt::format("{}({}, {})", BinaryOpSymbol(b->op), DimStrImpl(b->lhs, false),
                         DimStrImpl(b->rhs, false));
    std::string s = fmt::format("{} {} {}", DimStrImpl(b->lhs, true), BinaryOpSymbol(b->op),
                                DimStrImpl(b->rhs, true));
    return nested ? "(" + s + ")" : s;
  }
  if (const auto* u = As<UnaryExpr>(e)) {
    if (u->op == UnaryOp::kNeg) return "-" + DimStrImpl(u->operand, true);
    return fmt::format("<{}>", NodeKindName(e->kind));
  }
  if (const auto* c = As<ConstBool>(e)) return c->value ? "True" : "False";
  if (const auto* f = As<ConstFloat>(e)) return fmt::format("{}", f->value);
  return PrintExpr(e);  // e.g. a host window's `pld.system.world_size()` dim
}

std::string DimStr(const Expr* e) { return DimStrImpl(e, false); }

std::string ShapeStr(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + DimStr(s[i]);
  return out + "]";
}

std::string DTypeStr(DataType d) {
  return "pl." + std::string(DTypeName(d));  // not-an-op-name: a dtype spelling
}

std::string MemStr(MemorySpace m) {
  auto n = EnumValueName(EnumKind::kMemorySpace, static_cast<int>(m));
  return n ? *n : fmt::format("pl.Mem.<{}>", static_cast<int>(m));
}

std::string TypeStr(const Type* t) {
  if (t == nullptr) return "<no type>";
  switch (t->kind) {
    case NodeKind::kUnknownType:
      return "pl.UnknownType";
    case NodeKind::kScalarType:
      return fmt::format("pl.Scalar[{}]", DTypeStr(Cast<ScalarType>(t)->dtype));
    case NodeKind::kTensorType:
    case NodeKind::kDistributedTensorType: {
      const auto* tt = AsTensorTypeLike(t);
      return fmt::format("{}[{}, {}]",
                         t->kind == NodeKind::kTensorType ? "pl.Tensor" : "pld.DistributedTensor",
                         ShapeStr(tt->shape), DTypeStr(tt->dtype));
    }
    case NodeKind::kTileType: {
      const auto* tt = Cast<TileType>(t);
      std::string s = fmt::format("pl.Tile[{}, {}", ShapeStr(tt->shape), DTypeStr(tt->dtype));
      if (tt->memory_space) s += ", " + MemStr(*tt->memory_space);
      return s + "]";
    }
    case NodeKind::kArrayType: {
      const auto* at = Cast<ArrayType>(t);
      return fmt::format("pl.Array[{}, {}]", at->extent, DTypeStr(at->dtype));
    }
    case NodeKind::kTupleType: {
      const auto* tt = Cast<TupleType>(t);
      if (tt->types.empty()) return "pl.Tuple[()]";
      std::string s = "pl.Tuple[";
      for (size_t i = 0; i < tt->types.size(); ++i) s += (i ? ", " : "") + TypeStr(tt->types[i]);
      return s + "]";
    }
    case NodeKind::kPtrType:
      return "pl.Ptr";
    case NodeKind::kCommCtxType:
      return "pld.CommCtx";
    case NodeKind::kWindowBufferType:
      return "pld.WindowBufferType";
    default:
      return fmt::format("<{}>", NodeKindName(t->kind));
  }
}

// ---- shaped-type accessors -----------------------------------------------------

std::optional<DataType> DTypeOf(const Type* t) {
  if (const auto* tt = AsTensorTypeLike(t)) return tt->dtype;
  if (const auto* tl = As<TileType>(t)) return tl->dtype;
  if (const auto* s = As<ScalarType>(t)) return s->dtype;
  return std::nullopt;
}

const Shape* ValidShapeRef(const Type* t) {
  if (const auto* tt = AsTensorTypeLike(t)) {
    if (tt->view && !tt->view->valid_shape.empty()) return &tt->view->valid_shape;
    return &tt->shape;
  }
  if (const auto* tl = As<TileType>(t)) {
    if (tl->view && !tl->view->valid_shape.empty()) return &tl->view->valid_shape;
    return &tl->shape;
  }
  return nullptr;
}

Shape ValidShapeOf(const Type* t) {
  if (const auto* tt = AsTensorTypeLike(t)) {
    if (tt->view && !tt->view->valid_shape.empty()) return tt->view->valid_shape;
    return tt->shape;
  }
  if (const auto* tl = As<TileType>(t)) {
    if (tl->view && !tl->view->valid_shape.empty()) return tl->view->valid_shape;
    return tl->shape;
  }
  return {};
}

std::optional<MemorySpace> MemOf(const Type* t) {
  if (const auto* tl = As<TileType>(t)) return tl->memory_space;
  return std::nullopt;
}

// One dim of IntersectValid(ctx, a, b).
static const Expr* IntersectDim(Context& ctx, const Expr* a, const Expr* b) {
  if (DimEqual(a, b)) return a;
  auto sa = StaticInt(a), sb = StaticInt(b);
  if (sa && sb) return *sa <= *sb ? a : b;
  return ctx.Make<BinaryExpr>(BinaryOp::kMin, a, b, ctx.Scalar(DataType::kIndex));
}

Shape IntersectValid(Context& ctx, const Shape& a, const Shape& b) {
  PYPTO_CHECK(a.size() == b.size(), "IntersectValid rank mismatch");
  Shape out;
  out.reserve(a.size());
  for (size_t i = 0; i < a.size(); ++i) out.push_back(IntersectDim(ctx, a[i], b[i]));
  return out;
}

Shape IntersectValid(Context& ctx, const Shape& a, const Shape& full_a, const Shape& b,
                     const Shape& full_b) {
  PYPTO_CHECK(a.size() == b.size() && a.size() == full_a.size() && b.size() == full_b.size(),
              "IntersectValid rank mismatch");
  // A side that is fully valid in a dim does not narrow it: the other side's
  // dim is taken as is (min nodes are built only where both sides narrow).
  Shape out;
  out.reserve(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    if (DimEqual(a[i], full_a[i]))
      out.push_back(b[i]);
    else if (DimEqual(b[i], full_b[i]))
      out.push_back(a[i]);
    else
      out.push_back(IntersectDim(ctx, a[i], b[i]));
  }
  return out;
}

// ---- canonical type builders ---------------------------------------------------

std::optional<TensorView> CanonicalTensorView(const Shape& shape, TensorView v) {
  if (SameShape(v.valid_shape, shape)) v.valid_shape.clear();
  TensorView def;
  if (v.stride.empty() && v.layout == def.layout && v.valid_shape.empty() && v.pad == def.pad)
    return std::nullopt;
  return v;
}

const TileType* MakeTileType(Context& ctx, const Shape& shape, DataType dt,
                             std::optional<MemorySpace> mem, const TileView& view) {
  // The canonical view (a fully valid valid_shape cleared; no view when every
  // field is default), without copying the view unless it must change.
  bool full_valid = view.valid_shape.empty() || SameShape(view.valid_shape, shape);
  TileView def;
  bool other_default = view.blayout == def.blayout && view.slayout == def.slayout &&
                       view.fractal == def.fractal && view.pad == def.pad;
  if (full_valid && other_default) return ctx.InternTileType(shape, dt, mem, nullptr);
  if (!full_valid || view.valid_shape.empty()) return ctx.InternTileType(shape, dt, mem, &view);
  TileView v = view;
  v.valid_shape.clear();
  return ctx.InternTileType(shape, dt, mem, &v);
}

const TileType* MakeTileType(Context& ctx, const Shape& shape, DataType dt,
                             std::optional<MemorySpace> mem, Shape valid_shape) {
  TileView v;
  v.valid_shape = std::move(valid_shape);
  return MakeTileType(ctx, shape, dt, mem, v);
}

const TensorType* MakeTensorType(Context& ctx, Shape shape, DataType dt,
                                 std::optional<TensorView> view) {
  std::optional<TensorView> v;
  if (view) v = CanonicalTensorView(shape, std::move(*view));
  return ctx.Make<TensorType>(std::move(shape), dt, std::move(v));
}

const TensorType* MakeTensorTypeLike(Context& ctx, const TensorType* like, Shape shape, DataType dt,
                                     std::optional<TensorView> view) {
  std::optional<TensorView> v;
  if (view) v = CanonicalTensorView(shape, std::move(*view));
  if (const auto* d = As<DistributedTensorType>(static_cast<const Type*>(like)))
    return ctx.Make<DistributedTensorType>(std::move(shape), dt, std::move(v), d->window_buffer);
  return ctx.Make<TensorType>(std::move(shape), dt, std::move(v));
}

const MakeTuple* MakeTupleOf(Context& ctx, std::vector<const Expr*> elems, Span s) {
  std::vector<const Type*> types;
  types.reserve(elems.size());
  for (const Expr* e : elems) types.push_back(e->type);
  return ctx.Make<MakeTuple>(std::move(elems), ctx.Make<TupleType>(std::move(types)), s);
}

const MakeTuple* MakeIndexTuple(Context& ctx, const std::vector<int64_t>& values, Span s) {
  std::vector<const Expr*> elems;
  elems.reserve(values.size());
  for (int64_t v : values) elems.push_back(ctx.Int(v, DataType::kIndex, s));
  return MakeTupleOf(ctx, std::move(elems), s);
}

// ---- more queries and builders -------------------------------------------------

bool ScalarAssignable(const Expr* value, DataType target) {
  auto d = ScalarDType(value);
  if (!d) return false;
  if (*d == target) return true;
  if (Isa<ConstInt>(value)) return target != DataType::kBool;
  if (Isa<ConstFloat>(value)) return IsFloat(target);
  return false;
}

Shape PackedStrides(Context& ctx, const Shape& shape) {
  Shape out(shape.size());
  const Expr* stride = nullptr;  // null = 1
  for (size_t k = shape.size(); k-- > 0;) {
    out[k] = stride ? stride : ctx.Int(1);
    const Expr* dim = shape[k];
    if (!stride) {
      stride = dim;
    } else {
      auto a = StaticInt(stride), b = StaticInt(dim);
      int64_t prod = 0;
      if (a && b && !__builtin_mul_overflow(*a, *b, &prod))
        stride = ctx.Int(prod);
      else
        stride = ctx.Make<BinaryExpr>(BinaryOp::kMul, dim, stride, ctx.Scalar(DataType::kIndex));
    }
  }
  return out;
}

Shape MergeLeadingDims(Context& ctx, const Shape& dims) {
  if (dims.size() <= 2) return dims;
  IRBuilder b(ctx);
  const Expr* rows = dims[0];
  for (size_t k = 1; k + 1 < dims.size(); ++k) rows = b.Mul(rows, dims[k]);
  return {rows, dims.back()};
}

bool MergedValidContiguous(const Shape& shape, const Shape& valid) {
  if (shape.size() <= 2 || valid.size() != shape.size()) return true;
  bool ones_so_far = true;  // valid dims before k are all statically 1
  for (size_t k = 0; k + 1 < shape.size(); ++k) {
    if (k > 0 && !ones_so_far && !DimEqual(valid[k], shape[k])) return false;
    ones_so_far = ones_so_far && StaticInt(valid[k]) == 1;
  }
  return true;
}

// ---- core affinity ---------------------------------------------------------------

bool IsCubeMemory(MemorySpace m) {
  return m == MemorySpace::kMat || m == MemorySpace::kLeft || m == MemorySpace::kRight ||
         m == MemorySpace::kAcc || m == MemorySpace::kBias;
}

bool IsVectorMemory(MemorySpace m) { return m == MemorySpace::kVec; }

}  // namespace pypto::ir
