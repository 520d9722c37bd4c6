// Kind-based casting without C++ RTTI (LLVM Casting.h style). Matching is exact:
// each class's ClassOf(kind) accepts only its own kind (or, for abstract bases,
// its contiguous family), so As<TensorType> rejects a DistributedTensorType and
// As<Var> rejects an IterArg. AsTensorTypeLike / AsVarLike are the deliberate
// escape hatches.
#pragma once

#include "pypto/core/check.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/stmt.h"
#include "pypto/ir/type.h"

namespace pypto::ir {

template <typename T, typename From>
bool Isa(const From* n) {
  return n != nullptr && T::ClassOf(n->kind);
}

template <typename T, typename From>
const T* As(const From* n) {
  return Isa<T>(n) ? static_cast<const T*>(n) : nullptr;
}

template <typename T, typename From>
const T* Cast(const From* n) {
  PYPTO_CHECK(Isa<T>(n), "bad IR cast");
  return static_cast<const T*>(n);
}

// TensorType or DistributedTensorType (not tiles): a GM view read uniformly.
inline const TensorType* AsTensorTypeLike(const Type* t) {
  if (t && (t->kind == NodeKind::kTensorType || t->kind == NodeKind::kDistributedTensorType))
    return static_cast<const TensorType*>(t);
  return nullptr;
}

// Var or IterArg.
inline const Var* AsVarLike(const Expr* e) {
  if (e && (e->kind == NodeKind::kVar || e->kind == NodeKind::kIterArg))
    return static_cast<const Var*>(e);
  return nullptr;
}

}  // namespace pypto::ir
