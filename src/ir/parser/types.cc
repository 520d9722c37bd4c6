// Type annotations: `pl.Scalar[pl.INT32]`, `pl.Tensor[[16, 64], pl.FP16, pl.TensorView(...)]`,
// `pld.DistributedTensor[[NR, 1], pl.INT32]`, `pl.Tile[[16, 32], pl.FP16, pl.Mem.Vec,
// pl.TileView(...)]`, `pl.Tuple[...]`, `pl.Ptr`, `pld.CommCtx`, `pld.WindowBufferType`,
// `pl.UnknownType`; parameters may wrap theirs in `pl.InOut[...]` / `pl.Out[...]`.
// Also the structural type equality used to check `x: T = value` annotations.
#include <fmt/format.h>

#include "lower.h"
#include "pypto/ir/type_dims_check.h"

namespace pypto::ir::parser {

namespace {

std::vector<const PyExpr*> SubscriptItems(const PyExpr* idx) {
  std::vector<const PyExpr*> v;
  if (!idx) return v;
  if (idx->kind == EK::kTuple && !idx->parenthesized)
    v.assign(idx->items.begin(), idx->items.end());
  else
    v.push_back(idx);
  return v;
}

bool ExprListEq(const std::vector<const Expr*>& a, const std::vector<const Expr*>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!Lowerer::ExprEq(a[i], b[i])) return false;
  return true;
}

bool AttrEq(const Attr& a, const Attr& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Attr::Kind::kNone:
      return true;
    case Attr::Kind::kInt:
      return a.i == b.i;
    case Attr::Kind::kEnum:
      return a.i == b.i && a.enum_kind == b.enum_kind;
    case Attr::Kind::kFloat:
      return a.f == b.f;
    case Attr::Kind::kBool:
      return a.b == b.b;
    case Attr::Kind::kString:
      return a.s == b.s;
    case Attr::Kind::kDType:
      return a.dtype == b.dtype;
    case Attr::Kind::kExpr:
      return Lowerer::ExprEq(a.expr, b.expr);
    case Attr::Kind::kList:
      if (a.list.size() != b.list.size()) return false;
      for (size_t i = 0; i < a.list.size(); ++i)
        if (!AttrEq(a.list[i], b.list[i])) return false;
      return true;
  }
  return false;
}

bool AttrListEq(const AttrList& a, const AttrList& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || !AttrEq(a[i].value, b[i].value)) return false;
  return true;
}

}  // namespace

bool Lowerer::ExprEq(const Expr* a, const Expr* b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  if (auto* x = As<ConstInt>(a)) {
    auto* y = Cast<ConstInt>(b);
    return x->value == y->value && x->dtype() == y->dtype();
  }
  if (auto* x = As<ConstFloat>(a)) {
    auto* y = Cast<ConstFloat>(b);
    return x->value == y->value && x->dtype() == y->dtype();
  }
  if (auto* x = As<ConstBool>(a)) return x->value == Cast<ConstBool>(b)->value;
  if (auto* x = As<BinaryExpr>(a)) {
    auto* y = Cast<BinaryExpr>(b);
    return x->op == y->op && ExprEq(x->lhs, y->lhs) && ExprEq(x->rhs, y->rhs);
  }
  if (auto* x = As<UnaryExpr>(a)) {
    auto* y = Cast<UnaryExpr>(b);
    return x->op == y->op && TypeEq(x->type, y->type) && ExprEq(x->operand, y->operand);
  }
  if (auto* x = As<MakeTuple>(a)) return ExprListEq(x->elements, Cast<MakeTuple>(b)->elements);
  if (auto* x = As<TupleGetItem>(a)) {
    auto* y = Cast<TupleGetItem>(b);
    return x->index == y->index && ExprEq(x->tuple, y->tuple);
  }
  if (auto* x = As<Call>(a)) {  // e.g. a dim written pld.system.world_size()
    auto* y = Cast<Call>(b);
    return x->op == y->op && x->callee == y->callee && ExprListEq(x->args, y->args) &&
           AttrListEq(x->kwargs, y->kwargs) && AttrListEq(x->attrs, y->attrs);
  }
  return false;
}

