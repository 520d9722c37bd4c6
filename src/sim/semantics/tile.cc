// Semantics of the core tile.* ops. Tiles hold doubles that are always exactly
// representable in the tile dtype (every result is rounded once). Ops compute
// only the valid region; elements outside it are 0 (or the fill pad value).
#include <fmt/format.h>

#include <limits>

#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

namespace {

int64_t Lin(const std::vector<int64_t>& shape, const std::vector<int64_t>& idx) {
  int64_t l = 0;
  for (size_t k = 0; k < shape.size(); ++k) l = l * shape[k] + idx[k];
  return l;
}

// Calls fn(linear index in `shape`, linear index in `box`) over the box [0, box).
template <typename F>
void ForEachIn(const std::vector<int64_t>& shape, const std::vector<int64_t>& box, F&& fn) {
  int64_t n = 1;
  for (int64_t b : box) n *= b;
  if (n <= 0) return;
  std::vector<int64_t> idx(box.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    fn(Lin(shape, idx), i);
    for (size_t k = box.size(); k-- > 0;) {
      if (++idx[k] < box[k]) break;
      idx[k] = 0;
    }
  }
}

// Tile region [shape] in tensor coordinates of a rank-r tensor (leading 1s).
std::vector<int64_t> Widen(const std::vector<int64_t>& v, size_t r, int64_t fill) {
  std::vector<int64_t> out(r > v.size() ? r - v.size() : 0, fill);
  out.insert(out.end(), v.begin(), v.end());
  return out;
}

}  // namespace

// Loads box [off, off+valid) of `t` (on `device`) into a tile of `shape`.
std::shared_ptr<TileVal> LoadTile(Exec& ex, const TensorVal& t, int device,
                                  const std::vector<int64_t>& off,
                                  const std::vector<int64_t>& shape, std::vector<int64_t> valid,
                                  const char* role) {
  if (off.size() != t.rank() || shape.size() != t.rank())
    ex.Fail(fmt::format("'{}' region rank {} does not match tensor rank {}", role, off.size(),
                        t.rank()));
  if (valid.empty()) valid = shape;
  for (size_t k = 0; k < valid.size(); ++k) {
    valid[k] = std::min(valid[k], shape[k]);
    // Intersect with the source's valid region.
    valid[k] = std::max<int64_t>(0, std::min(valid[k], t.valid[k] - off[k]));
  }
  auto tile = NewTile(t.dtype, shape);
  tile->valid = valid;
  std::vector<double> v = ex.ReadRegion(t, device, off, valid, role);
  ForEachIn(shape, valid, [&](int64_t ti, int64_t bi) { tile->data[ti] = v[bi]; });
  return tile;
}

void FlattenTileTo2D(Exec& ex, TileVal& tile) {
  size_t r = tile.shape.size();
  if (r <= 2) return;
  int64_t rows = 1, vrows = 1;
  bool ones = true;  // valid dims before k are all 1
  for (size_t k = 0; k + 1 < r; ++k) {
    if (k > 0 && !ones && tile.valid[k] != tile.shape[k])
      ex.Fail(fmt::format("tile_2d: valid box {} of the {} tile is not a run of whole rows",
                          ShapeString(tile.valid), ShapeString(tile.shape)));
    ones = ones && tile.valid[k] == 1;
    rows *= tile.shape[k];
    vrows *= tile.valid[k];
  }
  tile.shape = {rows, tile.shape.back()};
  tile.valid = {vrows, tile.valid.back()};
}

// Un-merges the valid rows of a flattened 2-D tile over `ext`'s leading dims.
static TileVal UnflattenTile(Exec& ex, const TileVal& tile, const std::vector<int64_t>& ext) {
  TileVal out = tile;
  int64_t n = 1;
  for (int64_t e : ext) n *= e;
  if (n != tile.NumElements() || ext.back() != tile.shape[1])
    ex.Fail(fmt::format("tile {} does not map onto the region {}", ShapeString(tile.shape),
                        ShapeString(ext)));
  out.shape = ext;
  out.valid = ext;
  out.valid.back() = tile.valid[1];
  int64_t vs = tile.valid[0];
  for (size_t k = ext.size() - 1; k-- > 0;) {
    if (k == 0 || vs < ext[k]) {
      out.valid[k] = vs;
      for (size_t j = 0; j < k; ++j) out.valid[j] = vs == 0 ? 0 : 1;
      break;
    }
    if (vs % ext[k] != 0)
      ex.Fail(fmt::format("valid rows {} of the 2-D tile are not whole rows of the region {}",
                          tile.valid[0], ShapeString(ext)));
    vs /= ext[k];
  }
  return out;
}

