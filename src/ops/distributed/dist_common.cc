// Shared checks of the distributed op deducers (see dist_common.h).
#include "dist_common.h"

#include <fmt/format.h>

#include <limits>

#include "pypto/ir/context.h"
#include "pypto/ir/printer.h"

namespace pypto::ir::dist {

std::string Ty(const Type* t) { return TypeToString(t); }

std::string EnumName(EnumKind k, int64_t v) {
  auto n = EnumValueName(k, static_cast<int>(v));
  return n ? *n : std::to_string(v);
}

bool IsIntScalarType(const Type* t) {
  const auto* s = As<ScalarType>(t);
  return s && IsInteger(s->dtype);
}

const Shape& ValidOf(const TensorType* t) {
  if (t->view && !t->view->valid_shape.empty()) return t->view->valid_shape;
  return t->shape;
}

std::string ArgName(const DeduceContext& dc, int idx) {
  if (idx >= 0 && static_cast<size_t>(idx) < dc.op.args.size()) return dc.op.args[idx].name;
  return fmt::format("#{}", idx);
}

const Type* ArgError(DeduceContext& dc, int idx, std::string_view name, const std::string& msg) {
  dc.had_error = true;
  std::string n = name.empty() ? ArgName(dc, idx) : std::string(name);
  dc.diag.Error(dc.ArgSpan(idx), fmt::format("{}: argument '{}' {}", dc.op.name, n, msg));
  return nullptr;
}

static const Type* ArgType(const DeduceContext& dc, int idx) {
  return dc.args[static_cast<size_t>(idx)]->type;
}

const DistributedTensorType* ExpectDist(DeduceContext& dc, int idx, std::string_view name) {
  const Type* t = ArgType(dc, idx);
  if (const auto* d = As<DistributedTensorType>(t)) return d;
  ArgError(dc, idx, name,
           fmt::format("must be a pld.DistributedTensor (window-bound), got {}", Ty(t)));
  return nullptr;
}

const TensorType* ExpectTensorLike(DeduceContext& dc, int idx, std::string_view name) {
  const Type* t = ArgType(dc, idx);
  if (const auto* d = AsTensorTypeLike(t)) return d;
  ArgError(dc, idx, name,
           fmt::format("must be a pl.Tensor or pld.DistributedTensor (a local GM region), got {}",
                       Ty(t)));
  return nullptr;
}

bool ExpectPeer(DeduceContext& dc, int idx, std::string_view name) {
  const Type* t = ArgType(dc, idx);
  if (IsIntScalarType(t)) return true;
  ArgError(dc, idx, name,
           fmt::format("must be an integer pl.Scalar rank index (e.g. pl.Scalar[pl.INT32]), got {}",
                       Ty(t)));
  return false;
}

bool ExpectAnyScalar(DeduceContext& dc, int idx, std::string_view name) {
  const Type* t = ArgType(dc, idx);
  if (As<ScalarType>(t)) return true;
  ArgError(dc, idx, name, fmt::format("must be a pl.Scalar, got {}", Ty(t)));
  return false;
}

const MakeTuple* ExpectIndexTupleOf(DeduceContext& dc, int idx, size_t rank, const std::string& of,
                                    std::string_view name) {
  const Expr* e = dc.args[static_cast<size_t>(idx)];
  const auto* tup = As<MakeTuple>(e);
  if (!tup) {
    ArgError(dc, idx, name,
             fmt::format("must be a tuple [i, j, ...] with one index per dimension of {} (rank "
                         "{}), got {}",
                         of, rank, Ty(e->type)));
    return nullptr;
  }
  if (tup->elements.size() != rank) {
    ArgError(dc, idx, name,
             fmt::format("must have {} elements (one per dimension of {}), got {}", rank, of,
                         tup->elements.size()));
    return nullptr;
  }
  for (size_t k = 0; k < tup->elements.size(); ++k) {
    if (!IsIntScalarType(tup->elements[k]->type)) {
      ArgError(dc, idx, name,
               fmt::format("element {} must be an integer scalar index, got {}", k,
                           Ty(tup->elements[k]->type)));
      return nullptr;
    }
  }
  return tup;
}

std::optional<int> EnumKw(DeduceContext& dc, std::string_view key, EnumKind kind, int def) {
  const Attr* a = dc.Kwarg(key);
  if (!a) return def;
  int v = static_cast<int>(a->i);
  if (!EnumValueInRange(kind, v)) {
    dc.KwargError(key,
                  fmt::format("value {} is not a member of {}", a->i, GetEnumDesc(kind).prefix));
    return std::nullopt;
  }
  return v;
}

int64_t IntKw(const DeduceContext& dc, std::string_view key, int64_t def) {
  return dc.IntKwarg(key, def);
}

std::string StrKw(const DeduceContext& dc, std::string_view key, std::string def) {
  const Attr* a = dc.Kwarg(key);
  return a && a->kind == Attr::Kind::kString ? a->s : def;
}

bool CheckAtomicAddDtype(DeduceContext& dc, int idx, std::string_view name, DataType dt) {
  switch (dt) {
    case DataType::kFP32:
    case DataType::kFP16:
    case DataType::kInt32:
    case DataType::kInt16:
    case DataType::kInt8:
      return true;
    case DataType::kBF16:
      if (dc.ctx.target_arch == "a2a3") return true;
      ArgError(dc, idx, name,
               fmt::format("has element type pl.BF16, and atomic=pld.AtomicType.Add on BF16 is "
                           "only supported on the a2a3 (Ascend910B) target, not '{}'; use "
                           "FP32/FP16 data or atomic=pld.AtomicType.None_",
                           dc.ctx.target_arch));
      return false;
    default:
      ArgError(dc, idx, name,
               fmt::format("has element type {}, which has no hardware atomic add; "
                           "atomic=pld.AtomicType.Add requires FP32, BF16, FP16, INT32, INT16 or "
                           "INT8 (or use atomic=pld.AtomicType.None_)",
                           DTypeStr(dt)));
      return false;
  }
}

// Every static dim of `t` must be positive.
static bool CheckPositiveDims(DeduceContext& dc, int idx, std::string_view name,
                              const TensorType* t) {
  for (size_t k = 0; k < t->shape.size(); ++k) {
    auto v = StaticInt(t->shape[k]);
    if (v && *v <= 0) {
      ArgError(dc, idx, name,
               fmt::format("has shape {} with non-positive dim {} ({}); every static dimension "
                           "of a transfer operand must be positive",
                           ShapeStr(t->shape), k, *v));
      return false;
    }
  }
  return true;
}

// off + ext <= dim in every dim where all three are static; off >= 0.
static bool CheckRegionInBounds(DeduceContext& dc, int off_idx, std::string_view off_name,
                                const MakeTuple* off, const Shape& ext, const TensorType* t,
                                std::string_view tname) {
  for (size_t k = 0; k < t->shape.size(); ++k) {
    auto o = StaticInt(off->elements[k]);
    if (o && *o < 0) {
      ArgError(dc, off_idx, off_name,
               fmt::format("element {} is negative ({}); offsets must be non-negative", k, *o));
      return false;
    }
    auto e = StaticInt(ext[k]);
    auto d = StaticInt(t->shape[k]);
    if (o && e && d && *o + *e > *d) {
      ArgError(dc, off_idx, off_name,
               fmt::format("places the {} transfer region outside '{}' in dim {} ({} + {} > {}); "
                           "the region must lie inside {}",
                           ShapeStr(ext), tname, k, *o, *e, *d, ShapeStr(t->shape)));
      return false;
    }
  }
  return true;
}

std::optional<Transfer> CheckTransfer(DeduceContext& dc, const TransferArgs& a) {
  Transfer tr;
  bool ok = true;
  if (a.dst_is_window) {
    tr.dst = ExpectDist(dc, a.dst);
    tr.src = ExpectTensorLike(dc, a.src);
  } else {
    tr.dst = ExpectTensorLike(dc, a.dst);
    tr.src = ExpectDist(dc, a.src);
  }
  ok = ExpectPeer(dc, a.peer) && ok;
  if (!tr.dst || !tr.src || !ok) return std::nullopt;
  if (tr.src->dtype != tr.dst->dtype) {
    ArgError(dc, a.src, {},
             fmt::format("has element type {} but 'dst' has {}; put/get move bytes without "
                         "conversion, so both sides need the same element type",
                         DTypeStr(tr.src->dtype), DTypeStr(tr.dst->dtype)));
    return std::nullopt;
  }
  if (tr.src->rank() != tr.dst->rank()) {
    ArgError(dc, a.src, {},
             fmt::format("has rank {} but 'dst' has rank {}; dst and src must have the same rank",
                         tr.src->rank(), tr.dst->rank()));
    return std::nullopt;
  }
  if (tr.dst->rank() == 0) {
    ArgError(dc, a.dst, {}, "has rank 0; a transfer needs at least one dimension");
    return std::nullopt;
  }
  if (!CheckPositiveDims(dc, a.dst, {}, tr.dst) || !CheckPositiveDims(dc, a.src, {}, tr.src))
    return std::nullopt;
  size_t rank = tr.dst->rank();
  if (a.shape < 0) {
    for (size_t k = 0; k < rank; ++k) {
      if (!DimEqual(tr.src->shape[k], tr.dst->shape[k])) {
        ArgError(dc, a.src, {},
                 fmt::format("has shape {} but 'dst' has shape {} (dim {}); a full-slice transfer "
                             "needs equal shapes — pass dst_offsets, src_offsets and shape to "
                             "move a sub-region",
                             ShapeStr(tr.src->shape), ShapeStr(tr.dst->shape), k));
        return std::nullopt;
      }
    }
    tr.extent = tr.dst->shape;
    return tr;
  }
  const MakeTuple* doff = ExpectIndexTupleOf(dc, a.dst_offsets, rank, "'dst'", a.dst_offsets_name);
  const MakeTuple* soff = ExpectIndexTupleOf(dc, a.src_offsets, rank, "'src'", a.src_offsets_name);
  const MakeTuple* shp = ExpectIndexTupleOf(dc, a.shape, rank, "'dst'", a.shape_name);
  if (!doff || !soff || !shp) return std::nullopt;
  for (size_t k = 0; k < rank; ++k) {
    auto v = StaticInt(shp->elements[k]);
    if (v && *v <= 0) {
      ArgError(
          dc, a.shape, a.shape_name,
          fmt::format("element {} is {}; every static transfer extent must be positive", k, *v));
      return std::nullopt;
    }
  }
  tr.extent = shp->elements;
  if (!CheckRegionInBounds(dc, a.dst_offsets, a.dst_offsets_name, doff, tr.extent, tr.dst, "dst") ||
      !CheckRegionInBounds(dc, a.src_offsets, a.src_offsets_name, soff, tr.extent, tr.src, "src"))
    return std::nullopt;
  return tr;
}

Flat Flatten(const Shape& extent) {
  Flat f;
  if (extent.empty()) return f;
  f.cols = StaticInt(extent.back());
  int64_t rows = 1;
  for (size_t k = 0; k + 1 < extent.size(); ++k) {
    auto v = StaticInt(extent[k]);
    if (!v) return f;
    rows *= *v;
  }
  f.rows = rows;
  return f;
}

const DistributedTensorType* ExpectSignal(DeduceContext& dc, int idx, std::string_view name) {
  const DistributedTensorType* s = ExpectDist(dc, idx, name);
  if (!s) return nullptr;
  if (s->dtype != DataType::kInt32) {
    ArgError(dc, idx, name,
             fmt::format("must have element type pl.INT32 (barrier credit counters), got {}",
                         DTypeStr(s->dtype)));
    return nullptr;
  }
  return s;
}

bool ExpectNrSignalShape(DeduceContext& dc, int idx, const DistributedTensorType* sig,
                         bool allow_rank1) {
  bool ok = sig->rank() == 2 || (allow_rank1 && sig->rank() == 1);
  if (ok && sig->rank() == 2) {
    auto c = StaticInt(sig->shape[1]);
    ok = c && *c == 1;
  }
  if (ok) return true;
  ArgError(dc, idx, {},
           fmt::format("must have shape {} (one barrier cell per rank), got {}",
                       allow_rank1 ? "[NR] or [NR, 1]" : "[NR, 1]", ShapeStr(sig->shape)));
  return false;
}

bool ExpectRank(DeduceContext& dc, int idx, const TensorType* t, size_t rank,
                const std::string& layout) {
  if (t->rank() == rank) return true;
  ArgError(dc, idx, {},
           fmt::format("must be {}-D {}, got shape {}", rank, layout, ShapeStr(t->shape)));
  return false;
}

bool CheckMeshSignal(DeduceContext& dc, int idx, const DistributedTensorType* sig,
                     int64_t core_num) {
  if (sig->rank() == 1) {
    if (core_num == 1) return true;
    ArgError(dc, idx, {},
             fmt::format("has shape {}; a rank-1 [NR] signal has one lane per rank, so it only "
                         "serves core_num=1 — use a [NR, stride] signal with stride >= {}",
                         ShapeStr(sig->shape), core_num));
    return false;
  }
  if (sig->rank() != 2) {
    ArgError(dc, idx, {},
             fmt::format("has shape {}; a mesh allreduce signal is [NR] or [NR, stride] (one "
                         "counter per rank and core)",
                         ShapeStr(sig->shape)));
    return false;
  }
  auto stride = StaticInt(sig->shape[1]);
  if (!stride || *stride < core_num) {
    ArgError(dc, idx, {},
             fmt::format("has shape {}; a mesh allreduce signal [NR, stride] needs a static "
                         "stride >= core_num ({})",
                         ShapeStr(sig->shape), core_num));
    return false;
  }
  return true;
}

bool CheckRingSignal(DeduceContext& dc, int idx, const DistributedTensorType* sig, bool incore_rows,
                     bool host_rows) {
  std::string want = incore_rows && host_rows ? "[2 * (NR - 1), NR] or [2 * (NR - 1) + 1, NR]"
                     : incore_rows            ? "[2 * (NR - 1), NR]"
                                              : "[2 * (NR - 1) + 1, NR]";
  bool ok = sig->rank() == 2;
  if (ok) {
    auto rows = StaticInt(sig->shape[0]), nr = StaticInt(sig->shape[1]);
    if (rows && nr)
      ok = (incore_rows && *rows == 2 * (*nr - 1)) || (host_rows && *rows == 2 * (*nr - 1) + 1);
  }
  if (ok) return true;
  ArgError(dc, idx, {},
           fmt::format("has shape {}; a ring allreduce signal is {} (one row per ring round, one "
                       "cell per rank)",
                       ShapeStr(sig->shape), want));
  return false;
}

bool CheckPackedLayout(DeduceContext& dc, int idx, const TensorType* t) {
  if (!t->view) return true;
  const TensorView& v = *t->view;
  if (v.layout != TensorLayout::kND) {
    ArgError(dc, idx, {},
             fmt::format("has layout {}; it is addressed by flat element arithmetic, so it must "
                         "be a packed row-major (ND) view",
                         EnumName(EnumKind::kTensorLayout, static_cast<int>(v.layout))));
    return false;
  }
  if (!v.stride.empty()) {
    // Reject only a provable violation: a static stride that differs from the
    // packed stride computed over static trailing dims.
    bool packed = v.stride.size() == t->rank();
    std::optional<int64_t> expect = 1;
    for (size_t k = t->rank(); packed && k-- > 0;) {
      auto s = StaticInt(v.stride[k]);
      if (expect && s && *s != *expect) packed = false;
      auto d = StaticInt(t->shape[k]);
      expect = expect && d ? std::optional<int64_t>(*expect * *d) : std::nullopt;
    }
    if (!packed) {
      ArgError(dc, idx, {},
               fmt::format("has strides {} for shape {}; it is addressed by flat element "
                           "arithmetic, so it needs the packed row-major strides",
                           ShapeStr(v.stride), ShapeStr(t->shape)));
      return false;
    }
  }
  if (!v.valid_shape.empty()) {
    for (size_t k = 0; k < t->rank() && k < v.valid_shape.size(); ++k) {
      if (!DimEqual(v.valid_shape[k], t->shape[k])) {
        ArgError(dc, idx, {},
                 fmt::format("has valid_shape {} narrower than its shape {}; all_to_all_v needs "
                             "the full valid shape",
                             ShapeStr(v.valid_shape), ShapeStr(t->shape)));
        return false;
      }
    }
  }
  return true;
}

bool CheckCountsShape(DeduceContext& dc, int idx, const TensorType* t, bool allow_rank1) {
  if (t->dtype != DataType::kInt32) {
    ArgError(
        dc, idx, {},
        fmt::format("must have element type pl.INT32 (row counts), got {}", DTypeStr(t->dtype)));
    return false;
  }
  bool ok = t->rank() == 2 || (allow_rank1 && t->rank() == 1);
  if (ok && t->rank() == 2) {
    auto c = StaticInt(t->shape[1]);
    ok = c && *c == 1;
  }
  if (ok) return true;
  ArgError(dc, idx, {},
           fmt::format("must have shape {} (one count per rank), got {}",
                       allow_rank1 ? "[NR] or [NR, 1]" : "[NR, 1]", ShapeStr(t->shape)));
  return false;
}

bool ExpectDistinct(DeduceContext& dc, int a, int b) {
  if (dc.args[static_cast<size_t>(a)] != dc.args[static_cast<size_t>(b)]) return true;
  ArgError(dc, b, {},
           fmt::format("is the same value as '{}'; the two operands must be distinct buffers "
                       "(aliasing them races the exchange)",
                       ArgName(dc, a)));
  return false;
}

}  // namespace pypto::ir::dist
