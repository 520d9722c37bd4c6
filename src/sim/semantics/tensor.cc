// Semantics of the core tensor.* ops (GM tensors: host tensors and this rank's
// window slices) and system.* ops. Element-wise ops compute only the valid
// region; the result is a fresh packed tensor whose valid region is the
// intersection of the operands' (elements outside it are 0).
#include <fmt/format.h>

#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

namespace {

std::vector<int64_t> Zeros(size_t n) { return std::vector<int64_t>(n, 0); }

// A tensor form of the element-wise family (tensor.add, tensor.adds): the
// element kernel of its tile twin over the valid region.
Value TensorBinary(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  ElemFn op = ElementwiseKernel(c.op->tile_twin);
  if (!op) ex.Fail("internal: no element-wise kernel");
  const TensorVal& l = ex.Tensor(a[0], "lhs");
  std::vector<int64_t> valid = l.valid;
  std::vector<double> rv;
  bool scalar = a[1].kind == Value::Kind::kScalar;
  if (!scalar) {
    const TensorVal& r = ex.Tensor(a[1], "rhs");
    if (r.shape != l.shape)
      ex.Fail(
          fmt::format("shape {} does not match {}", ShapeString(r.shape), ShapeString(l.shape)));
    for (size_t k = 0; k < valid.size(); ++k) valid[k] = std::min(valid[k], r.valid[k]);
    rv = ex.ReadRegion(r, ex.device(), Zeros(r.rank()), valid, "rhs");
  }
  std::vector<double> lv = ex.ReadRegion(l, ex.device(), Zeros(l.rank()), valid, "lhs");
  // A scalar operand is first converted to the tensor's dtype (as the hardware does).
  double sv = scalar ? CastScalar(a[1], l.dtype).AsDouble() : 0;
  bool dz = false;
  for (size_t i = 0; i < lv.size(); ++i) lv[i] = op(l.dtype, lv[i], scalar ? sv : rv[i], &dz);
  if (dz) ex.Fail("integer division by zero");
  auto out = NewHostTensor(l.dtype, l.shape);
  out->valid = valid;
  ex.WriteRegion(*out, ex.device(), Zeros(out->rank()), valid, lv.data(), false, "result");
  return Value::Of(out);
}

Value TCreate(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  auto dt = Exec::KwDType(c, "dtype");
  if (!dt) ex.Fail("missing dtype=");
  return Value::Of(NewHostTensor(*dt, ex.Ints(a[0], "shape")));
}

Value TView(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TensorVal& in = ex.Tensor(a[0], "input");
  auto out = std::make_shared<TensorVal>(in);
  if (const Value* s = Exec::Arg(c, a, "shape")) {
    std::vector<int64_t> shape = ex.Ints(*s, "shape");
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    if (n != in.NumElements())
      ex.Fail(fmt::format("view shape {} has {} elements; input has {}", ShapeString(shape), n,
                          in.NumElements()));
    if (in.strides != PackedStrides(in.shape) && shape != in.shape)
      ex.Fail("reshaping a strided view is not supported by pypto-run");
    out->shape = shape;
    out->strides = PackedStrides(shape);
    out->valid = shape;
  }
  if (const Value* v = Exec::Arg(c, a, "valid_shape")) {
    std::vector<int64_t> valid = ex.Ints(*v, "valid_shape");
    if (!valid.empty()) out->valid = valid;
  }
  out->name.clear();
  return Value::Of(out);
}

Value TSlice(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TensorVal& in = ex.Tensor(a[0], "input");
  std::vector<int64_t> shape = ex.Ints(*Exec::Arg(c, a, "shape"), "shape");
  std::vector<int64_t> off = ex.Ints(*Exec::Arg(c, a, "offset"), "offset");
  std::vector<int64_t> valid;
  if (const Value* v = Exec::Arg(c, a, "valid_shape")) valid = ex.Ints(*v, "valid_shape");
  std::vector<int64_t> drop;
  if (const Value* d = Exec::Arg(c, a, "drop_dims")) drop = ex.Ints(*d, "drop_dims");
  if (shape.size() != in.rank() || off.size() != in.rank())
    ex.Fail(fmt::format("region rank does not match tensor rank {}", in.rank()));
  for (size_t k = 0; k < in.rank(); ++k)
    if (off[k] < 0 || shape[k] < 0 || off[k] + shape[k] > in.shape[k])
      ex.Fail(fmt::format("slice offsets {} extents {} exceed tensor shape {}", ShapeString(off),
                          ShapeString(shape), ShapeString(in.shape)));
  auto out = std::make_shared<TensorVal>();
  out->host = in.host;
  out->alloc = in.alloc;
  out->dtype = in.dtype;
  out->offset = in.offset;
  for (size_t k = 0; k < in.rank(); ++k) out->offset += off[k] * in.strides[k];
  for (size_t k = 0; k < in.rank(); ++k) {
    if (std::find(drop.begin(), drop.end(), static_cast<int64_t>(k)) != drop.end()) continue;
    out->shape.push_back(shape[k]);
    out->strides.push_back(in.strides[k]);
    int64_t pv = std::max<int64_t>(0, std::min(shape[k], in.valid[k] - off[k]));
    out->valid.push_back(valid.size() == in.rank() ? std::min(valid[k], shape[k]) : pv);
  }
  return Value::Of(out);
}

Value TRead(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TensorVal& t = ex.Tensor(a[0], "tensor");
  std::vector<int64_t> idx = ex.Ints(a[1], "indices");
  std::vector<int64_t> one(t.rank(), 1);
  double v = ex.ReadRegion(t, ex.device(), idx, one, "indices")[0];
  if (IsFloat(t.dtype)) return Value::Float(v, t.dtype);
  return Value::Int(static_cast<int64_t>(v), t.dtype);
}

Value TWrite(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TensorVal& t = ex.Tensor(a[0], "tensor");
  std::vector<int64_t> idx = ex.Ints(a[1], "indices");
  std::vector<int64_t> one(t.rank(), 1);
  double v = a[2].AsDouble();
  ex.WriteRegion(t, ex.device(), idx, one, &v, false, "indices");
  return a[0];
}

Value TCast(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TensorVal& in = ex.Tensor(a[0], "input");
  auto dt = Exec::KwDType(c, "target_type");
  if (!dt) ex.Fail("missing target_type=");
  std::vector<double> v = ex.ReadRegion(in, ex.device(), Zeros(in.rank()), in.valid, "input");
  auto out = NewHostTensor(*dt, in.shape);
  out->valid = in.valid;
  ex.WriteRegion(*out, ex.device(), Zeros(in.rank()), in.valid, v.data(), false, "result");
  return Value::Of(out);
}

// tensor.assemble: the source's valid region is written at `offset` of the
// target (in place, like tile.store); returns the target.
Value TAssemble(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const Value* tv = Exec::Arg(c, a, "target");
  const TensorVal& t = ex.Tensor(*tv, "target");
  const TensorVal& src = ex.Tensor(*Exec::Arg(c, a, "source"), "source");
  std::vector<int64_t> off = ex.Ints(*Exec::Arg(c, a, "offset"), "offset");
  if (src.rank() != t.rank() || off.size() != t.rank())
    ex.Fail(fmt::format("source rank {} / offsets rank {} do not match target rank {}", src.rank(),
                        off.size(), t.rank()));
  for (size_t k = 0; k < t.rank(); ++k)
    if (off[k] < 0 || off[k] + src.valid[k] > t.shape[k])
      ex.Fail(fmt::format("region at offsets {} with extents {} exceeds target shape {}",
                          ShapeString(off), ShapeString(src.valid), ShapeString(t.shape)));
  std::vector<double> v = ex.ReadRegion(src, ex.device(), Zeros(src.rank()), src.valid, "source");
  ex.WriteRegion(t, ex.device(), off, src.valid, v.data(), false, "target");
  return *tv;
}

Value NoOp(Exec&, const ir::Call&, std::vector<Value>&) { return Value::None(); }

// system.check: a failed run-time precondition stops the run with the lowering's
// own message (not prefixed with the op name: it names the call it checks).
Value Check(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  if (ex.Int(a[0], "cond") != 0) return Value::None();
  std::string msg = Exec::KwStr(c, "msg", "check failed");
  if (const Value* v = Exec::Arg(c, a, "values")) {
    size_t at = 0;
    for (int64_t x : ex.Ints(*v, "values")) {
      at = msg.find("{}", at);
      if (at == std::string::npos) break;
      std::string shown = std::to_string(x);
      msg.replace(at, 2, shown);
      at += shown.size();
    }
  }
  if (ex.device() >= 0) msg += fmt::format(" (on rank {})", ex.device());
  throw SimError(c.span, msg);
}

}  // namespace

