// IR types. Shapes are expressions (ConstInt for static dims, Vars/arithmetic for
// symbolic ones). DistributedTensorType is a TensorType in C++ but has its own
// NodeKind: As<TensorType> does not match it (exact-kind casting), which is how
// cross-rank ops reject plain tensors; AsTensorTypeLike is the deliberate escape
// hatch for reading either uniformly.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pypto/core/dtype.h"
#include "pypto/ir/enums.h"
#include "pypto/ir/node.h"

namespace pypto::ir {

struct Expr;

struct Type : Node {
  static bool ClassOf(NodeKind k) { return k >= kFirstType && k <= kLastType; }

 protected:
  explicit Type(NodeKind k) : Node(k) {}
};

#define PYPTO_LEAF_TYPE(Name)                              \
  struct Name : Type {                                     \
    static constexpr NodeKind kKind = NodeKind::k##Name;   \
    static bool ClassOf(NodeKind k) { return k == kKind; } \
    Name() : Type(kKind) {}                                \
  };
PYPTO_LEAF_TYPE(UnknownType)
PYPTO_LEAF_TYPE(PtrType)
PYPTO_LEAF_TYPE(CommCtxType)
PYPTO_LEAF_TYPE(WindowBufferType)
#undef PYPTO_LEAF_TYPE

struct ScalarType : Type {
  static constexpr NodeKind kKind = NodeKind::kScalarType;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  explicit ScalarType(DataType d) : Type(kKind), dtype(d) {}
  DataType dtype;
};

// Optional view metadata of a GM tensor. Empty stride = packed row-major;
// empty valid_shape = the full shape.
struct TensorView {
  std::vector<const Expr*> stride;
  TensorLayout layout = TensorLayout::kND;
  std::vector<const Expr*> valid_shape;
  PadValue pad = PadValue::kNull;
};

struct TensorType : Type {
  static constexpr NodeKind kKind = NodeKind::kTensorType;
  static bool ClassOf(NodeKind k) { return k == kKind; }  // exact: not Distributed
  TensorType(std::vector<const Expr*> s, DataType d, std::optional<TensorView> v = std::nullopt)
      : TensorType(kKind, std::move(s), d, std::move(v)) {}
  std::vector<const Expr*> shape;
  DataType dtype;
  std::optional<TensorView> view;
  size_t rank() const { return shape.size(); }

 protected:
  TensorType(NodeKind k, std::vector<const Expr*> s, DataType d, std::optional<TensorView> v)
      : Type(k), shape(std::move(s)), dtype(d), view(std::move(v)) {}
};

// A per-rank slice of a symmetric communication window. `window_buffer` names the
// allocation it views once MaterializeCommDomainScopes has bound it ("" before).
struct DistributedTensorType : TensorType {
  static constexpr NodeKind kKind = NodeKind::kDistributedTensorType;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  DistributedTensorType(std::vector<const Expr*> s, DataType d,
                        std::optional<TensorView> v = std::nullopt, std::string wb = {})
      : TensorType(kKind, std::move(s), d, std::move(v)), window_buffer(std::move(wb)) {}
  std::string window_buffer;
};

struct TileView {
  std::vector<const Expr*> valid_shape;  // empty = full shape
  TileLayout blayout = TileLayout::kRowMajor;
  TileLayout slayout = TileLayout::kNoneBox;
  int64_t fractal = 512;
  PadValue pad = PadValue::kNull;
};

struct TileType : Type {
  static constexpr NodeKind kKind = NodeKind::kTileType;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  TileType(std::vector<const Expr*> s, DataType d, std::optional<MemorySpace> m = std::nullopt,
           std::optional<TileView> v = std::nullopt)
      : Type(kKind), shape(std::move(s)), dtype(d), memory_space(m), view(std::move(v)) {}
  std::vector<const Expr*> shape;
  DataType dtype;
  std::optional<MemorySpace> memory_space;
  std::optional<TileView> view;
  size_t rank() const { return shape.size(); }
};

struct TupleType : Type {
  static constexpr NodeKind kKind = NodeKind::kTupleType;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  explicit TupleType(std::vector<const Type*> t) : Type(kKind), types(std::move(t)) {}
  std::vector<const Type*> types;
};

// A small fixed-size 1-D array of scalars local to a kernel (upstream's on-core
// scalar array, ScalarLocal memory): `pl.Array[extent, dtype]`. Created by
// pl.array.create; elements are read with pl.array.get_element and written with
// the functional pl.array.update_element (which returns the updated array).
struct ArrayType : Type {
  static constexpr NodeKind kKind = NodeKind::kArrayType;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  ArrayType(DataType d, int64_t n) : Type(kKind), dtype(d), extent(n) {}
  DataType dtype;
  int64_t extent;
};

}  // namespace pypto::ir
