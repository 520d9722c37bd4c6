// Semantics of the cube ops and the tile fill (src/ops/cube_ops.cc): matmul
// accumulates each output element over K in order, rounding to the accumulator
// dtype after every multiply-add (FP32 for FP16/BF16/FP32 operands, as the cube
// unit accumulates; INT32 with two's-complement wrap for INT8). Only the valid
// regions take part: rows / columns outside the operands' valid extents are 0.
#include <fmt/format.h>

#include "pypto/ir/attr.h"
#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

namespace {

// Element (i, j) of a 2-D tile, read transposed when `trans`; 0 outside its
// valid region.
double At(const TileVal& t, bool trans, int64_t i, int64_t j) {
  if (trans) std::swap(i, j);
  if (i >= t.valid[0] || j >= t.valid[1]) return 0;
  return t.Get(i * t.shape[1] + j);
}

// acc (or zeros) + lhs @ rhs into a fresh tile of dtype `dt`.
Value Product(Exec& ex, const ir::Call& c, const TileVal* acc, const TileVal& a, const TileVal& b) {
  if (a.shape.size() != 2 || b.shape.size() != 2) ex.Fail("expects 2-D tiles");
  bool at = Exec::KwBool(c, "a_trans", false), bt = Exec::KwBool(c, "b_trans", false);
  int64_t m = a.shape[at ? 1 : 0], k = a.shape[at ? 0 : 1];
  int64_t kb = b.shape[bt ? 1 : 0], n = b.shape[bt ? 0 : 1];
  if (k != kb) ex.Fail(fmt::format("lhs K = {} but rhs K = {}", k, kb));
  DataType dt = a.dtype == DataType::kInt8 ? DataType::kInt32 : DataType::kFP32;
  if (acc && (acc->shape != std::vector<int64_t>{m, n} || acc->dtype != dt))
    ex.Fail(fmt::format("accumulator {} does not match the product [{}, {}]",
                        ShapeString(acc->shape), m, n));
  auto out = acc ? std::make_shared<TileVal>(*acc) : NewTile(dt, {m, n});
  out->valid = {m, n};
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = acc && i < acc->valid[0] && j < acc->valid[1] ? acc->Get(i * n + j) : 0;
      for (int64_t p = 0; p < k; ++p) s = RoundTo(dt, s + At(a, at, i, p) * At(b, bt, p, j));
      out->Set(i * n + j, s);
    }
  return Value::Of(out);
}

Value Matmul(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  return Product(ex, c, nullptr, ex.Tile(a[0], "lhs"), ex.Tile(a[1], "rhs"));
}

Value MatmulAcc(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TileVal& acc = ex.Tile(a[0], "acc");
  return Product(ex, c, &acc, ex.Tile(a[1], "lhs"), ex.Tile(a[2], "rhs"));
}

Value Full(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  auto dt = Exec::KwDType(c, "dtype");
  if (!dt) ex.Fail("missing dtype=");
  double v = 0;
  if (const ir::Attr* k = ir::FindAttr(c.kwargs, "value"))
    v = k->kind == ir::Attr::Kind::kFloat ? k->f : static_cast<double>(k->i);
  auto t = NewTile(*dt, ex.Ints(a[0], "shape"));
  for (int64_t i = 0; i < t->NumElements(); ++i) t->Set(i, v);
  return Value::Of(t);
}

}  // namespace

void RegisterCubeSemantics(OpTable& t) {
  t.Set(ops::kTileMatmul, Matmul);
  t.Set(ops::kTileMatmulAcc, MatmulAcc);
  t.Set(ops::kTileFull, Full);
}

}  // namespace pypto::sim
