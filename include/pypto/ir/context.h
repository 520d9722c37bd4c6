// ir::Context owns everything one compilation session builds: the node arena,
// the source files seen (for diagnostics), and the counter that gives each Var a
// unique id. Simple types (Unknown, Ptr, Scalar[dt], ...) are interned so they
// can be compared by pointer; TileTypes are hash-consed by field identity (see
// Make); other shaped types are built fresh. Compare shaped types with
// StructuralEqual. Not thread-safe for building; read-only sharing is fine.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "pypto/core/arena.h"
#include "pypto/core/diagnostics.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/function.h"
#include "pypto/ir/program.h"
#include "pypto/ir/stmt.h"
#include "pypto/ir/type.h"

namespace pypto::ir {

class Context {
 public:
  Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  // TileTypes are hash-consed: a TileType equal in every field (shape and
  // valid_shape compared by Expr pointer, so spans are never merged) to one
  // made before is that one. Op deducers make one per call; a million
  // `pl.tile.add`s of the same tiles then cost one type. Nodes are immutable,
  // so sharing is invisible except through pointer comparison of types.
  template <typename T, typename... Args>
  T* Make(Args&&... args) {
    if constexpr (std::is_same_v<T, TileType>) {
      TileType t(std::forward<Args>(args)...);
      return InternTile(t.shape, t.dtype, t.memory_space, t.view ? &*t.view : nullptr, &t);
    } else if constexpr (std::is_same_v<T, Var> || std::is_same_v<T, IterArg>) {
      // A Var's only owning member is its name: a short name is stored in
      // place and its destructor frees nothing, so no destructor record.
      return arena_.NewDtorIf<T>(
          [](const T& v) { return v.name_hint.capacity() > std::string().capacity(); },
          std::forward<Args>(args)...);
    } else {
      return arena_.New<T>(std::forward<Args>(args)...);
    }
  }

  // The interned TileType with exactly these fields (Exprs compared by
  // pointer), built only when there is none yet: the lookup itself copies
  // nothing, so deducers whose result type already exists allocate nothing.
  // `view` may be null (no view); pass it in canonical form (a fully valid
  // valid_shape cleared, no view when every field is default; see MakeTileType
  // in op_utils.h) as Make<TileType> callers do.
  const TileType* InternTileType(const std::vector<const Expr*>& shape, DataType dtype,
                                 std::optional<MemorySpace> mem, const TileView* view) {
    return InternTile(shape, dtype, mem, view, nullptr);
  }

  const UnknownType* Unknown() const { return unknown_; }
  const PtrType* Ptr() const { return ptr_; }
  const CommCtxType* CommCtx() const { return comm_ctx_; }
  const WindowBufferType* WindowBuffer() const { return window_buffer_; }
  const ScalarType* Scalar(DataType dt) const { return scalars_[static_cast<size_t>(dt)]; }

  // Convenience constructors for leaves.
  const ConstInt* Int(int64_t v, DataType dt = DataType::kIndex, Span s = {}) {
    return Make<ConstInt>(v, Scalar(dt), s);
  }
  const ConstFloat* Float(double v, DataType dt = DataType::kFP32, Span s = {}) {
    return Make<ConstFloat>(v, Scalar(dt), s);
  }
  const ConstBool* Bool(bool v, Span s = {}) {
    return Make<ConstBool>(v, Scalar(DataType::kBool), s);
  }
  const Var* NewVar(std::string name, const Type* t, Span s = {}) {
    return Make<Var>(std::move(name), t, next_var_id_++, s);
  }
  const IterArg* NewIterArg(std::string name, const Type* t, const Expr* init, Span s = {}) {
    return Make<IterArg>(std::move(name), t, next_var_id_++, init, s);
  }
  uint64_t NextVarId() { return next_var_id_++; }
  // The id the next Var gets, and a way back to it: the parser undoes the ids
  // of a fast-path attempt it abandons, so ids never depend on the path taken.
  uint64_t PeekNextVarId() const { return next_var_id_; }
  void RewindVarIds(uint64_t next) { next_var_id_ = next; }

  SourceManager& sources() { return sources_; }
  const SourceManager& sources() const { return sources_; }
  size_t BytesAllocated() const { return arena_.BytesAllocated(); }

  // Target profile for profile-dependent rules (BF16 atomic add is A2/A3 only)
  // and for the PTO emitter: "a2a3" (Ascend910B, default) or "a5" (Ascend950).
  std::string target_arch = "a2a3";

 private:
  // Finds the interned tile with these fields or makes one (moving from
  // `from` when given, else copying the fields).
  TileType* InternTile(const std::vector<const Expr*>& shape, DataType dtype,
                       std::optional<MemorySpace> mem, const TileView* view, TileType* from);
  void GrowTiles();

  Arena arena_;
  SourceManager sources_;
  uint64_t next_var_id_ = 1;
  const UnknownType* unknown_;
  const PtrType* ptr_;
  const CommCtxType* comm_ctx_;
  const WindowBufferType* window_buffer_;
  std::array<const ScalarType*, 16> scalars_{};
  // Interned TileTypes: open addressing (linear probing, power-of-two size,
  // load <= 1/2), each slot the tile's hash and node (null = empty).
  struct TileSlot {
    size_t hash = 0;
    TileType* tile = nullptr;
  };
  std::vector<TileSlot> tile_slots_;
  size_t tile_count_ = 0;
};

}  // namespace pypto::ir
