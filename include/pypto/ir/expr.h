// IR expressions. Every Expr has a type (set at construction: the registry's
// deducer computes it for Calls). Var identity is the node pointer (plus a
// context-unique id for stable printing); name hints are cosmetic. IterArg is a
// Var in C++ but its own kind, so As<Var> does not match it; AsVarLike does.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pypto/ir/attr.h"
#include "pypto/ir/node.h"
#include "pypto/ir/op_handle.h"
#include "pypto/ir/type.h"

namespace pypto::ir {

struct OpDef;

struct Expr : Node {
  static bool ClassOf(NodeKind k) { return k >= kFirstExpr && k <= kLastExpr; }
  const Type* type;

 protected:
  Expr(NodeKind k, const Type* t, Span s) : Node(k, s), type(t) {}
};

struct Var : Expr {
  static constexpr NodeKind kKind = NodeKind::kVar;
  static bool ClassOf(NodeKind k) { return k == kKind; }  // exact: not IterArg
  Var(std::string name, const Type* t, uint64_t id_, Span s = {})
      : Var(kKind, std::move(name), t, id_, s) {}
  std::string name_hint;
  uint64_t id;

 protected:
  Var(NodeKind k, std::string name, const Type* t, uint64_t id_, Span s)
      : Expr(k, t, s), name_hint(std::move(name)), id(id_) {}
};

// Loop-carried value of a For/While; `init` is its value on entry.
struct IterArg : Var {
  static constexpr NodeKind kKind = NodeKind::kIterArg;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  IterArg(std::string name, const Type* t, uint64_t id_, const Expr* init_, Span s = {})
      : Var(kKind, std::move(name), t, id_, s), init(init_) {}
  const Expr* init;
};

struct ConstInt : Expr {
  static constexpr NodeKind kKind = NodeKind::kConstInt;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  ConstInt(int64_t v, const Type* t, Span s = {}) : Expr(kKind, t, s), value(v) {}
  int64_t value;
  DataType dtype() const;
};

struct ConstFloat : Expr {
  static constexpr NodeKind kKind = NodeKind::kConstFloat;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  ConstFloat(double v, const Type* t, Span s = {}) : Expr(kKind, t, s), value(v) {}
  double value;
  DataType dtype() const;
};

struct ConstBool : Expr {
  static constexpr NodeKind kKind = NodeKind::kConstBool;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  ConstBool(bool v, const Type* t, Span s = {}) : Expr(kKind, t, s), value(v) {}
  bool value;
};

// Scalar arithmetic / comparison / logic. FloorDiv and FloorMod follow Python
// (`//`, `%`); Div is true division (floats).
enum class BinaryOp : uint8_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kFloorDiv,
  kFloorMod,
  kPow,
  kMin,
  kMax,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,
  kOr,
  kBitAnd,
  kBitOr,
  kBitXor,
  kShl,
  kShr,
};
std::string_view BinaryOpSymbol(BinaryOp op);  // "+", "//", ... ("min"/"max" for calls)
bool IsComparison(BinaryOp op);

struct BinaryExpr : Expr {
  static constexpr NodeKind kKind = NodeKind::kBinaryExpr;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  BinaryExpr(BinaryOp o, const Expr* l, const Expr* r, const Type* t, Span s = {})
      : Expr(kKind, t, s), op(o), lhs(l), rhs(r) {}
  BinaryOp op;
  const Expr* lhs;
  const Expr* rhs;
};

// kCast converts to the dtype of the result type (printed pl.cast(x, pl.INT32)).
enum class UnaryOp : uint8_t { kNeg, kNot, kBitNot, kAbs, kCast };

struct UnaryExpr : Expr {
  static constexpr NodeKind kKind = NodeKind::kUnaryExpr;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  UnaryExpr(UnaryOp o, const Expr* x, const Type* t, Span s = {})
      : Expr(kKind, t, s), op(o), operand(x) {}
  UnaryOp op;
  const Expr* operand;
};

// A call of a registered op (`op` set) or of a function of the program (`callee`
// set, printed `self.callee(...)`). kwargs are user-facing op arguments checked by
// the op's schema; attrs are compiler metadata (device=, arg_directions, ...).
struct Call : Expr {
  static constexpr NodeKind kKind = NodeKind::kCall;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  Call(const OpDef* o, std::string callee_, std::vector<const Expr*> a, AttrList kw, AttrList at,
       const Type* t, Span s = {})
      : Expr(kKind, t, s),
        op(o),
        callee(std::move(callee_)),
        args(std::move(a)),
        kwargs(std::move(kw)),
        attrs(std::move(at)) {}
  const OpDef* op;     // null for function calls
  std::string callee;  // empty for op calls
  std::vector<const Expr*> args;
  AttrList kwargs;
  AttrList attrs;
  // True when this calls the op `h` (pypto/ops/ops.h handles).
  bool Is(OpHandle h) const;
  bool IsOp(std::string_view name) const;
  std::string_view OpName() const;  // "" for function calls
};

struct MakeTuple : Expr {
  static constexpr NodeKind kKind = NodeKind::kMakeTuple;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  MakeTuple(std::vector<const Expr*> e, const Type* t, Span s = {})
      : Expr(kKind, t, s), elements(std::move(e)) {}
  std::vector<const Expr*> elements;
};

struct TupleGetItem : Expr {
  static constexpr NodeKind kKind = NodeKind::kTupleGetItem;
  static bool ClassOf(NodeKind k) { return k == kKind; }
  TupleGetItem(const Expr* t, int64_t i, const Type* ty, Span s = {})
      : Expr(kKind, ty, s), tuple(t), index(i) {}
  const Expr* tuple;
  int64_t index;
};

}  // namespace pypto::ir