void StoreTile(Exec& ex, const TileVal& tile_in, const TensorVal& t, int device,
               const std::vector<int64_t>& off_in, std::vector<int64_t> ext, bool atomic,
               const char* role) {
  TileVal unflat;
  const TileVal* src = &tile_in;
  if (tile_in.shape.size() == 2 && ext.size() > 2 && ext.size() == t.rank()) {
    unflat = UnflattenTile(ex, tile_in, ext);
    src = &unflat;
  }
  const TileVal& tile = *src;
  std::vector<int64_t> off = off_in;
  std::vector<int64_t> box = Widen(tile.valid, t.rank(), 1);
  std::vector<int64_t> tshape = Widen(tile.shape, t.rank(), 1);
  if (box.size() != t.rank() || off.size() != t.rank())
    ex.Fail(fmt::format("tile of rank {} cannot be stored into tensor '{}' of rank {}",
                        tile.shape.size(), t.name, t.rank()));
  if (!ext.empty())
    for (size_t k = 0; k < box.size(); ++k) box[k] = std::min(box[k], ext[k]);
  std::vector<double> v;
  int64_t n = 1;
  for (int64_t b : box) n *= b;
  v.resize(static_cast<size_t>(std::max<int64_t>(n, 0)));
  ForEachIn(tshape, box, [&](int64_t ti, int64_t bi) { v[bi] = tile.data[ti]; });
  ex.WriteRegion(t, device, off, box, v.data(), atomic, role);
}

