// Semantics of the kernel-local scalar arrays (array.*). An array value is a
// 1-D tile value of the array's extent and dtype (elements exactly
// representable in the dtype, like every tile), so it needs no value kind of
// its own. create zero-fills; update_element copies (arrays are SSA values: a
// loop iteration's array is never changed behind an earlier reader's back) and
// converts the value to the element dtype as a scalar store does (integers wrap).
#include <fmt/format.h>

#include "pypto/ir/casting.h"
#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

namespace {

Value Create(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  auto dt = Exec::KwDType(c, "dtype");
  if (!dt) ex.Fail("missing dtype=");
  return Value::Of(NewTile(*dt, {ex.Int(a[0], "extent")}));
}

int64_t CheckedIndex(Exec& ex, const TileVal& arr, const Value& i) {
  int64_t k = ex.Int(i, "index");
  if (arr.shape.size() != 1) ex.Fail("'array' is not a pl.Array value");
  if (k < 0 || k >= arr.shape[0])
    ex.Fail(fmt::format("index {} out of bounds for a pl.Array of extent {}", k, arr.shape[0]));
  return k;
}

Value GetElement(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TileVal& arr = ex.Tile(a[0], "array");
  double v = arr.Get(CheckedIndex(ex, arr, a[1]));
  return IsFloat(arr.dtype) ? Value::Float(v, arr.dtype)
                            : Value::Int(static_cast<int64_t>(v), arr.dtype);
}

Value UpdateElement(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TileVal& arr = ex.Tile(a[0], "array");
  int64_t k = CheckedIndex(ex, arr, a[1]);
  auto out = std::make_shared<TileVal>(arr);
  out->Set(k, CastScalar(a[2], arr.dtype).AsDouble());
  return Value::Of(out);
}

}  // namespace

void RegisterArraySemantics(OpTable& t) {
  t.Set(ops::kArrayCreate, Create);
  t.Set(ops::kArrayGetElement, GetElement);
  t.Set(ops::kArrayUpdateElement, UpdateElement);
}

}  // namespace pypto::sim
