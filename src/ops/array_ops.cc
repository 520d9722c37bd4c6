// Kernel-local scalar arrays (pl.array.*): upstream's on-core arrays, a few
// integer scalars kept in the scalar unit's local memory (pl.Mem.ScalarLocal;
// PTO `!pto.local_array<NxT>`). Type `pl.Array[extent, dtype]`.
//
//   a = pl.array.create(4, pl.INT32)            # array.create(extent, dtype=)
//   v = a[i]                                    # array.get_element(a, i)
//   a[i] = v                                    # a = array.update_element(a, i, v)
//
// Writes are functional in the IR: update_element returns the updated array
// (the same type), so arrays are ordinary SSA values that loops carry through
// iter args; the PTO emitter performs the update in place. Contents of a fresh
// array are unspecified until written (the executor zero-fills).
#include <fmt/format.h>

#include "deduce_checks.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_utils.h"
#include "register_op.h"

namespace pypto::ir {

namespace {

bool ArrayDTypeOk(DataType d) { return IsInteger(d) && d != DataType::kIndex; }

const Type* DeduceArrayCreate(DeduceContext& dc) {
  const auto* n = As<ConstInt>(dc.args[0]);
  if (!n) return dc.ErrorAt(0, "must be an integer constant, got " + TypeStr(dc.args[0]->type));
  if (n->value <= 0) return dc.ErrorAt(0, fmt::format("must be positive, got {}", n->value));
  DataType dt = dc.Kwarg("dtype")->dtype;
  if (!ArrayDTypeOk(dt) && dt != DataType::kBool)
    return dc.KwargError("dtype", fmt::format("must be an integer dtype or pl.BOOL (not pl.INDEX), "
                                              "got {}",
                                              DTypeStr(dt)));
  return dc.ctx.Make<ArrayType>(dt, n->value);
}

const ArrayType* ArrayAndIndex(DeduceContext& dc) {
  const auto* a = As<ArrayType>(dc.args[0]->type);
  if (!a) {
    dc.ErrorAt(0, "must be a pl.Array, got " + TypeStr(dc.args[0]->type));
    return nullptr;
  }
  if (!ExpectIntegerScalar(dc, 1)) return nullptr;
  if (auto i = StaticInt(dc.args[1]); i && (*i < 0 || *i >= a->extent)) {
    dc.ErrorAt(1, fmt::format("{} is out of bounds for a pl.Array of extent {}", *i, a->extent));
    return nullptr;
  }
  return a;
}

const Type* DeduceGetElement(DeduceContext& dc) {
  const ArrayType* a = ArrayAndIndex(dc);
  return a ? dc.ctx.Scalar(a->dtype) : nullptr;
}

const Type* DeduceUpdateElement(DeduceContext& dc) {
  const ArrayType* a = ArrayAndIndex(dc);
  if (!a || !ExpectScalar(dc, 2)) return nullptr;
  DataType v = *ScalarDType(dc.args[2]);
  // An INDEX value (a loop variable) converts to an integer element and back.
  bool ok = v == a->dtype || ScalarAssignable(dc.args[2], a->dtype) ||
            (v == DataType::kIndex && ArrayDTypeOk(a->dtype));
  if (!ok)
    return dc.ErrorAt(2, fmt::format("must be a pl.Scalar[{}] (the array's dtype), got {}",
                                     DTypeStr(a->dtype), TypeStr(dc.args[2]->type)));
  return dc.args[0]->type;
}

}  // namespace

void RegisterArrayOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kArrayCreate)
      .Doc(
          "A kernel-local array of `extent` scalars of an integer dtype or pl.BOOL "
          "(pl.Array[extent, dtype], in the scalar unit's local memory). Upstream's form "
          "pl.array.create(16, pl.INT32) passes the dtype positionally.")
      .Category("ArrayOp")
      .Arg("extent", "positive integer constant")
      .RequiredKwarg("dtype", KwargType::kDType, "element dtype (integer or pl.BOOL)")
      .NoArgWrites()
      .Deduce(DeduceArrayCreate);

  ops::RegisterOp(r, ops::kArrayGetElement)
      .Doc("Element `index` of a pl.Array (written `a[index]`).")
      .Category("ArrayOp")
      .Arg("array", "pl.Array")
      .Arg("index", "integer scalar in [0, extent)")
      .NoArgWrites()
      .Deduce(DeduceGetElement);

  ops::RegisterOp(r, ops::kArrayUpdateElement)
      .Doc(
          "The array with element `index` replaced by `value` (functional; `a[index] = value` "
          "is `a = pl.array.update_element(a, index, value)`). The value has the array's dtype "
          "(a literal or an INDEX scalar converts).")
      .Category("ArrayOp")
      .Arg("array", "pl.Array")
      .Arg("index", "integer scalar in [0, extent)")
      .Arg("value", "scalar of the array's dtype")
      .NoArgWrites()
      .Deduce(DeduceUpdateElement);
}

}  // namespace pypto::ir
