// Base of every IR node (types, expressions, statements) and the NodeKind enum
// generated from node_kinds.def. Nodes are immutable after construction and are
// owned by an ir::Context arena; everything refers to them by `const T*`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string_view>

#include "pypto/core/span.h"

namespace pypto::ir {

enum class NodeKind : uint8_t {
#define PYPTO_TYPE(N, ...) k##N,
#define PYPTO_EXPR(N, ...) k##N,
#define PYPTO_STMT(N, ...) k##N,
#include "pypto/ir/node_kinds.def"
  kCount
};

std::string_view NodeKindName(NodeKind k);

// First/last kinds of each family, derived from node_kinds.def: each family is
// contiguous (asserted below), scope statements are the tail of the statements.
namespace node_family {
enum Family : uint8_t { kType, kExpr, kStmt, kScope };
inline constexpr Family kOf[] = {
#define PYPTO_TYPE(N, ...) kType,
#define PYPTO_EXPR(N, ...) kExpr,
#define PYPTO_STMT(N, ...) kStmt,
#define PYPTO_SCOPE(N, ...) kScope,
#include "pypto/ir/node_kinds.def"
};
constexpr int Count(Family f) {
  int n = 0;
  for (Family x : kOf) n += x == f;
  return n;
}
constexpr bool Contiguous() {
  for (size_t i = 1; i < std::size(kOf); ++i)
    if (kOf[i] < kOf[i - 1]) return false;
  return true;
}
static_assert(Contiguous(), "node_kinds.def: list types, exprs, stmts, then scopes");
static_assert(std::size(kOf) == static_cast<size_t>(NodeKind::kCount));
static_assert(Count(kType) > 0 && Count(kExpr) > 0 && Count(kStmt) > 0 && Count(kScope) > 0);
constexpr NodeKind At(int i) { return static_cast<NodeKind>(i); }
}  // namespace node_family

constexpr NodeKind kFirstType = node_family::At(0);
constexpr NodeKind kLastType = node_family::At(node_family::Count(node_family::kType) - 1);
constexpr NodeKind kFirstExpr = node_family::At(static_cast<int>(kLastType) + 1);
constexpr NodeKind kLastExpr =
    node_family::At(static_cast<int>(kLastType) + node_family::Count(node_family::kExpr));
constexpr NodeKind kFirstStmt = node_family::At(static_cast<int>(kLastExpr) + 1);
constexpr NodeKind kFirstScope =
    node_family::At(static_cast<int>(kFirstStmt) + node_family::Count(node_family::kStmt));
constexpr NodeKind kLastStmt = node_family::At(static_cast<int>(NodeKind::kCount) - 1);

struct Node {
  const NodeKind kind;
  Span span;

 protected:
  explicit Node(NodeKind k, Span s = {}) : kind(k), span(s) {}
  ~Node() = default;
};

}  // namespace pypto::ir
