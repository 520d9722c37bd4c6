// Expression lowering: names, literals, scalar arithmetic with dtype promotion,
// comparisons and logic, list literals (MakeTuple), subscripts (tensor.slice /
// tensor.read / TupleGetItem) and module-level constant evaluation.
//
// Literal typing: a bare int is ConstInt(INDEX), a float ConstFloat(FP32).
// Arithmetic is folded only when an operand came from a module constant (or
// pl.X.get_byte()), mirroring the Python DSL where those are Python values;
// literal-only arithmetic written in the text stays as written so printed IR
// re-parses to the same IR.
#include <fmt/format.h>

#include <cmath>

#include "lower.h"
#include "pypto/core/int_fold.h"
#include "pypto/ir/int_expr_fold.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"

namespace pypto::ir::parser {

const ConstVal* Lowerer::NamedConst(const PyExpr* e) const {
  if (e->kind != EK::kName) return nullptr;
  auto it = consts_.find(e->str);
  if (it == consts_.end() || LookupVar(e->str)) return nullptr;
  return &it->second;
}

std::string Lowerer::DescribeName(const PyExpr* e) const {
  if (e->kind != EK::kName) return {};
  const std::string& n = e->str;
  if (LookupVar(n)) return fmt::format("'{}' is a variable, not a constant", n);
  if (const ConstVal* c = NamedConst(e)) {
    switch (c->k) {
      case ConstVal::K::kDType:
        return fmt::format("'{}' is the dtype pl.{}", n, DTypeName(c->dt));
      case ConstVal::K::kEnum:
        return fmt::format("'{}' is the enum value {}", n,
                           EnumValueName(c->ek, static_cast<int>(c->i)).value_or("?"));
      case ConstVal::K::kInt:
        return fmt::format("'{}' is the integer constant {}", n, c->i);
      case ConstVal::K::kFloat:
        return fmt::format("'{}' is a float constant", n);
      case ConstVal::K::kBool:
        return fmt::format("'{}' is a bool constant", n);
      case ConstVal::K::kStr:
        return fmt::format("'{}' is a string constant", n);
      case ConstVal::K::kList:
        return fmt::format("'{}' is a list constant", n);
    }
  }
  for (const Var* v : dyn_dims_)
    if (v->name_hint == n) return fmt::format("'{}' is a dynamic dimension", n);
  if (func_index_.count(n)) return fmt::format("'{}' is a function", n);
  if (non_const_globals_.count(n))
    return fmt::format("module-level name '{}' is not a compile-time constant", n);
  return fmt::format("'{}' is undefined", n);
}

std::string Lowerer::ExpectedDType(std::string_view what, const PyExpr* e,
                                   std::string_view example) const {
  std::string d = DescribeName(e);
  if (d.empty()) return fmt::format("{}: expected a dtype such as {}", what, example);
  return fmt::format("{}: {}; expected a dtype such as {}", what, d, example);
}

std::optional<DataType> Lowerer::DTypeOf(const PyExpr* e) {
  if (e->kind == EK::kName) {
    const ConstVal* c = NamedConst(e);
    if (c && c->k == ConstVal::K::kDType) return c->dt;
    return std::nullopt;
  }
  std::string n = DottedName(e);
  if (n.rfind("pl.", 0) != 0 || n.find('.', 3) != std::string::npos) return std::nullopt;
  std::string up = n.substr(3);
  for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return DTypeFromName(up);
}

std::optional<std::pair<EnumKind, int>> Lowerer::EnumOf(const PyExpr* e) {
  if (e->kind == EK::kName) {
    const ConstVal* c = NamedConst(e);
    if (c && c->k == ConstVal::K::kEnum) return std::make_pair(c->ek, static_cast<int>(c->i));
    return std::nullopt;
  }
  std::string n = DottedName(e);
  if (n.empty()) return std::nullopt;
  return LookupEnumValue(n);
}

namespace {

std::optional<BinaryOp> BinaryOpOf(const std::string& s) {
  static const std::pair<const char*, BinaryOp> kOps[] = {
      {"+", BinaryOp::kAdd},    {"-", BinaryOp::kSub},       {"*", BinaryOp::kMul},
      {"/", BinaryOp::kDiv},    {"//", BinaryOp::kFloorDiv}, {"%", BinaryOp::kFloorMod},
      {"**", BinaryOp::kPow},   {"==", BinaryOp::kEq},       {"!=", BinaryOp::kNe},
      {"<", BinaryOp::kLt},     {"<=", BinaryOp::kLe},       {">", BinaryOp::kGt},
      {">=", BinaryOp::kGe},    {"and", BinaryOp::kAnd},     {"or", BinaryOp::kOr},
      {"&", BinaryOp::kBitAnd}, {"|", BinaryOp::kBitOr},     {"^", BinaryOp::kBitXor},
      {"<<", BinaryOp::kShl},   {">>", BinaryOp::kShr}};
  for (const auto& [sym, op] : kOps)
    if (s == sym) return op;
  return std::nullopt;
}

// Folds a binary op of two integer constants (int_fold.h: checked, Python
// semantics); nullopt with `*err` set when the op is integer arithmetic that has
// no int64 result, nullopt with kNone when it is not integer arithmetic.
std::optional<int64_t> FoldInt(BinaryOp op, int64_t a, int64_t b, IntFoldError* err) {
  *err = IntFoldError::kNone;
  auto iop = IntFoldOpOf(op);
  if (!iop) return std::nullopt;
  IntFold f = FoldIntBinary(*iop, a, b);
  *err = f.error;
  return f.value;
}

}  // namespace

std::optional<ConstVal> Lowerer::EvalConst(const PyExpr* e, bool report) {
  auto fail = [&](const std::string& msg) -> std::optional<ConstVal> {
    if (report) Error(e->span, msg);
    return std::nullopt;
  };
  // Integer arithmetic on constants that has no int64 value is always an error
  // (Python would compute a big integer; the IR cannot hold one).
  auto fold_failure = [&](IntFoldError err, const std::string& what) -> std::optional<ConstVal> {
    Error(e->span, fmt::format("{} in the constant expression {}{}", IntFoldErrorText(err), what,
                               err == IntFoldError::kOverflow
                                   ? " (the result does not fit in a 64-bit integer)"
                                   : ""));
    return std::nullopt;
  };
  ConstVal v;
  switch (e->kind) {
    case EK::kInt: {
      uint64_t lim = e->neg ? (uint64_t{1} << 63) : uint64_t(INT64_MAX);
      if (e->overflow || e->ival > lim) return fail("integer literal does not fit in 64 bits");
      v.k = ConstVal::K::kInt;
      v.i = e->neg ? static_cast<int64_t>(0 - e->ival) : static_cast<int64_t>(e->ival);
      return v;
    }
    case EK::kFloat:
      v.k = ConstVal::K::kFloat;
      v.f = e->fval;
      return v;
    case EK::kBool:
      v.k = ConstVal::K::kBool;
      v.b = e->bval;
      return v;
    case EK::kString:
      if (e->fstring) return fail("f-strings are not supported in IR text; use a plain string");
      v.k = ConstVal::K::kStr;
      v.s = e->str;
      return v;
    case EK::kList:
    case EK::kTuple: {
      v.k = ConstVal::K::kList;
      for (const PyExpr* x : e->items) {
        auto c = EvalConst(x, report);
        if (!c) return std::nullopt;
        v.list.push_back(*c);
      }
      return v;
    }
    case EK::kName: {
      auto it = consts_.find(e->str);
      if (it != consts_.end()) return it->second;
      return fail(fmt::format("'{}' is not a compile-time constant", e->str));
    }
    case EK::kUnary: {
      auto c = EvalConst(e->a, report);
      if (!c) return std::nullopt;
      if (e->str == "-" && c->k == ConstVal::K::kInt) {
        IntFold f = FoldIntNeg(c->i);
        if (!f.ok()) return fold_failure(f.error, fmt::format("-({})", c->i));
        c->i = *f.value;
        return c;
      }
      if (e->str == "~" && c->k == ConstVal::K::kInt) {
        c->i = ~c->i;
        return c;
      }
      if (e->str == "-" && c->k == ConstVal::K::kFloat) {
        c->f = -c->f;
        return c;
      }
      if (e->str == "+" && (c->k == ConstVal::K::kInt || c->k == ConstVal::K::kFloat)) return c;
      return fail(fmt::format("cannot apply '{}' to this constant", e->str));
    }
    case EK::kBinary: {
      auto a = EvalConst(e->a, report);
      if (!a) return std::nullopt;
      auto b = EvalConst(e->b, report);
      if (!b) return std::nullopt;
      auto op = BinaryOpOf(e->str);
      bool ints = a->k == ConstVal::K::kInt && b->k == ConstVal::K::kInt;
      bool nums = (a->k == ConstVal::K::kInt || a->k == ConstVal::K::kFloat) &&
                  (b->k == ConstVal::K::kInt || b->k == ConstVal::K::kFloat);
      if (ints && op && !(*op == BinaryOp::kPow && b->i < 0)) {
        IntFoldError err;
        if (auto r = FoldInt(*op, a->i, b->i, &err)) {
          v.k = ConstVal::K::kInt;
          v.i = *r;
          return v;
        }
        if (err != IntFoldError::kNone)
          return fold_failure(err, fmt::format("{} {} {}", a->i, e->str, b->i));
      }
      if (nums && op) {
        double x = a->k == ConstVal::K::kInt ? double(a->i) : a->f;
        double y = b->k == ConstVal::K::kInt ? double(b->i) : b->f;
        v.k = ConstVal::K::kFloat;
        switch (*op) {
          case BinaryOp::kAdd:
            v.f = x + y;
            return v;
          case BinaryOp::kSub:
            v.f = x - y;
            return v;
          case BinaryOp::kMul:
            v.f = x * y;
            return v;
          case BinaryOp::kDiv:
            if (y == 0) break;
            v.f = x / y;
            return v;
          case BinaryOp::kPow:  // an integer ** a negative integer is a float, as in Python
            v.f = std::pow(x, y);
            return v;
          default:
            break;
        }
      }
      return fail(fmt::format("cannot evaluate '{}' on these constants", e->str));
    }
    case EK::kCall: {
      // float("inf") / float("-inf") / float("nan") (how the printer spells them)
      if (e->a && e->a->kind == EK::kName && e->a->str == "float" && e->items.size() == 1 &&
          e->items[0]->kind == EK::kString) {
        const std::string& t = e->items[0]->str;
        v.k = ConstVal::K::kFloat;
        if (t == "inf")
          v.f = HUGE_VAL;
        else if (t == "-inf")
          v.f = -HUGE_VAL;
        else if (t == "nan")
          v.f = std::nan("");
        else
          return fail("float(...) accepts only \"inf\", \"-inf\" or \"nan\"");
        return v;
      }
      // pl.FP32.get_byte()
      if (e->a && e->a->kind == EK::kAttr && e->a->str == "get_byte" && e->items.empty()) {
        if (auto dt = DTypeOf(e->a->a)) {
          v.k = ConstVal::K::kInt;
          v.i = DTypeBytes(*dt);
          return v;
        }
      }
      return fail("not a compile-time constant");
    }
    case EK::kAttr:
      // `DT = pl.FP16`, `OP = pld.ReduceOp.Max`: names for a dtype / enum value.
      if (auto dt = DTypeOf(e)) {
        v.k = ConstVal::K::kDType;
        v.dt = *dt;
        return v;
      }
      if (auto ev = EnumOf(e)) {
        v.k = ConstVal::K::kEnum;
        v.ek = ev->first;
        v.i = ev->second;
        return v;
      }
      return fail("not a compile-time constant");
    default:
      return fail("not a compile-time constant");
  }
}

const Expr* Lowerer::ConstToExpr(const ConstVal& v, Span s) {
  const Expr* e = nullptr;
  switch (v.k) {
    case ConstVal::K::kInt:
      e = ctx_.Int(v.i, DataType::kIndex, s);
      break;
    case ConstVal::K::kFloat:
      e = ctx_.Float(v.f, DataType::kFP32, s);
      break;
    case ConstVal::K::kBool:
      e = ctx_.Bool(v.b, s);
      break;
    case ConstVal::K::kList: {
      std::vector<const Expr*> elems;
      std::vector<const Type*> types;
      for (const ConstVal& c : v.list) {
        const Expr* x = ConstToExpr(c, s);
        if (!x) return nullptr;
        elems.push_back(x);
        types.push_back(x->type);
      }
      return ctx_.Make<MakeTuple>(std::move(elems), ctx_.Make<TupleType>(std::move(types)), s);
    }
    case ConstVal::K::kStr:
      Error(s, "a string constant cannot be used as a value here");
      return nullptr;
    case ConstVal::K::kDType:
      Error(s, fmt::format("a dtype constant (pl.{}) is not a value here; pass it as a keyword "
                           "argument (dtype=...) or use it in a type annotation",
                           DTypeName(v.dt)));
      return nullptr;
    case ConstVal::K::kEnum:
      Error(s, fmt::format("an enum constant ({}) can only be passed as a keyword argument",
                           EnumValueName(v.ek, static_cast<int>(v.i)).value_or("?")));
      return nullptr;
  }
  pyconst_.insert(e);
  return e;
}

const Expr* Lowerer::MakeBinary(BinaryOp op, const Expr* a, const Expr* b, Span s, bool fold) {
  auto* ta = As<ScalarType>(a->type);
  auto* tb = As<ScalarType>(b->type);
  if (!ta || !tb) {
    Error(s, fmt::format("operator '{}' needs scalar operands; got {} and {}", BinaryOpSymbol(op),
                         TypeToString(a->type), TypeToString(b->type)));
    return nullptr;
  }
  DataType da = ta->dtype, db = tb->dtype, dt;
  if (IsComparison(op) || op == BinaryOp::kAnd || op == BinaryOp::kOr)
    dt = DataType::kBool;
  else if (da == db)
    dt = da;
  else if (da == DataType::kIndex)
    dt = db;
  else if (db == DataType::kIndex)
    dt = da;
  else if (IsFloat(da) != IsFloat(db))
    dt = IsFloat(da) ? da : db;
  else
    dt = DTypeBytes(db) > DTypeBytes(da) ? db : da;
  auto* ca = As<ConstInt>(a);
  auto* cb = As<ConstInt>(b);
  // Literal arithmetic stays as written (see the file comment) unless an
  // operand came from a module constant; either way it must have a value.
  auto va = ca ? std::optional<int64_t>(ca->value) : StaticInt(a);
  auto vb = cb ? std::optional<int64_t>(cb->value) : StaticInt(b);
  if (va && vb && dt != DataType::kBool) {
    IntFoldError err;
    auto r = FoldInt(op, *va, *vb, &err);
    if (r && fold && ca && cb) {
      const Expr* e = ctx_.Int(*r, dt, s);
      pyconst_.insert(e);
      return e;
    }
    if (err != IntFoldError::kNone) {
      Error(s, fmt::format("{} in the constant expression {} {} {}{}", IntFoldErrorText(err), *va,
                           BinaryOpSymbol(op), *vb,
                           err == IntFoldError::kOverflow
                               ? " (the result does not fit in a 64-bit integer)"
                               : ""));
      return nullptr;
    }
  }
  return ctx_.Make<BinaryExpr>(op, a, b, ctx_.Scalar(dt), s);
}

const Expr* Lowerer::LowerScalar(const PyExpr* e, const char* what) {
  const Expr* x = LowerExpr(e);
  if (x && !Isa<ScalarType>(x->type)) {
    Error(e->span, fmt::format("{} must be a scalar; got {}", what, TypeToString(x->type)));
    return nullptr;
  }
  return x;
}

const Expr* Lowerer::LowerList(const PyExpr* e) {
  std::vector<const Expr*> elems;
  std::vector<const Type*> types;
  bool ok = true;
  for (const PyExpr* x : e->items) {
    const Expr* v = LowerArg(x);
    if (!v) {
      ok = false;
      continue;
    }
    elems.push_back(v);
    types.push_back(v->type);
  }
  if (!ok) return nullptr;
  return ctx_.Make<MakeTuple>(std::move(elems), ctx_.Make<TupleType>(std::move(types)), e->span);
}

const Expr* Lowerer::LowerExpr(const PyExpr* e) {
  switch (e->kind) {
    case EK::kName: {
      if (const Var* v = LookupVar(e->str)) return poisoned_.count(v) ? nullptr : v;
      auto it = consts_.find(e->str);
      if (it != consts_.end()) {
        if (it->second.k == ConstVal::K::kDType) {
          Error(e->span, fmt::format("{}, not a value here; pass it as a keyword argument "
                                     "(dtype={}) or use pl.const(v, {})",
                                     DescribeName(e), e->str, e->str));
          return nullptr;
        }
        if (it->second.k == ConstVal::K::kEnum) {
          Error(e->span,
                fmt::format("{}, which can only be passed as a keyword argument", DescribeName(e)));
          return nullptr;
        }
        return ConstToExpr(it->second, e->span);
      }
      if (func_index_.count(e->str)) {
        Error(e->span,
              fmt::format("function '{}' must be called, e.g. self.{}(...)", e->str, e->str));
      } else if (non_const_globals_.count(e->str)) {
        Error(e->span, fmt::format("module-level name '{}' is not a compile-time constant "
                                   "(only int, float and list constants can be used)",
                                   e->str));
      } else if (task_ids_.count(e->str)) {
        Error(e->span, fmt::format("'{}' is a task id (bound by `with pl.at(...) as {}`); it "
                                   "can only be used in deps=[...] of a later pl.at task",
                                   e->str, e->str));
      } else {
        Error(e->span, fmt::format("undefined name '{}'", e->str));
      }
      return nullptr;
    }
    case EK::kInt:
    case EK::kFloat:
    case EK::kBool: {
      auto c = EvalConst(e, true);
      if (!c) return nullptr;
      if (c->k == ConstVal::K::kInt) return ctx_.Int(c->i, DataType::kIndex, e->span);
      if (c->k == ConstVal::K::kFloat) return ctx_.Float(c->f, DataType::kFP32, e->span);
      return ctx_.Bool(c->b, e->span);
    }
    case EK::kString:
      Error(e->span, "a string is not a value here (strings are only used as keyword arguments)");
      return nullptr;
    case EK::kNone:
      Error(e->span, "None is not a value in IR text");
      return nullptr;
    case EK::kAttr: {
      if (DTypeOf(e)) {
        Error(e->span, fmt::format("dtype '{}' is not a value here; pass it as a keyword "
                                   "argument (dtype={}) or use pl.const(v, {})",
                                   DottedName(e), DottedName(e), DottedName(e)));
      } else if (EnumOf(e)) {
        Error(e->span, fmt::format("enum value '{}' can only be passed as a keyword argument",
                                   DottedName(e)));
      } else {
        std::string n = DottedName(e);
        Error(e->span, n.empty() ? std::string("attribute access is not supported here")
                                 : fmt::format("unknown name '{}'", n));
      }
      return nullptr;
    }
    case EK::kCall:
      return LowerCall(e);
    case EK::kSubscript:
      return LowerSubscript(e);
    case EK::kList:
    case EK::kTuple:
      return LowerList(e);
    case EK::kBinary: {
      const Expr* a = LowerExpr(e->a);
      const Expr* b = LowerExpr(e->b);
      if (!a || !b) return nullptr;
      auto op = BinaryOpOf(e->str);
      if (!op) {
        Error(e->span, fmt::format("operator '{}' is not supported in IR text", e->str));
        return nullptr;
      }
      if (!Isa<ScalarType>(a->type) || !Isa<ScalarType>(b->type)) {
        // `a + b` on tiles / tensors: the element-wise op that means `+` on scalars.
        if (const OpDef* ew = ElementwiseByScalarOp(*op))
          return DispatchByKind(std::string(ew->ShortName()), {a, b}, nullptr, e->span,
                                {UseSpan(e->a), UseSpan(e->b)});
      }
      bool fold = pyconst_.count(a) || pyconst_.count(b);
      return MakeBinary(*op, a, b, e->span, fold);
    }
    case EK::kCompare:
    case EK::kBoolOp: {
      const Expr* a = LowerExpr(e->a);
      const Expr* b = LowerExpr(e->b);
      if (!a || !b) return nullptr;
      return MakeBinary(*BinaryOpOf(e->str), a, b, e->span, false);
    }
    case EK::kUnary: {
      const Expr* x = LowerExpr(e->a);
      if (!x) return nullptr;
      if (!Isa<ScalarType>(x->type)) {
        Error(e->span, fmt::format("operator '{}' needs a scalar operand; got {}", e->str,
                                   TypeToString(x->type)));
        return nullptr;
      }
      if (e->str == "+") return x;
      if (e->str == "not")
        return ctx_.Make<UnaryExpr>(UnaryOp::kNot, x, ctx_.Scalar(DataType::kBool), e->span);
      if (e->str == "-" && pyconst_.count(x) && Isa<ConstInt>(x)) {
        const Expr* r = ctx_.Int(-Cast<ConstInt>(x)->value, Cast<ConstInt>(x)->dtype(), e->span);
        pyconst_.insert(r);
        return r;
      }
      if (e->str == "-" && pyconst_.count(x) && Isa<ConstFloat>(x)) {
        const Expr* r =
            ctx_.Float(-Cast<ConstFloat>(x)->value, Cast<ConstFloat>(x)->dtype(), e->span);
        pyconst_.insert(r);
        return r;
      }
      return ctx_.Make<UnaryExpr>(e->str == "-" ? UnaryOp::kNeg : UnaryOp::kBitNot, x, x->type,
                                  e->span);
    }
    case EK::kSlice:
      Error(e->span, "a slice is only allowed inside a tensor subscript");
      return nullptr;
    case EK::kDict:
      Error(e->span, "a dict is only allowed as the attrs= argument");
      return nullptr;
    default:
      Error(e->span, "this expression is not supported in IR text");
      return nullptr;
  }
}

const Expr* Lowerer::LowerSubscript(const PyExpr* e) {
  const Expr* base = LowerExpr(e->a);
  if (!base) return nullptr;
  std::vector<const PyExpr*> idx;
  if (e->b->kind == EK::kTuple && !e->b->parenthesized)
    idx.assign(e->b->items.begin(), e->b->items.end());
  else
    idx.push_back(e->b);
  if (auto* tt = As<TupleType>(base->type)) {
    auto c = idx.size() == 1 ? EvalConst(idx[0], false) : std::nullopt;
    if (!c || c->k != ConstVal::K::kInt) {
      Error(e->b->span, "a tuple index must be an integer constant");
      return nullptr;
    }
    int64_t n = static_cast<int64_t>(tt->types.size()), i = c->i < 0 ? c->i + n : c->i;
    if (i < 0 || i >= n) {
      Error(e->b->span,
            fmt::format("tuple index {} out of range (the tuple has {} elements)", c->i, n));
      return nullptr;
    }
    return ctx_.Make<TupleGetItem>(base, i, tt->types[static_cast<size_t>(i)], e->span);
  }
  if (Isa<ArrayType>(base->type)) return LowerArrayElement(base, e);
  const TensorType* tt = AsTensorTypeLike(base->type);
  const TileType* tile = As<TileType>(base->type);
  if (!tt && !tile) {
    Error(e->span,
          fmt::format("a value of type {} cannot be subscripted", TypeToString(base->type)));
    return nullptr;
  }
  size_t rank = tt ? tt->rank() : tile->rank();
  if (idx.size() > rank) {
    Error(e->b->span, fmt::format("too many indices: {} for a rank-{} value", idx.size(), rank));
    return nullptr;
  }
  bool any_slice = false;
  for (const PyExpr* x : idx) any_slice |= x->kind == EK::kSlice;
  std::vector<const Expr*> ix;
  for (const PyExpr* x : idx) {
    if (x->kind == EK::kSlice) {
      ix.push_back(nullptr);
      continue;
    }
    const Expr* v = LowerScalar(x, "index");
    if (!v) return nullptr;
    ix.push_back(v);
  }
  auto tuple_of = [&](std::vector<const Expr*> v) -> const Expr* {
    std::vector<const Type*> ts;
    for (const Expr* x : v) ts.push_back(x->type);
    return ctx_.Make<MakeTuple>(std::move(v), ctx_.Make<TupleType>(std::move(ts)), e->b->span);
  };
  if (!any_slice && idx.size() == rank) {
    const char* opname = tt ? "tensor.read" : "tile.read";
    const OpDef* op = OpRegistry::Global().Find(opname);
    if (!op) {
      Error(e->span,
            fmt::format("element subscripts are not supported ({} is not registered)", opname));
      return nullptr;
    }
    return MakeOpCall(ctx_, *op, {base, tuple_of(ix)}, {}, {}, e->span, diag_,
                      {UseSpan(e->a), UseSpan(e->b)});
  }
  if (!tt) {
    Error(e->span,
          "subscripting a tile with fewer indices than its rank or with slices is not "
          "supported; use pl.tile.* view ops");
    return nullptr;
  }
  const OpDef* op = OpRegistry::Global().Find("tensor.slice");
  if (!op) {
    Error(e->span, "tensor subscripts are not supported (tensor.slice is not registered)");
    return nullptr;
  }
  SubscriptRegion reg;
  if (!LowerSubscriptRegion(idx, ix, tt->shape, &reg)) return nullptr;
  std::vector<const Expr*> shape = std::move(reg.shape), offset = std::move(reg.offset),
                           drop = std::move(reg.drop);
  std::vector<const Expr*> args = {base, tuple_of(shape), tuple_of(offset)};
  if (!drop.empty() && op->args.size() >= 5) {
    args.push_back(tuple_of({}));
    args.push_back(tuple_of(drop));
  }
  // The base is written before '['; every other argument is derived from the index.
  std::vector<Span> spans(args.size(), UseSpan(e->b));
  spans[0] = UseSpan(e->a);
  return MakeOpCall(ctx_, *op, std::move(args), {}, {}, e->span, diag_, std::move(spans));
}

// The region `x[idx]` selects in a tensor of dims `dims` (ix[d] is the lowered
// integer index of item d, nullptr for a slice item): an integer index gives
// extent 1 (listed in `drop`), `lo:hi` gives extent hi - lo at lo, a missing
// item the whole dim.
bool Lowerer::LowerSubscriptRegion(const std::vector<const PyExpr*>& idx,
                                   const std::vector<const Expr*>& ix,
                                   const std::vector<const Expr*>& dims, SubscriptRegion* out) {
  for (size_t d = 0; d < dims.size(); ++d) {
    if (d < idx.size() && ix[d]) {  // integer index: extent 1, dropped
      out->shape.push_back(ctx_.Int(1));
      out->offset.push_back(ix[d]);
      out->drop.push_back(ctx_.Int(static_cast<int64_t>(d)));
    } else if (d < idx.size()) {  // lo:hi slice
      const PyExpr* sl = idx[d];
      if (sl->c) {
        Error(sl->c->span, "slice steps are not supported");
        return false;
      }
      const Expr* lo = sl->a ? LowerScalar(sl->a, "slice start") : ctx_.Int(0);
      const Expr* hi = sl->b ? LowerScalar(sl->b, "slice stop") : dims[d];
      if (!lo || !hi) return false;
      auto* clo = As<ConstInt>(lo);
      auto* chi = As<ConstInt>(hi);
      // `lo:lo + c` (either operand order) has the static extent c.
      const Expr* plus_c = nullptr;
      if (auto* b = As<BinaryExpr>(hi); b && b->op == BinaryOp::kAdd) {
        if (Isa<ConstInt>(b->rhs) && ExprEq(b->lhs, lo))
          plus_c = b->rhs;
        else if (Isa<ConstInt>(b->lhs) && ExprEq(b->rhs, lo))
          plus_c = b->lhs;
      }
      const Expr* ext =
          clo && chi ? ctx_.Int(chi->value - clo->value)
          : plus_c
              ? ctx_.Int(Cast<ConstInt>(plus_c)->value)
              : (clo && clo->value == 0 ? hi : MakeBinary(BinaryOp::kSub, hi, lo, sl->span, false));
      if (!ext) return false;
      out->shape.push_back(ext);
      out->offset.push_back(lo);
    } else {
      out->shape.push_back(dims[d]);
      out->offset.push_back(ctx_.Int(0));
    }
  }
  return true;
}

}  // namespace pypto::ir::parser