bool Lowerer::TypeEq(const Type* a, const Type* b) {
  if (a == b) return true;
  if (!a || !b || a->kind != b->kind) return false;
  switch (a->kind) {
    case NodeKind::kScalarType:
      return Cast<ScalarType>(a)->dtype == Cast<ScalarType>(b)->dtype;
    case NodeKind::kTensorType:
    case NodeKind::kDistributedTensorType: {
      auto *x = AsTensorTypeLike(a), *y = AsTensorTypeLike(b);
      if (x->dtype != y->dtype || !ExprListEq(x->shape, y->shape)) return false;
      if (x->view.has_value() != y->view.has_value()) return false;
      if (x->view) {
        const TensorView &u = *x->view, &w = *y->view;
        if (u.layout != w.layout || u.pad != w.pad || !ExprListEq(u.stride, w.stride) ||
            !ExprListEq(u.valid_shape, w.valid_shape))
          return false;
      }
      if (a->kind == NodeKind::kDistributedTensorType)
        return Cast<DistributedTensorType>(a)->window_buffer ==
               Cast<DistributedTensorType>(b)->window_buffer;
      return true;
    }
    case NodeKind::kTileType: {
      auto *x = Cast<TileType>(a), *y = Cast<TileType>(b);
      if (x->dtype != y->dtype || !ExprListEq(x->shape, y->shape) ||
          x->memory_space != y->memory_space || x->view.has_value() != y->view.has_value())
        return false;
      if (x->view) {
        const TileView &u = *x->view, &w = *y->view;
        return u.blayout == w.blayout && u.slayout == w.slayout && u.fractal == w.fractal &&
               u.pad == w.pad && ExprListEq(u.valid_shape, w.valid_shape);
      }
      return true;
    }
    case NodeKind::kArrayType: {
      auto *x = Cast<ArrayType>(a), *y = Cast<ArrayType>(b);
      return x->dtype == y->dtype && x->extent == y->extent;
    }
    case NodeKind::kTupleType: {
      auto *x = Cast<TupleType>(a), *y = Cast<TupleType>(b);
      if (x->types.size() != y->types.size()) return false;
      for (size_t i = 0; i < x->types.size(); ++i)
        if (!TypeEq(x->types[i], y->types[i])) return false;
      return true;
    }
    default:
      return true;  // leaf types of the same kind
  }
}

namespace {

// Appends a key for an annotation whose lowering depends on its text alone
// (dotted pl./pld. names, integer literals, lists, tuples and subscripts:
// no bare names, which could be locals, constants or dynamic dims); false for
// anything else.
bool AnnotationKey(const PyExpr* e, std::string* key, int depth) {
  if (!e || depth > 64) return false;
  key->push_back(static_cast<char>(e->kind));
  key->push_back(e->parenthesized ? 'p' : '-');
  switch (e->kind) {
    case EK::kAttr: {
      const PyExpr* root = e;
      while (root->kind == EK::kAttr) root = root->a;
      if (root->kind != EK::kName || (root->str != "pl" && root->str != "pld")) return false;
      for (const PyExpr* x = e; x->kind == EK::kAttr; x = x->a) {
        key->append(x->str);
        key->push_back('.');
      }
      key->append(root->str);
      key->push_back('\0');
      return true;
    }
    case EK::kInt:
      key->append(reinterpret_cast<const char*>(&e->ival), sizeof(e->ival));
      key->push_back(e->neg ? 'n' : '+');
      key->push_back(e->overflow ? 'o' : '-');
      return true;
    case EK::kList:
    case EK::kTuple:
      if (e->items.size() > 255) return false;
      key->push_back(static_cast<char>(e->items.size()));
      for (const PyExpr* x : e->items)
        if (!AnnotationKey(x, key, depth + 1)) return false;
      return true;
    case EK::kSubscript:
      return AnnotationKey(e->a, key, depth + 1) && AnnotationKey(e->b, key, depth + 1);
    default:
      return false;
  }
}

}  // namespace

