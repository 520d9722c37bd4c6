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

// Slot of hash `h` in a table of mask + 1 slots (the high product bits, well
// mixed even when `h`'s low bits are not).
size_t SlotOf(size_t h, size_t mask) {
  return static_cast<size_t>((static_cast<uint64_t>(h) * 0x9e3779b97f4a7c15ULL) >> 32) & mask;
}

size_t HashTile(const std::vector<const Expr*>& shape, DataType dtype,
                std::optional<MemorySpace> mem, const TileView* view) {
  size_t h = Mix(static_cast<size_t>(dtype), shape.size());
  for (const Expr* e : shape) h = Mix(h, reinterpret_cast<uintptr_t>(e));
  h = Mix(h, mem ? static_cast<size_t>(*mem) + 1 : 0);
  if (view) {
    h = Mix(h, view->valid_shape.size() + 1);
    for (const Expr* e : view->valid_shape) h = Mix(h, reinterpret_cast<uintptr_t>(e));
    h = Mix(h, static_cast<size_t>(view->blayout));
    h = Mix(h, static_cast<size_t>(view->slayout));
    h = Mix(h, static_cast<size_t>(view->fractal));
    h = Mix(h, static_cast<size_t>(view->pad));
  }
  return h;
}

// Field-for-field identity (Exprs by pointer). Interned tiles are built
// without a span, so the candidate's (unknown) span always matches.
bool SameTile(const TileType& a, const std::vector<const Expr*>& shape, DataType dtype,
              std::optional<MemorySpace> mem, const TileView* view) {
  if (a.dtype != dtype || a.shape != shape || a.memory_space != mem ||
      a.view.has_value() != (view != nullptr))
    return false;
  if (!view) return true;
  const TileView &x = *a.view, &y = *view;
  return x.valid_shape == y.valid_shape && x.blayout == y.blayout && x.slayout == y.slayout &&
         x.fractal == y.fractal && x.pad == y.pad;
}

}  // namespace

void Context::GrowTiles() {
  std::vector<TileSlot> old = std::move(tile_slots_);
  tile_slots_.assign(old.empty() ? 64 : old.size() * 2, TileSlot{});
  size_t mask = tile_slots_.size() - 1;
  for (const TileSlot& s : old) {
    if (!s.tile) continue;
    size_t i = SlotOf(s.hash, mask);
    while (tile_slots_[i].tile) i = (i + 1) & mask;
    tile_slots_[i] = s;
  }
}

TileType* Context::InternTile(const std::vector<const Expr*>& shape, DataType dtype,
                              std::optional<MemorySpace> mem, const TileView* view,
                              TileType* from) {
  size_t h = HashTile(shape, dtype, mem, view);
  if (2 * (tile_count_ + 1) > tile_slots_.size()) GrowTiles();
  size_t mask = tile_slots_.size() - 1;
  size_t i = SlotOf(h, mask);
  for (; tile_slots_[i].tile; i = (i + 1) & mask) {
    const TileSlot& s = tile_slots_[i];
    if (s.hash == h && SameTile(*s.tile, shape, dtype, mem, view)) return s.tile;
  }
  TileType* made = from ? arena_.New<TileType>(std::move(*from))
                        : arena_.New<TileType>(
                              shape, dtype, mem,
                              view ? std::optional<TileView>(*view) : std::optional<TileView>());
  tile_slots_[i] = {h, made};
  ++tile_count_;
  return made;
}

std::string_view NodeKindName(NodeKind k) {
  switch (k) {
#define PYPTO_TYPE(N, ...) \
  case NodeKind::k##N:     \
    return #N;
#define PYPTO_EXPR(N, ...) PYPTO_TYPE(N)
#define PYPTO_STMT(N, ...) PYPTO_TYPE(N)
#include "pypto/ir/node_kinds.def"
    default:
      return "?";
  }
}

DataType ConstInt::dtype() const { return static_cast<const ScalarType*>(type)->dtype; }
DataType ConstFloat::dtype() const { return static_cast<const ScalarType*>(type)->dtype; }

bool Call::Is(OpHandle h) const { return op != nullptr && op->handle == h; }
bool Call::IsOp(std::string_view name) const { return op != nullptr && op->name == name; }
std::string_view Call::OpName() const {
  return op ? std::string_view(op->name) : std::string_view();
}

std::string_view BinaryOpSymbol(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kFloorDiv:
      return "//";
    case BinaryOp::kFloorMod:
      return "%";
    case BinaryOp::kPow:
      return "**";
    case BinaryOp::kMin:
      return "min";
    case BinaryOp::kMax:
      return "max";
    case BinaryOp::kEq:
      return "==";
    case BinaryOp::kNe:
      return "!=";
    case BinaryOp::kLt:
      return "<";
    case BinaryOp::kLe:
      return "<=";
    case BinaryOp::kGt:
      return ">";
    case BinaryOp::kGe:
      return ">=";
    case BinaryOp::kAnd:
      return "and";
    case BinaryOp::kOr:
      return "or";
    case BinaryOp::kBitAnd:
      return "&";
    case BinaryOp::kBitOr:
      return "|";
    case BinaryOp::kBitXor:
      return "^";
    case BinaryOp::kShl:
      return "<<";
    case BinaryOp::kShr:
      return ">>";
  }
  return "?";
}

bool IsComparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt || op == BinaryOp::kLe ||
         op == BinaryOp::kGt || op == BinaryOp::kGe;
}

}  // namespace pypto::ir
