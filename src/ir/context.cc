// ir::Context construction and small out-of-line node helpers.
#include "pypto/ir/context.h"

#include "pypto/ir/op_registry.h"

namespace pypto::ir {

Context::Context() {
  unknown_ = Make<UnknownType>();
  ptr_ = Make<PtrType>();
  comm_ctx_ = Make<CommCtxType>();
  window_buffer_ = Make<WindowBufferType>();
  for (size_t i = 0; i <= static_cast<size_t>(DataType::kIndex); ++i)
    scalars_[i] = Make<ScalarType>(static_cast<DataType>(i));
}

namespace {

size_t Mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

size_t HashTile(const TileType& t) {
  size_t h = Mix(static_cast<size_t>(t.dtype), t.shape.size());
  for (const Expr* e : t.shape) h = Mix(h, reinterpret_cast<uintptr_t>(e));
  h = Mix(h, t.memory_space ? static_cast<size_t>(*t.memory_space) + 1 : 0);
  if (t.view) {
    h = Mix(h, t.view->valid_shape.size() + 1);
    for (const Expr* e : t.view->valid_shape) h = Mix(h, reinterpret_cast<uintptr_t>(e));
    h = Mix(h, static_cast<size_t>(t.view->blayout));
    h = Mix(h, static_cast<size_t>(t.view->slayout));
    h = Mix(h, static_cast<size_t>(t.view->fractal));
    h = Mix(h, static_cast<size_t>(t.view->pad));
  }
  return h;
}

bool SameSpan(const Span& a, const Span& b) {
  return a.file == b.file && a.line == b.line && a.col == b.col && a.length == b.length;
}

// Field-for-field identity (Exprs by pointer).
bool SameTile(const TileType& a, const TileType& b) {
  if (a.dtype != b.dtype || a.shape != b.shape || a.memory_space != b.memory_space ||
      a.view.has_value() != b.view.has_value() || !SameSpan(a.span, b.span))
    return false;
  if (!a.view) return true;
  const TileView &x = *a.view, &y = *b.view;
  return x.valid_shape == y.valid_shape && x.blayout == y.blayout && x.slayout == y.slayout &&
         x.fractal == y.fractal && x.pad == y.pad;
}

}  // namespace

TileType* Context::InternTile(TileType&& t) {
  size_t h = HashTile(t);
  auto [lo, hi] = tiles_.equal_range(h);
  for (auto it = lo; it != hi; ++it)
    if (SameTile(*it->second, t)) return it->second;
  TileType* made = arena_.New<TileType>(std::move(t));
  tiles_.emplace(h, made);
  return made;
}

std::string_view NodeKindName(NodeKind k) {
  switch (k) {
#define PYPTO_TYPE(N) \
  case NodeKind::k##N: \
    return #N;
#define PYPTO_EXPR(N) PYPTO_TYPE(N)
#define PYPTO_STMT(N) PYPTO_TYPE(N)
#include "pypto/ir/node_kinds.def"
    default:
      return "?";
  }
}

DataType ConstInt::dtype() const { return static_cast<const ScalarType*>(type)->dtype; }
DataType ConstFloat::dtype() const { return static_cast<const ScalarType*>(type)->dtype; }

bool Call::IsOp(std::string_view name) const { return op != nullptr && op->name == name; }
std::string_view Call::OpName() const { return op ? std::string_view(op->name) : std::string_view(); }

std::string_view BinaryOpSymbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSub: return "-";
    case BinaryOp::kMul: return "*";
    case BinaryOp::kDiv: return "/";
    case BinaryOp::kFloorDiv: return "//";
    case BinaryOp::kFloorMod: return "%";
    case BinaryOp::kPow: return "**";
    case BinaryOp::kMin: return "min";
    case BinaryOp::kMax: return "max";
    case BinaryOp::kEq: return "==";
    case BinaryOp::kNe: return "!=";
    case BinaryOp::kLt: return "<";
    case BinaryOp::kLe: return "<=";
    case BinaryOp::kGt: return ">";
    case BinaryOp::kGe: return ">=";
    case BinaryOp::kAnd: return "and";
    case BinaryOp::kOr: return "or";
    case BinaryOp::kBitAnd: return "&";
    case BinaryOp::kBitOr: return "|";
    case BinaryOp::kBitXor: return "^";
    case BinaryOp::kShl: return "<<";
    case BinaryOp::kShr: return ">>";
  }
  return "?";
}

bool IsComparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt ||
         op == BinaryOp::kLe || op == BinaryOp::kGt || op == BinaryOp::kGe;
}

}  // namespace pypto::ir