namespace {

Value Load(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TensorVal& t = ex.Tensor(a[0], "tensor");
  std::vector<int64_t> off = ex.Ints(*Exec::Arg(c, a, "offsets"), "offsets");
  std::vector<int64_t> shape = ex.Ints(*Exec::Arg(c, a, "shapes"), "shapes");
  std::vector<int64_t> valid;
  if (const Value* v = Exec::Arg(c, a, "valid_shape")) valid = ex.Ints(*v, "valid_shape");
  if (Exec::KwBool(c, "clamp", false) && valid.empty()) {
    valid = shape;
    for (size_t k = 0; k < shape.size() && k < t.rank(); ++k)
      valid[k] = std::max<int64_t>(0, std::min(shape[k], t.shape[k] - off[k]));
  }
  auto tile = LoadTile(ex, t, ex.device(), off, shape, valid, "tensor");
  if (Exec::KwBool(c, "tile_2d", false)) FlattenTileTo2D(ex, *tile);
  return Value::Of(tile);
}

Value Store(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TileVal& tile = ex.Tile(a[0], "tile");
  std::vector<int64_t> off = ex.Ints(*Exec::Arg(c, a, "offsets"), "offsets");
  const Value* out = Exec::Arg(c, a, "output_tensor");
  const TensorVal& t = ex.Tensor(*out, "output_tensor");
  std::vector<int64_t> ext;
  if (const Value* s = Exec::Arg(c, a, "shapes")) ext = ex.Ints(*s, "shapes");
  StoreTile(ex, tile, t, ex.device(), off, ext, Exec::KwInt(c, "atomic", 0) == 1, "output_tensor");
  return *out;
}

Value Create(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  auto dt = Exec::KwDType(c, "dtype");
  if (!dt) ex.Fail("missing dtype=");
  return Value::Of(NewTile(*dt, ex.Ints(a[0], "shape")));
}

Value SetValid(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TileVal& in = ex.Tile(a[0], "tile");
  if (in.shape.size() != 2) ex.Fail("expects a 2-D tile");
  int64_t r = ex.Int(a[1], "valid_rows"), c = ex.Int(a[2], "valid_cols");
  if (r < 0 || r > in.shape[0] || c < 0 || c > in.shape[1])
    ex.Fail(fmt::format("valid shape [{}, {}] outside tile shape {}", r, c, ShapeString(in.shape)));
  auto out = std::make_shared<TileVal>(in);
  out->valid = {r, c};
  return Value::Of(out);
}

Value FillPad(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TileVal& in = ex.Tile(a[0], "tile");
  int64_t pv = Exec::KwInt(c, "pad_value", 1);
  double fill = 0;
  if (pv == 2) fill = IsFloat(in.dtype) ? INFINITY : RoundTo(in.dtype, 1e300);
  if (pv == 3) fill = IsFloat(in.dtype) ? -INFINITY : RoundTo(in.dtype, -1e300);
  auto out = std::make_shared<TileVal>(in);
  std::vector<int64_t> idx(in.shape.size(), 0);
  for (size_t i = 0; i < out->data.size(); ++i) {
    bool inside = true;
    for (size_t k = 0; k < idx.size(); ++k) inside = inside && idx[k] < in.valid[k];
    if (!inside) out->data[i] = fill;
    for (size_t k = idx.size(); k-- > 0;) {
      if (++idx[k] < in.shape[k]) break;
      idx[k] = 0;
    }
  }
  out->valid = out->shape;
  return Value::Of(out);
}

Value Move(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  ex.Tile(a[0], "tile");
  return a[0];
}

Value SubblockIdx(Exec& ex, const ir::Call&, std::vector<Value>&) {
  return Value::Int(ex.t.subblock_idx, DataType::kIndex);
}

Value TileRead(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TileVal& t = ex.Tile(a[0], "tile");
  std::vector<int64_t> idx = ex.Ints(a[1], "indices");
  if (idx.size() != t.shape.size()) ex.Fail("index rank does not match tile rank");
  for (size_t k = 0; k < idx.size(); ++k)
    if (idx[k] < 0 || idx[k] >= t.shape[k])
      ex.Fail(fmt::format("index {} out of bounds for tile shape {}", ShapeString(idx),
                          ShapeString(t.shape)));
  double v = t.data[Lin(t.shape, idx)];
  return IsFloat(t.dtype) ? Value::Float(v, t.dtype) : Value::Int(static_cast<int64_t>(v), t.dtype);
}

Value TileWrite(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TileVal& t = ex.Tile(a[0], "tile");
  std::vector<int64_t> idx = ex.Ints(a[1], "indices");
  if (idx.size() != t.shape.size()) ex.Fail("index rank does not match tile rank");
  for (size_t k = 0; k < idx.size(); ++k)
    if (idx[k] < 0 || idx[k] >= t.shape[k])
      ex.Fail(fmt::format("index {} out of bounds for tile shape {}", ShapeString(idx),
                          ShapeString(t.shape)));
  auto out = std::make_shared<TileVal>(t);
  out->data[Lin(t.shape, idx)] = RoundTo(t.dtype, a[2].AsDouble());
  return Value::Of(out);
}

Value TileBinary(Exec& ex, std::vector<Value>& a, ElemOp op) {
  const TileVal& l = ex.Tile(a[0], "lhs");
  const TileVal& r = ex.Tile(a[1], "rhs");
  if (l.shape != r.shape)
    ex.Fail(fmt::format("shape {} does not match {}", ShapeString(r.shape), ShapeString(l.shape)));
  auto out = NewTile(l.dtype, l.shape);
  for (size_t k = 0; k < out->valid.size(); ++k) out->valid[k] = std::min(l.valid[k], r.valid[k]);
  bool dz = false;
  ForEachIn(l.shape, out->valid, [&](int64_t ti, int64_t) {
    out->data[ti] = ApplyElemTyped(op, l.dtype, l.data[ti], r.data[ti], &dz);
  });
  if (dz) ex.Fail("integer division by zero");
  return Value::Of(out);
}

// Tile ⊕ scalar: the scalar is converted to the tile's dtype first (as the
// emitted pto.t*s op does), then each valid element is computed and rounded once.
Value TileScalar(Exec& ex, std::vector<Value>& a, ElemOp op) {
  const TileVal& l = ex.Tile(a[0], "lhs");
  double s = CastScalar(a[1], l.dtype).AsDouble();
  auto out = NewTile(l.dtype, l.shape);
  out->valid = l.valid;
  bool dz = false;
  ForEachIn(l.shape, out->valid, [&](int64_t ti, int64_t) {
    out->data[ti] = ApplyElemTyped(op, l.dtype, l.data[ti], s, &dz);
  });
  if (dz) ex.Fail("integer division by zero");
  return Value::Of(out);
}

// Conversion rounds to nearest-even for floats and truncates toward zero for
// float -> int (saturating), matching the scalar cast.
Value Cast(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TileVal& in = ex.Tile(a[0], "tile");
  auto dt = Exec::KwDType(c, "target_type");
  if (!dt) ex.Fail("missing target_type=");
  auto out = NewTile(*dt, in.shape);
  out->valid = in.valid;
  ForEachIn(in.shape, in.valid, [&](int64_t ti, int64_t) {
    out->data[ti] = CastScalar(Value::Float(in.data[ti], DataType::kFP64), *dt).AsDouble();
  });
  return Value::Of(out);
}

// Row sums of a 2-D tile (tile.row_sum): each valid row's valid columns are
// added left to right, rounding to the tile dtype after every addition (the
// order and rounding the result is defined by; integers wrap). The result is
// [rows, 1] with the input's valid rows; the scratch tile is not observable.
Value RowSum(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TileVal& in = ex.Tile(a[0], "tile");
  ex.Tile(a[1], "tmp_tile");
  if (in.shape.size() != 2)
    ex.Fail(fmt::format("expects a 2-D tile, got {}", ShapeString(in.shape)));
  auto out = NewTile(in.dtype, {in.shape[0], 1});
  out->valid = {in.valid[0], 1};
  for (int64_t r = 0; r < in.valid[0]; ++r) {
    double acc = 0;
    for (int64_t c = 0; c < in.valid[1]; ++c)
      acc = RoundTo(in.dtype, acc + in.data[static_cast<size_t>(r * in.shape[1] + c)]);
    out->data[static_cast<size_t>(r)] = acc;
  }
  return Value::Of(out);
}

// The same elements in row-major order under a new shape (tile.reshape).
Value Reshape(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TileVal& in = ex.Tile(a[0], "tile");
  std::vector<int64_t> shape = ex.Ints(a[1], "shape");
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n != in.NumElements())
    ex.Fail(fmt::format("shape {} has {} elements but the tile {} has {}", ShapeString(shape), n,
                        ShapeString(in.shape), in.NumElements()));
  if (in.valid != in.shape)
    ex.Fail(fmt::format("tile is only partly valid (valid {} of {})", ShapeString(in.valid),
                        ShapeString(in.shape)));
  auto out = std::make_shared<TileVal>(in);
  out->shape = shape;
  out->valid = shape;
  return Value::Of(out);
}