bool Lowerer::AnnotationMatches(std::string_view text, const Type* t) {
  if (text.empty()) return false;
  // Consecutive statements often repeat one annotation: compare with the last
  // text found before hashing (entries never change once made).
  if (last_ann_text_.empty() || text != last_ann_text_) {
    auto it = ann_types_.find(text);
    if (it == ann_types_.end()) return false;
    last_ann_text_ = it->first;
    last_ann_type_ = it->second;
    last_ann_value_type_ = nullptr;
  }
  if (!last_ann_type_) return false;
  // TypeEq is structural and types are immutable: the answer for the value
  // type compared last is still valid (values of one op often share a type).
  if (t != last_ann_value_type_) {
    last_ann_value_type_ = t;
    last_ann_equal_ = TypeEq(last_ann_type_, t);
  }
  return last_ann_equal_;
}

void Lowerer::RememberAnnotation(const PyExpr* ann, std::string_view text, const Type* lowered) {
  if (text.empty() || !lowered || ann_types_.count(text)) return;
  // Equal text means equal tokens, so an equal tree; whether that tree's
  // meaning depends on its text alone is decided once per distinct text
  // (null: it does not, never use the cache for it).
  std::string key;
  ann_types_.emplace(text, AnnotationKey(ann, &key, 0) ? lowered : nullptr);
}

const Type* Lowerer::LowerParamType(const PyExpr* e, ParamDirection* dir) {
  *dir = ParamDirection::kIn;
  if (e->kind == EK::kSubscript) {
    std::string head = DottedName(e->a);
    if (head == "pl.InOut" || head == "pl.Out") {
      *dir = head == "pl.InOut" ? ParamDirection::kInOut : ParamDirection::kOut;
      return LowerType(e->b);
    }
  }
  return LowerType(e);
}

namespace {

struct ShapeParse {
  Lowerer* lw;
  bool ok = true;
  // A bare unknown name used as a dimension in a type annotation declares a
  // dynamic dim, as upstream's text parser does (`pl.Tensor[[1, N], ...]` with N
  // never assigned means N = pl.dynamic("N")). Only in annotations: an unknown
  // name in a statement stays an error so typos are caught.
  void DeclareImplicitDim(const PyExpr* d) {
    if (d->kind != EK::kName || lw->scope_.count(d->str) || lw->consts_.count(d->str) ||
        lw->func_index_.count(d->str) || lw->non_const_globals_.count(d->str))
      return;
    for (const Var* v : lw->dyn_dims_)
      if (v->name_hint == d->str) return;
    lw->dyn_dims_.push_back(lw->ctx_.NewVar(d->str, lw->ctx_.Scalar(DataType::kIndex), d->span));
  }
  std::vector<const Expr*> Shape(const PyExpr* e, const char* what) {
    std::vector<const Expr*> dims;
    if (e->kind == EK::kName && lw->consts_.count(e->str) &&
        lw->consts_[e->str].k == ConstVal::K::kList) {
      for (const ConstVal& c : lw->consts_[e->str].list) {
        const Expr* d = lw->ConstToExpr(c, e->span);
        if (!d) ok = false;
        dims.push_back(d);
      }
      return dims;
    }
    if (e->kind != EK::kList && e->kind != EK::kTuple) {
      lw->Error(e->span, fmt::format("{}: expected a list of dimensions such as [16, 64]", what));
      ok = false;
      return dims;
    }
    for (const PyExpr* d : e->items) {
      DeclareImplicitDim(d);
      const Expr* x = lw->LowerScalar(d, "dimension");
      if (!x) ok = false;
      dims.push_back(x);
    }
    return dims;
  }
};

// `t` when its dims obey the type rules (type_dims_check.h: integer, positive
// when constant after folding), else nullptr after an error at each bad dim.
const Type* CheckDims(Lowerer& lw, const PyExpr* ann, const Type* t) {
  int bad = CheckTypeDims(t, [&](Span at, std::string msg) {
    lw.Error(at.IsKnown() ? at : ann->span, std::move(msg));
  });
  return bad ? nullptr : t;
}

// The pieces of a subscripted type annotation `head[items...]`, shared by the
// per-head lowerings below.
struct TypeArgs {
  Lowerer* lw;
  const PyExpr* e;  // the whole annotation (its span is where "missing" errors go)
  const std::vector<const PyExpr*>& items;