void RegisterTensorSemantics(OpTable& t) {
  // kHostData: on the host these touch tensor data, so queued device work lands
  // first; view and slice only make new views.
  t.Set(ops::kTensorAssemble, TAssemble, OpKind::kHostData);
  t.Set(ops::kTensorCreate, TCreate, OpKind::kHostData);
  t.Set(ops::kTensorView, TView);
  t.Set(ops::kTensorSlice, TSlice);
  t.Set(ops::kTensorRead, TRead, OpKind::kHostData);
  t.Set(ops::kTensorWrite, TWrite, OpKind::kHostData);
  t.Set(ops::kTensorCast, TCast, OpKind::kHostData);
  // The element-wise family: every tensor op whose tile twin has an element kernel.
  for (const ir::OpDef* d : ops::Registry().All())
    if (ElementwiseKernel(d->tile_twin) != nullptr)
      t.Set(d->handle, TensorBinary, OpKind::kHostData);
  // The simulator is sequentially consistent: fences and cache maintenance are
  // ordering no-ops (ordering comes from notify/wait edges).
  t.Set(ops::kSystemFence, NoOp);
  t.Set(ops::kSystemCacheinvalid, NoOp);
  t.Set(ops::kSystemCheck, Check);
}

}  // namespace pypto::sim