#define BIN(NAME, OP) \
  Value NAME(Exec& ex, const ir::Call&, std::vector<Value>& a) { return TileBinary(ex, a, OP); }
BIN(Add, ElemOp::kAdd)
BIN(Sub, ElemOp::kSub)
BIN(Mul, ElemOp::kMul)
BIN(Div, ElemOp::kDiv)
BIN(Max, ElemOp::kMax)
BIN(Min, ElemOp::kMin)
#undef BIN
#define BINS(NAME, OP) \
  Value NAME(Exec& ex, const ir::Call&, std::vector<Value>& a) { return TileScalar(ex, a, OP); }
BINS(AddS, ElemOp::kAdd)
BINS(SubS, ElemOp::kSub)
BINS(MulS, ElemOp::kMul)
BINS(DivS, ElemOp::kDiv)
#undef BINS

}  // namespace

void RegisterTileSemantics(OpTable& t) {
  t.fns["tile.load"] = Load;
  t.fns["tile.store"] = Store;
  t.fns["tile.create"] = Create;
  t.fns["tile.set_validshape"] = SetValid;
  t.fns["tile.fillpad_inplace"] = FillPad;
  t.fns["tile.move"] = Move;
  t.fns["tile.get_subblock_idx"] = SubblockIdx;
  t.fns["tile.read"] = TileRead;
  t.fns["tile.write"] = TileWrite;
  t.fns["tile.cast"] = Cast;
  t.fns["tile.add"] = Add;
  t.fns["tile.sub"] = Sub;
  t.fns["tile.mul"] = Mul;
  t.fns["tile.div"] = Div;
  t.fns["tile.maximum"] = Max;
  t.fns["tile.minimum"] = Min;
  t.fns["tile.adds"] = AddS;
  t.fns["tile.subs"] = SubS;
  t.fns["tile.muls"] = MulS;
  t.fns["tile.divs"] = DivS;
  t.fns["tile.row_sum"] = RowSum;
  t.fns["tile.reshape"] = Reshape;
}

}  // namespace pypto::sim
