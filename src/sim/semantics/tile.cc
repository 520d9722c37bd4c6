// Semantics of the core tile.* ops. Tiles hold their dtype's bytes; every
// result is computed in double and rounded once to the dtype (FP32 and INT32
// element-wise ops run on typed spans with the same rounding). Ops compute only
// the valid region; elements outside it are 0 (or the fill pad value).
#include <fmt/format.h>

#include <cstring>
#include <limits>
#include <type_traits>

#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

namespace {

// The element-wise family: one element kernel per member, keyed by its tile op.
// The member's scalar twin (tile.adds) runs the same kernel against a scalar,
// and the tensor forms (tensor.add, tensor.adds) reach it through their
// declared tile twin (semantics/tensor.cc); see ElementwiseKernel.
double Div(DataType dt, double a, double b, bool* div_zero) {
  if (IsFloat(dt)) return RoundTo(dt, a / b);
  // Integer division truncates like hardware integer division.
  if (b == 0) {
    *div_zero = true;
    return 0;
  }
  return std::trunc(a / b);
}
struct ElementwiseMember {
  ir::OpHandle op;
  ElemOp kind;  // what the typed kernels compute (TypedBinary)
  ElemFn fn;
};
constexpr ElementwiseMember kElementwise[] = {
    {ops::kTileAdd, ElemOp::kAdd,
     [](DataType dt, double a, double b, bool*) { return RoundTo(dt, a + b); }},
    {ops::kTileSub, ElemOp::kSub,
     [](DataType dt, double a, double b, bool*) { return RoundTo(dt, a - b); }},
    {ops::kTileMul, ElemOp::kMul,
     [](DataType dt, double a, double b, bool*) { return RoundTo(dt, a * b); }},
    {ops::kTileDiv, ElemOp::kDiv, Div},
    {ops::kTileMaximum, ElemOp::kMax,
     [](DataType dt, double a, double b, bool*) {
       return RoundTo(dt, ApplyElem(ElemOp::kMax, a, b));
     }},
    {ops::kTileMinimum, ElemOp::kMin,
     [](DataType dt, double a, double b, bool*) {
       return RoundTo(dt, ApplyElem(ElemOp::kMin, a, b));
     }},
};

// The typed twin of the member's ElemFn for T = float / int32_t: the same double
// computation rounded once to T, so results are bit-identical to the generic path.
template <typename T>
T RoundElem(double v) {
  if constexpr (std::is_same_v<T, float>)
    return static_cast<float>(v);
  else
    return static_cast<T>(SaturateToInt64(v));
}
template <typename T, ElemOp kOp>
T ApplyTyped(T a, T b, bool* div_zero) {
  if constexpr (kOp == ElemOp::kDiv && std::is_integral_v<T>) {
    if (b == 0) {
      *div_zero = true;
      return 0;
    }
    return RoundElem<T>(std::trunc(static_cast<double>(a) / static_cast<double>(b)));
  } else {
    return RoundElem<T>(ApplyElem(kOp, static_cast<double>(a), static_cast<double>(b)));
  }
}

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

// Calls fn(linear index in `shape`, linear index in `box`, length) for every
// innermost row of the box [0, box): `length` consecutive elements in both.
template <typename F>
void ForEachRow(const std::vector<int64_t>& shape, const std::vector<int64_t>& box, F&& fn) {
  int64_t n = 1;
  for (int64_t b : box) n *= b;
  if (n <= 0) return;
  if (box.empty()) {
    fn(int64_t{0}, int64_t{0}, int64_t{1});
    return;
  }
  int64_t len = box.back();
  std::vector<int64_t> idx(box.size(), 0);
  for (int64_t bi = 0; bi < n; bi += len) {
    fn(Lin(shape, idx), bi, len);
    for (size_t k = box.size() - 1; k-- > 0;) {
      if (++idx[k] < box[k]) break;
      idx[k] = 0;
    }
  }
}

// Copies the box rows between a tile of `shape` and a packed buffer over `box`.
void TileToPacked(const TileVal& t, const std::vector<int64_t>& shape,
                  const std::vector<int64_t>& box, uint8_t* out) {
  int64_t eb = DTypeBytes(t.dtype);
  ForEachRow(shape, box, [&](int64_t ti, int64_t bi, int64_t len) {
    std::memcpy(out + bi * eb, t.bytes.data() + ti * eb, static_cast<size_t>(len * eb));
  });
}
void PackedToTile(const uint8_t* in, const std::vector<int64_t>& box, TileVal& t) {
  int64_t eb = DTypeBytes(t.dtype);
  ForEachRow(t.shape, box, [&](int64_t ti, int64_t bi, int64_t len) {
    std::memcpy(t.bytes.data() + ti * eb, in + bi * eb, static_cast<size_t>(len * eb));
  });
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
  ex.CheckTransferAlignment(t, off, valid, role);
  if (valid == shape) {  // the whole tile: straight into its bytes
    ex.ReadBytes(t, device, off, valid, tile->bytes.data(), role);
    return tile;
  }
  ex.CheckRegion(t, device, off, valid, role);
  int64_t n = 1;
  for (int64_t v : valid) n *= v;
  std::vector<uint8_t> v(static_cast<size_t>(n * DTypeBytes(t.dtype)));
  ex.ReadBytes(t, device, off, valid, v.data(), role);
  PackedToTile(v.data(), valid, *tile);
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
  ex.CheckTransferAlignment(t, off, box, role);
  if (tile.dtype != t.dtype) {  // converted element by element, rounded to t's dtype
    std::vector<double> v;
    ForEachIn(tshape, box, [&](int64_t ti, int64_t) { v.push_back(tile.Get(ti)); });
    ex.WriteRegion(t, device, off, box, v.data(), atomic, role);
    return;
  }
  if (box == tshape) {  // the whole tile: straight from its bytes
    ex.WriteBytes(t, device, off, box, tile.bytes.data(), atomic, role);
    return;
  }
  ex.CheckRegion(t, device, off, box, role);
  int64_t n = 1;
  for (int64_t b : box) n *= b;
  std::vector<uint8_t> v(static_cast<size_t>(n * DTypeBytes(t.dtype)));
  TileToPacked(tile, tshape, box, v.data());
  ex.WriteBytes(t, device, off, box, v.data(), atomic, role);
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
  bool atomic = ex.KwEnum(c, "atomic", ir::AtomicType::kNone) == ir::AtomicType::kAdd;
  StoreTile(ex, tile, t, ex.device(), off, ext, atomic, "output_tensor");
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
  double fill = 0;
  switch (ex.KwEnum(c, "pad_value", ir::PadValue::kZero)) {
    case ir::PadValue::kNull:
    case ir::PadValue::kZero:
      break;
    case ir::PadValue::kMax:
      fill = IsFloat(in.dtype) ? INFINITY : RoundTo(in.dtype, 1e300);
      break;
    case ir::PadValue::kMin:
      fill = IsFloat(in.dtype) ? -INFINITY : RoundTo(in.dtype, -1e300);
      break;
  }
  auto out = std::make_shared<TileVal>(in);
  int64_t eb = DTypeBytes(in.dtype);
  uint8_t pad[8];
  StoreElem(pad, in.dtype, fill);
  // Row by row: a row inside the valid leading box is padded after its valid
  // columns, any other row entirely.
  size_t r = in.shape.size();
  int64_t len = r ? in.shape.back() : 1;
  int64_t nrows = len ? in.NumElements() / len : 0;
  std::vector<int64_t> idx(r ? r - 1 : 0, 0);  // the leading index of the row
  for (int64_t row = 0; row < nrows; ++row) {
    bool inside = true;
    for (size_t k = 0; k < idx.size(); ++k) inside = inside && idx[k] < in.valid[k];
    uint8_t* p = out->bytes.data() + row * len * eb;
    for (int64_t j = !inside ? 0 : r ? in.valid.back() : 1; j < len; ++j)
      std::memcpy(p + j * eb, pad, static_cast<size_t>(eb));
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
  double v = t.Get(Lin(t.shape, idx));
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
  out->Set(Lin(t.shape, idx), a[2].AsDouble());
  return Value::Of(out);
}

// The family member of the element-wise tile op being run (or its scalar twin).
const ElementwiseMember& MemberOf(Exec& ex, const ir::Call& c) {
  for (const ElementwiseMember& m : kElementwise)
    if (m.op == c.op->handle || ops::Get(m.op).scalar_twin == c.op->handle) return m;
  ex.Fail("internal: no element-wise kernel");
}

// out = l ⊕ r (r == nullptr: l ⊕ s) over out's valid box, on typed spans.
template <typename T, ElemOp kOp>
void TypedRows(const TileVal& l, const TileVal* r, T s, TileVal& out, bool* dz) {
  const T* a = l.As<T>();
  const T* b = r ? r->As<T>() : nullptr;
  T* o = out.As<T>();
  ForEachRow(l.shape, out.valid, [&](int64_t ti, int64_t, int64_t len) {
    if (b) {
      for (int64_t j = ti; j < ti + len; ++j) o[j] = ApplyTyped<T, kOp>(a[j], b[j], dz);
    } else {
      for (int64_t j = ti; j < ti + len; ++j) o[j] = ApplyTyped<T, kOp>(a[j], s, dz);
    }
  });
}
template <typename T>
void TypedBinary(ElemOp op, const TileVal& l, const TileVal* r, T s, TileVal& out, bool* dz) {
  switch (op) {
    case ElemOp::kAdd:
      return TypedRows<T, ElemOp::kAdd>(l, r, s, out, dz);
    case ElemOp::kSub:
      return TypedRows<T, ElemOp::kSub>(l, r, s, out, dz);
    case ElemOp::kMul:
      return TypedRows<T, ElemOp::kMul>(l, r, s, out, dz);
    case ElemOp::kDiv:
      return TypedRows<T, ElemOp::kDiv>(l, r, s, out, dz);
    case ElemOp::kMax:
      return TypedRows<T, ElemOp::kMax>(l, r, s, out, dz);
    case ElemOp::kMin:
      return TypedRows<T, ElemOp::kMin>(l, r, s, out, dz);
  }
}

// out = l ⊕ r (r == nullptr: l ⊕ s, s already in l's dtype) over out's valid box.
void Elementwise(Exec& ex, const ElementwiseMember& m, const TileVal& l, const TileVal* r, double s,
                 TileVal& out) {
  bool dz = false;
  if (l.dtype == DataType::kFP32) {
    TypedBinary<float>(m.kind, l, r, static_cast<float>(s), out, &dz);
  } else if (l.dtype == DataType::kInt32) {
    TypedBinary<int32_t>(m.kind, l, r, static_cast<int32_t>(s), out, &dz);
  } else {
    ForEachRow(l.shape, out.valid, [&](int64_t ti, int64_t, int64_t len) {
      for (int64_t j = ti; j < ti + len; ++j)
        out.Set(j, m.fn(l.dtype, l.Get(j), r ? r->Get(j) : s, &dz));
    });
  }
  if (dz) ex.Fail("integer division by zero");
}

Value TileBinary(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const ElementwiseMember& m = MemberOf(ex, c);
  const TileVal& l = ex.Tile(a[0], "lhs");
  const TileVal& r = ex.Tile(a[1], "rhs");
  if (l.shape != r.shape)
    ex.Fail(fmt::format("shape {} does not match {}", ShapeString(r.shape), ShapeString(l.shape)));
  auto out = NewTile(l.dtype, l.shape);
  for (size_t k = 0; k < out->valid.size(); ++k) out->valid[k] = std::min(l.valid[k], r.valid[k]);
  Elementwise(ex, m, l, &r, 0, *out);
  return Value::Of(out);
}

// Tile ⊕ scalar: the scalar is converted to the tile's dtype first (as the
// emitted pto.t*s op does), then each valid element is computed and rounded once.
Value TileScalar(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const ElementwiseMember& m = MemberOf(ex, c);
  const TileVal& l = ex.Tile(a[0], "lhs");
  double s = CastScalar(a[1], l.dtype).AsDouble();
  auto out = NewTile(l.dtype, l.shape);
  out->valid = l.valid;
  Elementwise(ex, m, l, nullptr, s, *out);
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
    out->Set(ti, CastScalar(Value::Float(in.Get(ti), DataType::kFP64), *dt).AsDouble());
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
      acc = RoundTo(in.dtype, acc + in.Get(r * in.shape[1] + c));
    out->Set(r, acc);
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

}  // namespace

ElemFn ElementwiseKernel(ir::OpHandle tile_op) {
  static const std::array<ElemFn, ops::kOpCount> kernels = [] {
    std::array<ElemFn, ops::kOpCount> k{};
    for (const ElementwiseMember& m : kElementwise) {
      k[m.op.id] = m.fn;
      if (ir::OpHandle s = ops::Get(m.op).scalar_twin; s.valid()) k[s.id] = m.fn;
    }
    return k;
  }();
  return tile_op.valid() ? kernels[tile_op.id] : nullptr;
}

void RegisterTileSemantics(OpTable& t) {
  t.Set(ops::kTileLoad, Load);
  t.Set(ops::kTileStore, Store);
  t.Set(ops::kTileCreate, Create);
  t.Set(ops::kTileSetValidshape, SetValid);
  t.Set(ops::kTileFillpadInplace, FillPad);
  t.Set(ops::kTileMove, Move);
  t.Set(ops::kTileGetSubblockIdx, SubblockIdx);
  t.Set(ops::kTileRead, TileRead);
  t.Set(ops::kTileWrite, TileWrite);
  t.Set(ops::kTileCast, Cast);
  t.Set(ops::kTileRowSum, RowSum);
  t.Set(ops::kTileReshape, Reshape);
  // The element-wise family: each member and its scalar twin (tile.add, tile.adds).
  for (const ElementwiseMember& m : kElementwise) {
    t.Set(m.op, TileBinary);
    if (ir::OpHandle s = ops::Get(m.op).scalar_twin; s.valid()) t.Set(s, TileScalar);
  }
}

}  // namespace pypto::sim
