// PTO emission of kernel-local scalar arrays (array.*, pl.Array) as PTOAS
// stack-local arrays:
//   %a = pto.declare_local_array -> !pto.local_array<4xi32>
//   %v = pto.local_array_get %a[%i] : !pto.local_array<4xi32> -> i32
//   pto.local_array_set %a[%i], %v : !pto.local_array<4xi32>, i32
// The IR's update_element is functional; here it writes in place and its result
// is bound to the same storage (loops alias arrays like tensors instead of
// carrying them through scf iter args, see PtoFunctionEmitter::Carried). This is
// exact because an updated array's previous version is never read again in IR
// produced from the DSL (`a[i] = v` rebinds `a`).
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/casting.h"

namespace pypto::codegen {

using namespace pypto::ir;

namespace {

std::string LocalArrayType(const ArrayType* t) {
  return fmt::format("!pto.local_array<{}x{}>", t->extent,
                     PtoFunctionEmitter::MlirScalarType(t->dtype));
}

const PtoBinding* ArrayArg(PtoFunctionEmitter& fe, const Call* c) {
  const PtoBinding* b = fe.Lookup(c->args[0]);
  if (!b || b->kind != PtoBinding::Kind::kArray) {
    fe.Error(c->span, fmt::format("{}: argument 'array' is not a pl.Array available in PTO code",
                                  PtoFunctionEmitter::OpName(c)));
    return nullptr;
  }
  return b;
}

bool Create(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const auto* t = Cast<ArrayType>(c->type);
  PtoBinding b;
  b.kind = PtoBinding::Kind::kArray;
  b.value = {fe.Named(result ? result->name_hint : "array"), LocalArrayType(t)};
  fe.Op(fmt::format("{} = pto.declare_local_array -> {}", b.value.name, b.value.type));
  if (result) fe.Bind(result, b);
  return true;
}

bool GetElement(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* a = ArrayArg(fe, c);
  if (!a) return false;
  std::string i = fe.AsIndex(c->args[1]);
  if (i.empty()) return false;
  std::string ty = PtoFunctionEmitter::MlirScalarType(Cast<ArrayType>(c->args[0]->type)->dtype);
  std::string v = fe.Temp();
  fe.Op(fmt::format("{} = pto.local_array_get {}[{}] : {} -> {}", v, a->value.name, i,
                    a->value.type, ty));
  if (result) {
    PtoBinding b;
    b.kind = PtoBinding::Kind::kScalar;
    b.value = {v, ty};
    fe.Bind(result, b);
  }
  return true;
}

bool UpdateElement(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* a = ArrayArg(fe, c);
  if (!a) return false;
  PtoBinding arr = *a;
  std::string i = fe.AsIndex(c->args[1]);
  if (i.empty()) return false;
  std::string ty = PtoFunctionEmitter::MlirScalarType(Cast<ArrayType>(c->args[0]->type)->dtype);
  PtoValue v = fe.CastTo(fe.Value(c->args[2]), ty);
  if (!v.ok()) return false;
  fe.Op(fmt::format("pto.local_array_set {}[{}], {} : {}, {}", arr.value.name, i, v.name,
                    arr.value.type, ty));
  if (result) fe.Bind(result, arr);
  return true;
}

}  // namespace

void RegisterPtoArrayOps(PtoOpTable& t) {
  t.Emit(ops::kArrayCreate, Create);
  t.Emit(ops::kArrayGetElement, GetElement);
  t.Emit(ops::kArrayUpdateElement, UpdateElement);
}

}  // namespace pypto::codegen
