// Argument checks shared by the op deducers (see deduce_checks.h): each one
// reports through DeduceContext::ErrorAt with the wording all ops share.
#include "deduce_checks.h"

#include <fmt/format.h>

#include <algorithm>

#include "pypto/ir/casting.h"

namespace pypto::ir {

// ---- argument checks with diagnostics -------------------------------------------

static const Expr* ArgOrNull(const DeduceContext& dc, int i) {
  return i >= 0 && static_cast<size_t>(i) < dc.args.size() ? dc.args[i] : nullptr;
}

static std::string GotStr(const Expr* e) { return e ? TypeStr(e->type) : "nothing"; }

const MakeTuple* ExpectIndexTuple(DeduceContext& dc, int i, std::optional<size_t> rank,
                                  const std::string& what) {
  const Expr* e = ArgOrNull(dc, i);
  const MakeTuple* t = AsTuple(e);
  if (!t) {
    dc.ErrorAt(i, "must be a tuple of index expressions ([a, b, ...]), got " + GotStr(e));
    return nullptr;
  }
  if (rank && t->elements.size() != *rank) {
    std::string src = what.empty() ? "" : fmt::format(" (one per dimension of {})", what);
    dc.ErrorAt(i, fmt::format("must have {} elements{}, got {}", *rank, src, t->elements.size()));
    return nullptr;
  }
  for (size_t k = 0; k < t->elements.size(); ++k) {
    if (!IsIntegerScalar(t->elements[k])) {
      dc.ErrorAt(i, fmt::format("element {} must be an integer scalar, got {}", k,
                                GotStr(t->elements[k])));
      return nullptr;
    }
  }
  return t;
}

const TensorType* ExpectTensor(DeduceContext& dc, int i, bool allow_distributed) {
  const Expr* e = ArgOrNull(dc, i);
  const Type* t = e ? e->type : nullptr;
  if (const auto* tt = As<TensorType>(t)) return tt;
  if (allow_distributed) {
    if (const auto* d = As<DistributedTensorType>(t)) return d;
    dc.ErrorAt(i, "must be a pl.Tensor or pld.DistributedTensor, got " + GotStr(e));
    return nullptr;
  }
  dc.ErrorAt(i, "must be a pl.Tensor, got " + GotStr(e));
  return nullptr;
}

const TileType* ExpectTile(DeduceContext& dc, int i) {
  const Expr* e = ArgOrNull(dc, i);
  if (const auto* t = As<TileType>(e ? e->type : nullptr)) return t;
  dc.ErrorAt(i, "must be a pl.Tile, got " + GotStr(e));
  return nullptr;
}

bool ExpectIntegerScalar(DeduceContext& dc, int i) {
  const Expr* e = ArgOrNull(dc, i);
  if (IsIntegerScalar(e)) return true;
  dc.ErrorAt(i, "must be an integer scalar, got " + GotStr(e));
  return false;
}

bool ExpectScalar(DeduceContext& dc, int i) {
  const Expr* e = ArgOrNull(dc, i);
  if (IsScalar(e)) return true;
  dc.ErrorAt(i, "must be a scalar, got " + GotStr(e));
  return false;
}

bool ExpectShapeCompatible(DeduceContext& dc, int i, const Shape& actual, const Shape& expected,
                           std::string_view what) {
  if (&actual == &expected) return true;  // e.g. both operands of one (interned) type
  auto k = FirstShapeConflict(actual, expected);
  if (!k) return true;
  if (actual.size() != expected.size())
    dc.ErrorAt(i, fmt::format("shape {} does not match {} {} (rank {} vs {})", ShapeStr(actual),
                              what, ShapeStr(expected), actual.size(), expected.size()));
  else
    dc.ErrorAt(i, fmt::format("shape {} does not match {} {} (dim {})", ShapeStr(actual), what,
                              ShapeStr(expected), *k));
  return false;
}

bool ExpectPositiveDims(DeduceContext& dc, int i, const Shape& shape) {
  for (size_t k = 0; k < shape.size(); ++k) {
    auto v = StaticInt(shape[k]);
    if (v && *v <= 0) {
      dc.ErrorAt(i, fmt::format("dim {} must be positive, got {}", k, *v));
      return false;
    }
  }
  return true;
}

bool ExpectRegionInBounds(DeduceContext& dc, int i, const Shape& offsets, const Shape& extents,
                          const Shape& dims, const std::string& what) {
  size_t n = std::min({offsets.size(), extents.size(), dims.size()});
  for (size_t k = 0; k < n; ++k) {
    auto o = StaticInt(offsets[k]);
    if (o && *o < 0) {
      dc.ErrorAt(i, fmt::format("offset {} in dim {} is negative", *o, k));
      return false;
    }
    auto e = StaticInt(extents[k]), d = StaticInt(dims[k]);
    int64_t end = 0;
    if (o && e && d && (__builtin_add_overflow(*o, *e, &end) || end > *d)) {
      dc.ErrorAt(i, fmt::format("region exceeds {} in dim {}: offset {} + extent {} > {}", what, k,
                                *o, *e, *d));
      return false;
    }
  }
  return true;
}

}  // namespace pypto::ir
