// Base of every IR node (types, expressions, statements) and the NodeKind enum
// generated from node_kinds.def. Nodes are immutable after construction and are
// owned by an ir::Context arena; everything refers to them by `const T*`.
#pragma once

#include <cstdint>
#include <string_view>

#include "pypto/core/span.h"

namespace pypto::ir {

enum class NodeKind : uint8_t {
#define PYPTO_TYPE(N) k##N,
#define PYPTO_EXPR(N) k##N,
#define PYPTO_STMT(N) k##N,
#include "pypto/ir/node_kinds.def"
  kCount
};

std::string_view NodeKindName(NodeKind k);

// First/last kinds of each family (kinds are laid out contiguously by family).
constexpr NodeKind kFirstType = NodeKind::kUnknownType;
constexpr NodeKind kLastType = NodeKind::kWindowBufferType;
constexpr NodeKind kFirstExpr = NodeKind::kVar;
constexpr NodeKind kLastExpr = NodeKind::kTupleGetItem;
constexpr NodeKind kFirstStmt = NodeKind::kAssignStmt;
constexpr NodeKind kLastStmt = NodeKind::kManualScopeStmt;
constexpr NodeKind kFirstScope = NodeKind::kInCoreScopeStmt;

struct Node {
  const NodeKind kind;
  Span span;

 protected:
  explicit Node(NodeKind k, Span s = {}) : kind(k), span(s) {}
  ~Node() = default;
};

}  // namespace pypto::ir