  // items[i] as an element dtype, reporting `what: missing ...` / `expected a dtype`.
  std::optional<DataType> DTypeAt(size_t i, const char* what) const {
    if (i >= items.size()) {
      lw->Error(e->span, fmt::format("{}: missing the element dtype (e.g. pl.FP32)", what));
      return std::nullopt;
    }
    auto dt = lw->DTypeOf(items[i]);
    if (!dt) lw->Error(items[i]->span, lw->ExpectedDType(what, items[i]));
    return dt;
  }
};

// `pl.Ptr`, `pld.CommCtx`, `pl.FP32` (a scalar), ... : a type written as a name.
const Type* LowerNamedType(Lowerer& lw, const PyExpr* e) {
  std::string n = DottedName(e);
  if (n == "pl.Ptr") return lw.ctx_.Ptr();
  if (n == "pld.CommCtx" || n == "pld.CommCtxType") return lw.ctx_.CommCtx();
  if (n == "pld.WindowBufferType" || n == "pld.WindowBuffer") return lw.ctx_.WindowBuffer();
  if (n == "pl.UnknownType") return lw.ctx_.Unknown();
  if (auto dt = lw.DTypeOf(e)) return lw.ctx_.Scalar(*dt);
  lw.Error(e->span, fmt::format("unknown type '{}'; expected pl.Scalar[...], pl.Tensor[...], "
                                "pld.DistributedTensor[...], pl.Tile[...], pl.Tuple[...], pl.Ptr, "
                                "pld.CommCtx, pld.WindowBufferType or pl.UnknownType",
                                n.empty() ? "<expression>" : n));
  return nullptr;
}

const Type* LowerScalarType(const TypeArgs& a) {
  if (a.items.size() != 1) {
    a.lw->Error(a.e->span, "pl.Scalar: expected exactly one dtype, e.g. pl.Scalar[pl.INT32]");
    return nullptr;
  }
  auto dt = a.DTypeAt(0, "pl.Scalar");
  return dt ? a.lw->ctx_.Scalar(*dt) : nullptr;
}

// `pl.TensorView(stride=, layout=, valid_shape=, pad=)`; clears sp.ok on errors.
TensorView LowerTensorView(ShapeParse& sp, const PyExpr* x) {
  Lowerer* lw = sp.lw;
  TensorView v;
  for (const Keyword& kw : x->kwargs) {
    if (kw.name == "stride")
      v.stride = sp.Shape(kw.value, "TensorView stride");
    else if (kw.name == "valid_shape")
      v.valid_shape = sp.Shape(kw.value, "TensorView valid_shape");
    else if (kw.name == "layout" || kw.name == "pad") {
      auto ev = lw->EnumOf(kw.value);
      EnumKind want = kw.name == "layout" ? EnumKind::kTensorLayout : EnumKind::kPadValue;
      if (!ev || ev->first != want) {
        lw->Error(kw.value->span, fmt::format("pl.TensorView: '{}' must be a {} value", kw.name,
                                              GetEnumDesc(want).prefix));
        sp.ok = false;
      } else if (kw.name == "layout") {
        v.layout = static_cast<TensorLayout>(ev->second);
      } else {
        v.pad = static_cast<PadValue>(ev->second);
      }
    } else {
      lw->Error(kw.span, fmt::format("pl.TensorView: unknown field '{}' (expected stride, "
                                     "layout, valid_shape, pad)",
                                     kw.name));
      sp.ok = false;
    }
  }
  if (!x->items.empty()) {
    lw->Error(x->span, "pl.TensorView: fields must be given by keyword");
    sp.ok = false;
  }
  return v;
}

// `pl.Tensor[shape, dtype, view?]` / `pld.DistributedTensor[shape, dtype, view?,
// "window_buffer=NAME"?]`.
const Type* LowerTensorType(const TypeArgs& a, bool dist) {
  Lowerer* lw = a.lw;
  const auto& items = a.items;
  ShapeParse sp{lw};
  const char* what = dist ? "pld.DistributedTensor" : "pl.Tensor";
  if (items.empty()) {
    lw->Error(a.e->span, fmt::format("{}: expected [shape, dtype]", what));
    return nullptr;
  }
  std::vector<const Expr*> shape = sp.Shape(items[0], what);
  auto dt = a.DTypeAt(1, what);
  std::optional<TensorView> view;
  std::string wb;
  for (size_t i = 2; i < items.size(); ++i) {
    const PyExpr* x = items[i];
    if (x->kind == EK::kCall && DottedNameIs(x->a, "pl.TensorView")) {
      view = LowerTensorView(sp, x);
    } else if (dist && x->kind == EK::kString && x->str.rfind("window_buffer=", 0) == 0) {
      wb = x->str.substr(14);
    } else {
      lw->Error(x->span,
                fmt::format("{}: unexpected type argument; expected pl.TensorView(...)", what));
      sp.ok = false;
    }
  }
  if (!sp.ok || !dt) return nullptr;
  const Type* t =
      dist ? lw->ctx_.Make<DistributedTensorType>(std::move(shape), *dt, std::move(view), wb)
           : lw->ctx_.Make<TensorType>(std::move(shape), *dt, std::move(view));
  return CheckDims(*lw, a.e, t);
}

// `pl.TileView(valid_shape=, blayout=, slayout=, fractal=, pad=)`; clears sp.ok on errors.
TileView LowerTileView(ShapeParse& sp, const PyExpr* x) {
  Lowerer* lw = sp.lw;
  TileView v;
  for (const Keyword& kw : x->kwargs) {
    if (kw.name == "valid_shape") {
      v.valid_shape = sp.Shape(kw.value, "TileView valid_shape");
    } else if (kw.name == "fractal") {
      auto c = lw->EvalConst(kw.value, false);
      if (!c || c->k != ConstVal::K::kInt) {
        lw->Error(kw.value->span, "pl.TileView: 'fractal' must be an integer constant");
        sp.ok = false;
      } else {
        v.fractal = c->i;
      }
    } else if (kw.name == "blayout" || kw.name == "slayout" || kw.name == "pad") {
      auto ev = lw->EnumOf(kw.value);
      EnumKind want = kw.name == "pad" ? EnumKind::kPadValue : EnumKind::kTileLayout;
      if (!ev || ev->first != want) {
        lw->Error(kw.value->span, fmt::format("pl.TileView: '{}' must be a {} value", kw.name,
                                              GetEnumDesc(want).prefix));
        sp.ok = false;
      } else if (kw.name == "pad") {
        v.pad = static_cast<PadValue>(ev->second);
      } else if (kw.name == "blayout") {
        v.blayout = static_cast<TileLayout>(ev->second);
      } else {
        v.slayout = static_cast<TileLayout>(ev->second);
      }
    } else {
      lw->Error(kw.span, fmt::format("pl.TileView: unknown field '{}' (expected valid_shape, "
                                     "blayout, slayout, fractal, pad)",
                                     kw.name));
      sp.ok = false;
    }
  }
  return v;
}

// `pl.Tile[shape, dtype, memory space?, view?]`.
const Type* LowerTileType(const TypeArgs& a) {
  Lowerer* lw = a.lw;
  const auto& items = a.items;
  ShapeParse sp{lw};
  if (items.empty()) {
    lw->Error(a.e->span, "pl.Tile: expected [shape, dtype]");
    return nullptr;
  }
  std::vector<const Expr*> shape = sp.Shape(items[0], "pl.Tile");
  auto dt = a.DTypeAt(1, "pl.Tile");
  std::optional<MemorySpace> mem;
  std::optional<TileView> view;
  for (size_t i = 2; i < items.size(); ++i) {
    const PyExpr* x = items[i];
    if (x->kind == EK::kCall && DottedNameIs(x->a, "pl.TileView")) {
      view = LowerTileView(sp, x);
      continue;
    }
    auto ev = lw->EnumOf(x);
    if (ev && ev->first == EnumKind::kMemorySpace && !mem && !view) {
      mem = static_cast<MemorySpace>(ev->second);
      continue;
    }
    lw->Error(x->span,
              "pl.Tile: unexpected type argument; expected a memory space (pl.Mem.Vec) "
              "then optionally pl.TileView(...)");
    sp.ok = false;
  }
  if (!sp.ok || !dt) return nullptr;
  return CheckDims(*lw, a.e, lw->ctx_.Make<TileType>(std::move(shape), *dt, mem, std::move(view)));
}

// `pl.Array[extent, dtype]`: extent a positive integer constant.
const Type* LowerArrayType(const TypeArgs& a) {
  Lowerer* lw = a.lw;
  const auto& items = a.items;
  if (items.size() != 2) {
    lw->Error(a.e->span, "pl.Array: expected [extent, dtype], e.g. pl.Array[16, pl.INT32]");
    return nullptr;
  }
  auto n = lw->EvalConst(items[0], false);
  if (!n || n->k != ConstVal::K::kInt || n->i <= 0) {
    lw->Error(items[0]->span, "pl.Array: the extent must be a positive integer constant");
    return nullptr;
  }
  auto dt = a.DTypeAt(1, "pl.Array");
  return dt ? lw->ctx_.Make<ArrayType>(*dt, n->i) : nullptr;
}

}  // namespace

