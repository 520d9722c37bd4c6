// PtoFunctionEmitter toolbox, part 1: hoisted constants, SSA naming, scalar
// expression evaluation and casts. Scalars are emitted as arith ops; IR dtypes
// map to signless MLIR integer types (UINT32 -> i32) because arith is signless.
#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/op_utils.h"

namespace pypto::codegen {

using namespace pypto::ir;

std::string PtoFunctionEmitter::MlirScalarType(DataType dt) {
  switch (dt) {
    case DataType::kBool:
      return "i1";
    case DataType::kInt8:
    case DataType::kUInt8:
      return "i8";
    case DataType::kInt16:
    case DataType::kUInt16:
      return "i16";
    case DataType::kInt32:
    case DataType::kUInt32:
      return "i32";
    case DataType::kInt64:
    case DataType::kUInt64:
      return "i64";
    default:
      return std::string(DTypeMlir(dt));
  }
}

std::string PtoFunctionEmitter::OpName(const Call* call) {
  return call->op ? call->op->name : call->callee;
}

bool PtoFunctionEmitter::Error(Span span, std::string msg) {
  diag_.Error(span, std::move(msg));
  failed_ = true;
  return false;
}

std::string PtoFunctionEmitter::Const(int64_t v, std::string_view type) {
  std::string name = v < 0 ? fmt::format("%cn{}_{}", -static_cast<uint64_t>(v), type)
                           : fmt::format("%c{}_{}", v, type);
  if (const_names_.emplace(name, true).second) {
    consts_.Linef("{} = arith.constant {} : {}", name, v, type);
    used_names_.insert(name);
    const_ints_[name] = v;
  }
  return name;
}

std::string PtoFunctionEmitter::ConstFloat(double v, std::string_view type) {
  std::string lit;
  if (std::isnan(v)) {
    lit = type == "f64" ? "0x7FF8000000000000" : type == "f32" ? "0x7FC00000" : "0x7E00";
  } else if (std::isinf(v)) {
    if (type == "f64")
      lit = v > 0 ? "0x7FF0000000000000" : "0xFFF0000000000000";
    else if (type == "f32")
      lit = v > 0 ? "0x7F800000" : "0xFF800000";
    else
      lit = v > 0 ? "0x7C00" : "0xFC00";
  } else {
    lit = fmt::format("{}", v);
    if (lit.find_first_of(".e") == std::string::npos) lit += ".0";
  }
  std::string tag;
  for (char ch : lit) {
    if (ch == '-')
      tag += 'n';
    else if (ch == '.')
      tag += 'p';
    else if (ch == '+')
      continue;
    else
      tag += ch;
  }
  std::string name = fmt::format("%cf{}_{}", tag, type);
  if (const_names_.emplace(name, true).second) {
    consts_.Linef("{} = arith.constant {} : {}", name, lit, type);
    used_names_.insert(name);
  }
  return name;
}

std::string PtoFunctionEmitter::ConstBool(bool v) {
  std::string name = v ? "%true" : "%false";
  if (const_names_.emplace(name, true).second) {
    consts_.Linef("{} = arith.constant {}", name, v ? "true" : "false");
    used_names_.insert(name);
  }
  return name;
}

// Purely numeric names are only ever made here (Named() never starts a name
// with a digit; constants and parameters start with a letter), so a counter
// alone keeps them unique: no lookup in used_names_ is needed.
std::string PtoFunctionEmitter::Temp() { return fmt::format("%{}", next_temp_++); }

std::string PtoFunctionEmitter::Named(std::string_view hint) {
  std::string base;
  for (char ch : hint) {
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_';
    base += ok ? ch : '_';
  }
  if (base.empty() || (base[0] >= '0' && base[0] <= '9')) base = "v" + base;
  std::string n = "%" + base;
  if (used_names_.insert(n).second) return n;
  // The smallest free suffix i >= 1. Names are never released, so every suffix
  // below the one found last time for this base is still taken: resume there
  // instead of probing from 1 (which made emission quadratic in the number of
  // values sharing a hint, e.g. one %dst_peer_pview_<i> per remote op).
  int& i = name_suffix_[base];
  do {
    n = fmt::format("%{}_{}", base, ++i);
  } while (!used_names_.insert(n).second);
  return n;
}

void PtoFunctionEmitter::Op(std::string line) {
  if (opts_.emit_source_loc && cur_span_.IsKnown()) {
    std::string file;
    for (char ch : ctx_.sources().FileName(cur_span_.file)) {
      if (ch == '"' || ch == '\\') file += '\\';
      if (static_cast<unsigned char>(ch) < 0x20) {
        file += fmt::format("\\{:02X}", static_cast<unsigned>(ch));
        continue;
      }
      file += ch;
    }
    line += fmt::format(" loc(\"{}\":{}:{})", file, cur_span_.line, cur_span_.col);
  }
  cur_->Line(line);
}

const PtoBinding* PtoFunctionEmitter::Lookup(const Expr* e) const {
  const Var* v = AsVarLike(e);
  if (!v) return nullptr;
  auto it = bindings_.find(v);
  return it == bindings_.end() ? nullptr : &it->second;
}

static bool IsIntType(std::string_view t) { return t == "index" || (t.size() > 1 && t[0] == 'i'); }
static bool IsFloatType(std::string_view t) {
  return t == "f16" || t == "bf16" || t == "f32" || t == "f64";
}
static int IntWidth(std::string_view t) {
  if (t == "index") return 64;
  return std::atoi(std::string(t.substr(1)).c_str());
}
static int FloatWidth(std::string_view t) {
  if (t == "f16" || t == "bf16") return 16;
  return t == "f32" ? 32 : 64;
}

PtoValue PtoFunctionEmitter::CastTo(const PtoValue& v, std::string_view to) {
  if (!v.ok() || v.type == to) return v;
  const std::string& from = v.type;
  // Casts of constants fold into constants of the target type.
  if (auto it = const_ints_.find(v.name); it != const_ints_.end() && from != "i1") {
    if (IsIntType(to) && to != "i1") return {Const(it->second, to), std::string(to)};
    if (IsFloatType(to)) return {ConstFloat(static_cast<double>(it->second), to), std::string(to)};
  }
  std::string t = Temp();
  if (IsIntType(from) && IsIntType(to)) {
    if (from == "index" || to == "index") {
      if (from == "i1") {  // index_cast from i1 is not allowed: widen first
        PtoValue w = CastTo(v, "i64");
        return CastTo(w, to);
      }
      Op(fmt::format("{} = arith.index_cast {} : {} to {}", t, v.name, from, to));
    } else if (IntWidth(from) < IntWidth(to)) {
      Op(fmt::format("{} = arith.{} {} : {} to {}", t, from == "i1" ? "extui" : "extsi", v.name,
                     from, to));
    } else {
      Op(fmt::format("{} = arith.trunci {} : {} to {}", t, v.name, from, to));
    }
  } else if (IsIntType(from) && IsFloatType(to)) {
    PtoValue src = from == "index" ? CastTo(v, "i64") : v;
    Op(fmt::format("{} = arith.{} {} : {} to {}", t, src.type == "i1" ? "uitofp" : "sitofp",
                   src.name, src.type, to));
  } else if (IsFloatType(from) && IsIntType(to)) {
    if (to == "index") {
      PtoValue w = CastTo(v, "i64");
      return CastTo(w, to);
    }
    Op(fmt::format("{} = arith.fptosi {} : {} to {}", t, v.name, from, to));
  } else if (IsFloatType(from) && IsFloatType(to)) {
    Op(fmt::format("{} = arith.{} {} : {} to {}", t,
                   FloatWidth(from) < FloatWidth(to) ? "extf" : "truncf", v.name, from, to));
  } else {
    Error(cur_span_, fmt::format("cannot convert a value of type {} to {} in PTO code", from, to));
    return {};
  }
  return {t, std::string(to)};
}

PtoValue PtoFunctionEmitter::Value(const Expr* e) {
  if (!e) return {};
  switch (e->kind) {
    case NodeKind::kConstInt: {
      auto* c = static_cast<const ConstInt*>(e);
      const auto* st = As<ScalarType>(c->type);
      DataType dt = st ? st->dtype : DataType::kIndex;
      if (dt == DataType::kBool) return {ConstBool(c->value != 0), "i1"};
      std::string ty = MlirScalarType(dt);
      if (IsFloatType(ty)) return {ConstFloat(static_cast<double>(c->value), ty), ty};
      return {Const(c->value, ty), ty};
    }
    case NodeKind::kConstFloat: {
      auto* c = static_cast<const ir::ConstFloat*>(e);
      const auto* st = As<ScalarType>(c->type);
      std::string ty = MlirScalarType(st ? st->dtype : DataType::kFP32);
      return {ConstFloat(c->value, ty), ty};
    }
    case NodeKind::kConstBool:
      return {ConstBool(static_cast<const ir::ConstBool*>(e)->value), "i1"};
    case NodeKind::kVar:
    case NodeKind::kIterArg: {
      const PtoBinding* b = Lookup(e);
      if (b && (b->kind == PtoBinding::Kind::kScalar || b->kind == PtoBinding::Kind::kCtx))
        return b->value;
      Error(e->span.IsKnown() ? e->span : cur_span_,
            fmt::format("'{}': not a scalar value the PTO backend can use here; symbolic "
                        "extents must be bound by a kernel scalar, a loop variable or a "
                        "tensor-shape parameter",
                        static_cast<const Var*>(e)->name_hint));
      return {};
    }
    case NodeKind::kCall: {
      // A scalar-valued op nested in an expression (`pl.cast(pld.nranks(ctx),
      // pl.INDEX)`): emitted here as if bound to a temporary.
      const auto* c = static_cast<const ir::Call*>(e);
      if (c->op && Isa<ScalarType>(c->type)) {
        const Var* tmp = ctx_.NewVar("v", c->type, c->span);
        EmitCall(c, tmp);
        if (failed_) return {};
        const PtoBinding* b = Lookup(tmp);
        if (b && b->kind == PtoBinding::Kind::kScalar) return b->value;
      }
      Error(e->span.IsKnown() ? e->span : cur_span_,
            fmt::format("{}: a call without a scalar result is not supported by the PTO backend "
                        "inside an expression",
                        c->op ? c->op->name : "self." + c->callee));
      return {};
    }
    case NodeKind::kBinaryExpr:
      return EmitBinary(static_cast<const BinaryExpr*>(e));
    case NodeKind::kUnaryExpr:
      return EmitUnary(static_cast<const UnaryExpr*>(e));
    default:
      Error(e->span.IsKnown() ? e->span : cur_span_,
            fmt::format("{}: expression not supported by the PTO backend as a scalar",
                        NodeKindName(e->kind)));
      return {};
  }
}

std::string PtoFunctionEmitter::AsIndex(const Expr* e) {
  if (auto v = StaticInt(e)) return ConstIndex(*v);
  return CastTo(Value(e), "index").name;
}

PtoValue PtoFunctionEmitter::EmitBinary(const BinaryExpr* b) {
  const auto* rt = As<ScalarType>(b->type);
  PtoValue l = Value(b->lhs), r = Value(b->rhs);
  if (!l.ok() || !r.ok()) return {};
  Span saved = cur_span_;
  if (b->span.IsKnown()) cur_span_ = b->span;
  std::string ty = IsComparison(b->op) || b->op == BinaryOp::kAnd || b->op == BinaryOp::kOr
                       ? l.type
                       : (rt ? MlirScalarType(rt->dtype) : l.type);
  if (b->op == BinaryOp::kAnd || b->op == BinaryOp::kOr) ty = "i1";
  l = CastTo(l, ty);
  r = CastTo(r, ty);
  if (!l.ok() || !r.ok()) return {};
  bool fl = IsFloatType(ty);
  std::string t = Temp();
  auto emit = [&](std::string_view op) {
    Op(fmt::format("{} = arith.{} {}, {} : {}", t, op, l.name, r.name, ty));
  };
  auto cmp = [&](std::string_view ipred, std::string_view fpred) {
    Op(fmt::format("{} = arith.{} {}, {}, {} : {}", t, fl ? "cmpf" : "cmpi", fl ? fpred : ipred,
                   l.name, r.name, ty));
  };
  PtoValue res{t, ty};
  switch (b->op) {
    case BinaryOp::kAdd:
      emit(fl ? "addf" : "addi");
      break;
    case BinaryOp::kSub:
      emit(fl ? "subf" : "subi");
      break;
    case BinaryOp::kMul:
      emit(fl ? "mulf" : "muli");
      break;
    case BinaryOp::kDiv:
      emit(fl ? "divf" : "divsi");
      break;
    case BinaryOp::kFloorDiv:
      emit(fl ? "divf" : "floordivsi");
      break;
    case BinaryOp::kFloorMod:
      if (fl) {
        emit("remf");
      } else {  // Python semantics: a - floordiv(a, b) * b
        Op(fmt::format("{} = arith.floordivsi {}, {} : {}", t, l.name, r.name, ty));
        std::string m = Temp(), s = Temp();
        Op(fmt::format("{} = arith.muli {}, {} : {}", m, t, r.name, ty));
        Op(fmt::format("{} = arith.subi {}, {} : {}", s, l.name, m, ty));
        res.name = s;
      }
      break;
    case BinaryOp::kMin:
      emit(fl ? "minimumf" : "minsi");
      break;
    case BinaryOp::kMax:
      emit(fl ? "maximumf" : "maxsi");
      break;
    case BinaryOp::kEq:
      cmp("eq", "oeq");
      res.type = "i1";
      break;
    case BinaryOp::kNe:
      cmp("ne", "une");
      res.type = "i1";
      break;
    case BinaryOp::kLt:
      cmp("slt", "olt");
      res.type = "i1";
      break;
    case BinaryOp::kLe:
      cmp("sle", "ole");
      res.type = "i1";
      break;
    case BinaryOp::kGt:
      cmp("sgt", "ogt");
      res.type = "i1";
      break;
    case BinaryOp::kGe:
      cmp("sge", "oge");
      res.type = "i1";
      break;
    case BinaryOp::kAnd:
    case BinaryOp::kBitAnd:
      emit("andi");
      break;
    case BinaryOp::kOr:
    case BinaryOp::kBitOr:
      emit("ori");
      break;
    case BinaryOp::kBitXor:
      emit("xori");
      break;
    case BinaryOp::kShl:
      emit("shli");
      break;
    case BinaryOp::kShr:
      emit("shrsi");
      break;
    case BinaryOp::kPow:
      cur_span_ = saved;
      Error(b->span, "'**': not supported by the PTO backend");
      return {};
  }
  cur_span_ = saved;
  return res;
}

PtoValue PtoFunctionEmitter::EmitUnary(const UnaryExpr* u) {
  PtoValue x = Value(u->operand);
  if (!x.ok()) return {};
  const auto* rt = As<ScalarType>(u->type);
  std::string ty = rt ? MlirScalarType(rt->dtype) : x.type;
  Span saved = cur_span_;
  if (u->span.IsKnown()) cur_span_ = u->span;
  PtoValue res;
  switch (u->op) {
    case UnaryOp::kCast:
      res = CastTo(x, ty);
      break;
    case UnaryOp::kNeg: {
      std::string t = Temp();
      if (IsFloatType(x.type)) {
        Op(fmt::format("{} = arith.negf {} : {}", t, x.name, x.type));
      } else {
        Op(fmt::format("{} = arith.subi {}, {} : {}", t, Const(0, x.type), x.name, x.type));
      }
      res = {t, x.type};
      break;
    }
    case UnaryOp::kNot:
    case UnaryOp::kBitNot: {
      std::string t = Temp();
      std::string ones = x.type == "i1" ? ConstBool(true) : Const(-1, x.type);
      Op(fmt::format("{} = arith.xori {}, {} : {}", t, x.name, ones, x.type));
      res = {t, x.type};
      break;
    }
    case UnaryOp::kAbs: {
      std::string t = Temp();
      Op(fmt::format("{} = math.{} {} : {}", t, IsFloatType(x.type) ? "absf" : "absi", x.name,
                     x.type));
      res = {t, x.type};
      break;
    }
  }
  cur_span_ = saved;
  return res;
}

std::optional<std::vector<std::string>> PtoFunctionEmitter::IndexList(const Expr* tuple, Span at) {
  const MakeTuple* t = AsTuple(tuple);
  if (!t) {
    Error(at, "expected a tuple of indices");
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (const Expr* e : t->elements) {
    std::string s = AsIndex(e);
    if (s.empty()) return std::nullopt;
    out.push_back(std::move(s));
  }
  return out;
}

std::optional<std::vector<PtoDim>> PtoFunctionEmitter::DimList(const std::vector<const Expr*>& dims,
                                                               Span) {
  std::vector<PtoDim> out;
  for (const Expr* e : dims) {
    PtoDim d;
    if (auto v = StaticInt(e)) d.value = *v;
    d.ssa = AsIndex(e);
    if (d.ssa.empty()) return std::nullopt;
    out.push_back(std::move(d));
  }
  return out;
}

std::optional<std::vector<PtoDim>> PtoFunctionEmitter::DimList(const Expr* tuple, Span at) {
  const MakeTuple* t = AsTuple(tuple);
  if (!t) {
    Error(at, "expected a tuple of extents");
    return std::nullopt;
  }
  return DimList(t->elements, at);
}

}  // namespace pypto::codegen
