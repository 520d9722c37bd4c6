// Values of call kwargs and compiler attrs (`op=pld.NotifyOp.Set`, `dtype=pl.FP32`,
// `attrs={"device": r}`). A closed set of kinds keeps printing and parsing total.
// Enum-typed kwargs are stored as kInt payloads (the ABI value); the op's kwarg
// schema says which enum, so they print by name. kEnum is for values whose enum is
// known from the value itself (attrs such as arg_directions).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pypto/core/dtype.h"
#include "pypto/ir/enums.h"

namespace pypto::ir {

struct Expr;

struct Attr {
  enum class Kind : uint8_t { kNone, kInt, kFloat, kBool, kString, kDType, kEnum, kExpr, kList };
  Kind kind = Kind::kNone;
  int64_t i = 0;                          // kInt, kEnum (value)
  double f = 0;                           // kFloat
  bool b = false;                         // kBool
  DataType dtype = DataType::kFP32;       // kDType
  EnumKind enum_kind = EnumKind::kCount;  // kEnum
  const Expr* expr = nullptr;             // kExpr
  std::string s;                          // kString
  std::vector<Attr> list;                 // kList

  static Attr Int(int64_t v) {
    Attr a;
    a.kind = Kind::kInt;
    a.i = v;
    return a;
  }
  static Attr Float(double v) {
    Attr a;
    a.kind = Kind::kFloat;
    a.f = v;
    return a;
  }
  static Attr Bool(bool v) {
    Attr a;
    a.kind = Kind::kBool;
    a.b = v;
    return a;
  }
  static Attr Str(std::string v) {
    Attr a;
    a.kind = Kind::kString;
    a.s = std::move(v);
    return a;
  }
  static Attr DType(DataType v) {
    Attr a;
    a.kind = Kind::kDType;
    a.dtype = v;
    return a;
  }
  static Attr Enum(EnumKind k, int v) {
    Attr a;
    a.kind = Kind::kEnum;
    a.enum_kind = k;
    a.i = v;
    return a;
  }
  static Attr Of(const Expr* e) {
    Attr a;
    a.kind = Kind::kExpr;
    a.expr = e;
    return a;
  }
  static Attr List(std::vector<Attr> v) {
    Attr a;
    a.kind = Kind::kList;
    a.list = std::move(v);
    return a;
  }
};

struct NamedAttr {
  std::string name;
  Attr value;
};
using AttrList = std::vector<NamedAttr>;

// Lookup helpers; nullptr when absent.
inline const Attr* FindAttr(const AttrList& l, std::string_view name) {
  for (const auto& a : l)
    if (a.name == name) return &a.value;
  return nullptr;
}

}  // namespace pypto::ir