const Type* Lowerer::LowerType(const PyExpr* e) {
  if (!e) return nullptr;
  if (e->kind == EK::kName || e->kind == EK::kAttr) return LowerNamedType(*this, e);
  if (e->kind != EK::kSubscript) {
    Error(e->span, "expected a type such as pl.Tensor[[16, 64], pl.FP32]");
    return nullptr;
  }
  std::string head = DottedName(e->a);
  std::vector<const PyExpr*> items = SubscriptItems(e->b);
  const TypeArgs args{this, e, items};
  if (head == "pl.Scalar") return LowerScalarType(args);
  if (head == "pl.Tensor" || head == "pld.DistributedTensor")
    return LowerTensorType(args, head == "pld.DistributedTensor");
  if (head == "pl.Tile") return LowerTileType(args);
  if (head == "pl.Array") return LowerArrayType(args);
  if (head == "pl.Tuple") {
    std::vector<const Type*> types;
    if (e->b && e->b->kind == EK::kTuple && e->b->items.empty()) return ctx_.Make<TupleType>(types);
    bool ok = true;
    for (const PyExpr* x : items) {
      const Type* t = LowerType(x);
      ok &= t != nullptr;
      types.push_back(t);
    }
    return ok ? ctx_.Make<TupleType>(std::move(types)) : nullptr;
  }
  if (head == "pl.InOut" || head == "pl.Out") {
    Error(e->span, fmt::format("{}[...] is only allowed on function parameters", head));
    return nullptr;
  }
  Error(e->span, fmt::format("unknown type '{}[...]'; expected pl.Scalar, pl.Tensor, "
                             "pld.DistributedTensor, pl.Tile or pl.Tuple",
                             head.empty() ? "<expression>" : head));
  return nullptr;
}

}  // namespace pypto::ir::parser
