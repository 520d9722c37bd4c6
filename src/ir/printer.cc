// IR printer: writes a Program as PyPTO DSL text (the IR text format, see
// docs/ir-text-format.md). The output is canonical — one spelling per IR — so
// that print -> parse -> print is byte-identical:
//  * Var names are name hints made unique per function (x, x_1, ...), never
//    keywords or pl/pld/self, so the parser maps each name back to one Var;
//  * scalar expressions use Python precedence with the minimum of parentheses;
//  * kwargs print in stored order, enum-typed ones by name via the op's schema;
//  * only non-default decorator parts, view fields and loop bounds are printed.
#include "pypto/ir/printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <deque>
#include <map>
#include <ostream>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "parser/text_names.h"
#include "pypto/core/ptr_map.h"
#include "pypto/core/string_view_set.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

namespace text {

std::string FormatFloat(double v) {
  if (std::isnan(v)) return "float(\"nan\")";
  if (std::isinf(v)) return v > 0 ? "float(\"inf\")" : "-float(\"inf\")";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string QuoteString(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f)
          out += fmt::format("\\x{:02x}", c);
        else
          out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace text

namespace {

// Python binding strength of an expression (higher binds tighter).
enum Prec : int {
  kPrecOr = 1,
  kPrecAnd,
  kPrecNot,
  kPrecCmp,
  kPrecBitOr,
  kPrecBitXor,
  kPrecBitAnd,
  kPrecShift,
  kPrecAdd,
  kPrecMul,
  kPrecUnary,
  kPrecPow,
  kPrecAtom,
};

int BinaryPrec(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr:
      return kPrecOr;
    case BinaryOp::kAnd:
      return kPrecAnd;
    case BinaryOp::kEq:
    case BinaryOp::kNe:
    case BinaryOp::kLt:
    case BinaryOp::kLe:
    case BinaryOp::kGt:
    case BinaryOp::kGe:
      return kPrecCmp;
    case BinaryOp::kBitOr:
      return kPrecBitOr;
    case BinaryOp::kBitXor:
      return kPrecBitXor;
    case BinaryOp::kBitAnd:
      return kPrecBitAnd;
    case BinaryOp::kShl:
    case BinaryOp::kShr:
      return kPrecShift;
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
      return kPrecAdd;
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kFloorDiv:
    case BinaryOp::kFloorMod:
      return kPrecMul;
    case BinaryOp::kPow:
      return kPrecPow;
    case BinaryOp::kMin:
    case BinaryOp::kMax:
      return kPrecAtom;
  }
  return kPrecAtom;
}

int ExprPrec(const Expr* e) {
  if (auto* b = As<BinaryExpr>(e)) return BinaryPrec(b->op);
  if (auto* u = As<UnaryExpr>(e)) {
    if (u->op == UnaryOp::kNot) return kPrecNot;
    if (u->op == UnaryOp::kNeg || u->op == UnaryOp::kBitNot) return kPrecUnary;
    return kPrecAtom;
  }
  if (auto* c = As<ConstInt>(e))
    return c->value < 0 && c->dtype() == DataType::kIndex ? kPrecUnary : kPrecAtom;
  if (auto* f = As<ConstFloat>(e))
    return (std::signbit(f->value) && f->dtype() == DataType::kFP32) ? kPrecUnary : kPrecAtom;
  return kPrecAtom;
}

// Statements in `s` (for sizing the output buffer and name tables).
size_t CountStmts(const Stmt* s) {
  if (!s) return 0;
  if (auto* q = As<SeqStmt>(s)) {
    size_t n = 0;
    for (const Stmt* c : q->stmts) n += CountStmts(c);
    return n;
  }
  if (auto* i = As<IfStmt>(s)) return 2 + CountStmts(i->then_body) + CountStmts(i->else_body);
  if (auto* f = As<ForStmt>(s)) return 1 + CountStmts(f->body);
  if (auto* w = As<WhileStmt>(s)) return 2 + CountStmts(w->body);
  if (auto* sc = As<ScopeStmt>(s)) return 1 + CountStmts(sc->body);
  return 1;
}

class Printer {
 public:
  // Names for module-level symbols (dynamic dims), visible in every function.
  void AddGlobal(const Var* v) {
    BindIn(v, &global_store_);
    globals_ = names_;
    global_used_ = used_;
    global_next_suffix_ = next_suffix_;
  }

  // Starts a new function scope: forget locals, keep globals.
  void ResetLocals() {
    names_ = globals_;
    used_ = global_used_;
    next_suffix_ = global_next_suffix_;
    local_store_.clear();
    type_strs_.clear();  // type text may name function-local Vars
  }

  void PrintFunction(const Function& f, int indent) {
    ResetLocals();
    size_t binders = f.params.size() + CountStmts(f.body);  // about one Var per statement
    names_.Reserve(names_.size() + binders);
    used_.Reserve(used_.size() + binders);
    for (const Var* p : f.params) Bind(p);
    PreBind(f.body);
    Line(indent, Decorator(f));
    std::string sig = "def " + f.name + "(self";
    for (size_t i = 0; i < f.params.size(); ++i) {
      std::string t = TypeStr(f.params[i]->type);
      ParamDirection d = i < f.param_dirs.size() ? f.param_dirs[i] : ParamDirection::kIn;
      if (d == ParamDirection::kInOut) t = "pl.InOut[" + t + "]";
      if (d == ParamDirection::kOut) t = "pl.Out[" + t + "]";
      sig += ", " + Name(f.params[i]) + ": " + t;
    }
    sig += ")";
    if (f.return_types.size() == 1) {
      sig += " -> " + TypeStr(f.return_types[0]);
    } else if (f.return_types.size() > 1) {
      sig += " -> tuple[";
      for (size_t i = 0; i < f.return_types.size(); ++i)
        sig += (i ? ", " : "") + TypeStr(f.return_types[i]);
      sig += "]";
    }
    Line(indent, sig + ":");
    if (f.IsHostSubWorker() && IsEmptyBody(f.body))
      Line(indent + 1, "...");  // host Python, bound at run time
    else
      Body(f.body, indent + 1, nullptr);
  }

  static bool IsEmptyBody(const Stmt* body) {
    auto* seq = As<SeqStmt>(body);
    return !body || (seq && seq->stmts.empty());
  }

  // Binds every Var a statement defines, in print order, before printing, so a
  // use printed before its (re)definition still gets the binding's name.
  void PreBind(const Stmt* s) {
    if (!s) return;
    if (auto* a = As<AssignStmt>(s)) {
      Bind(a->var);
    } else if (auto* q = As<SeqStmt>(s)) {
      for (const Stmt* c : q->stmts) PreBind(c);
    } else if (auto* i = As<IfStmt>(s)) {
      PreBind(i->then_body);
      PreBind(i->else_body);
      for (const Var* v : i->return_vars) Bind(v);
    } else if (auto* f = As<ForStmt>(s)) {
      Bind(f->loop_var);
      for (const IterArg* ia : f->iter_args) Bind(ia);
      PreBind(f->body);
      for (const Var* v : f->return_vars) Bind(v);
    } else if (auto* w = As<WhileStmt>(s)) {
      for (const IterArg* ia : w->iter_args) Bind(ia);
      PreBind(w->body);
      for (const Var* v : w->return_vars) Bind(v);
    } else if (auto* sa = As<SplitAivScopeStmt>(s)) {
      Bind(sa->var);
      PreBind(sa->body);
    } else if (auto* sc = As<ScopeStmt>(s)) {
      PreBind(sc->body);
    }
  }

  void Stmt_(const Stmt* s, int indent, const std::vector<const Var*>* yt) {
    if (auto* q = As<SeqStmt>(s)) {
      for (const Stmt* c : q->stmts) Stmt_(c, indent, yt);
      return;
    }
    if (auto* a = As<AssignStmt>(s)) {
      // Appended piecewise (the hot path of large programs): no temporaries.
      const std::string& name = NameRef(a->var);
      const std::string& type = TypeRef(a->var->type);
      out.append(static_cast<size_t>(indent) * 4, ' ');
      out += name;
      out += ": ";
      out += type;
      out += " = ";
      auto* c = As<Call>(a->value);
      if (c && c->op && !c->IsOp("pld.tensor.alloc_window_buffer"))
        AppendCall(*c);
      else
        out += AssignValue(a->value, name);
      out += '\n';
    } else if (auto* e = As<EvalStmt>(s)) {
      Line(indent, Expr_(e->expr));
    } else if (auto* r = As<ReturnStmt>(s)) {
      Line(indent, r->values.empty() ? "return" : "return " + ExprList(r->values));
    } else if (auto* y = As<YieldStmt>(s)) {
      std::string call = "pl.yield_(" + ExprList(y->values) + ")";
      if (!yt || yt->empty()) {
        Line(indent, call);
      } else if (yt->size() == 1) {
        const Var* v = (*yt)[0];
        Line(indent, Name(v) + ": " + TypeStr(v->type) + " = " + call);
      } else {
        std::string lhs;
        for (size_t i = 0; i < yt->size(); ++i) lhs += (i ? ", " : "") + Name((*yt)[i]);
        Line(indent, lhs + " = " + call);
      }
    } else if (auto* i = As<IfStmt>(s)) {
      const auto* rv = i->return_vars.empty() ? nullptr : &i->return_vars;
      Line(indent, "if " + Expr_(i->cond) + ":");
      Body(i->then_body, indent + 1, rv);
      if (i->else_body) {
        Line(indent, "else:");
        Body(i->else_body, indent + 1, rv);
      }
    } else if (auto* f = As<ForStmt>(s)) {
      PrintFor(*f, indent);
    } else if (auto* w = As<WhileStmt>(s)) {
      PrintWhile(*w, indent);
    } else if (Isa<BreakStmt>(s)) {
      Line(indent, "break");
    } else if (Isa<ContinueStmt>(s)) {
      Line(indent, "continue");
    } else if (auto* ic = As<InCoreScopeStmt>(s)) {
      std::string args = "level=pl.Level.CORE_GROUP";
      if (ic->split != SplitMode::kNone)
        args += ", split=" + EnumStr(EnumKind::kSplitMode, static_cast<int>(ic->split));
      // Task ids (attrs "task_id" / "deps", see ManualScopeStmt) print as
      // `deps=[a, b]` and a trailing `as t`.
      std::string as;
      for (const NamedAttr& na : ic->attrs) {
        if (na.name == "task_id" && na.value.kind == Attr::Kind::kString) {
          as = " as " + na.value.s;
        } else if (na.name == "deps" && na.value.kind == Attr::Kind::kList) {
          args += ", deps=[";
          for (size_t k = 0; k < na.value.list.size(); ++k)
            args += (k ? ", " : "") + (na.value.list[k].kind == Attr::Kind::kString
                                           ? na.value.list[k].s
                                           : AttrStr(na.value.list[k], nullptr));
          args += "]";
        } else {
          args += ", " + na.name + "=" + AttrStr(na.value, nullptr);
        }
      }
      Line(indent, "with pl.at(" + args + ")" + as + ":");
      Body(ic->body, indent + 1, nullptr);
    } else if (auto* h = As<HierarchyScopeStmt>(s)) {
      std::string args = "level=" + EnumStr(EnumKind::kLevel, static_cast<int>(h->level));
      if (h->role) args += ", role=" + EnumStr(EnumKind::kRole, static_cast<int>(*h->role));
      Line(indent, "with pl.at(" + args + AttrKwargs(h->attrs, true) + "):");
      Body(h->body, indent + 1, nullptr);
    } else if (auto* sp = As<SpmdScopeStmt>(s)) {
      std::string args = Expr_(sp->core_num);
      if (sp->sync_start) args += ", sync_start=True";
      Line(indent, "with pl.spmd(" + args + AttrKwargs(sp->attrs, true) + "):");
      Body(sp->body, indent + 1, nullptr);
    } else if (auto* sa = As<SplitAivScopeStmt>(s)) {
      std::string args = std::to_string(sa->count);
      if (sa->mode != SplitMode::kNone)
        args += ", mode=" + EnumStr(EnumKind::kSplitMode, static_cast<int>(sa->mode));
      Line(indent, "for " + Name(sa->var) + " in pl.split_aiv(" + args +
                       AttrKwargs(sa->attrs, true) + "):");
      Body(sa->body, indent + 1, nullptr);
    } else if (auto* cd = As<CommDomainScopeStmt>(s)) {
      std::string args;
      if (!cd->name.empty()) args += "name=" + text::QuoteString(cd->name) + ", ";
      args += "devices=[";
      for (size_t k = 0; k < cd->devices.size(); ++k)
        args += (k ? ", " : "") + std::to_string(cd->devices[k]);
      args += "], slots=[";
      for (size_t k = 0; k < cd->slots.size(); ++k)
        args += (k ? ", " : "") + text::QuoteString(cd->slots[k]);
      args += "]";
      Line(indent, "with pld.comm_domain(" + args + AttrKwargs(cd->attrs, true) + "):");
      Body(cd->body, indent + 1, nullptr);
    } else if (auto* ms = As<ManualScopeStmt>(s)) {
      Line(indent, "with pl.manual_scope(" + AttrKwargs(ms->attrs, false) + "):");
      Body(ms->body, indent + 1, nullptr);
    } else {
      Line(indent, "# <unprintable statement>");
    }
  }

  std::string Expr_(const Expr* e) {
    if (!e) return "None";
    if (auto* v = AsVarLike(e)) return Name(v);
    if (auto* c = As<ConstInt>(e)) {
      if (c->dtype() == DataType::kIndex) return std::to_string(c->value);
      return fmt::format("pl.const({}, pl.{})", c->value, DTypeName(c->dtype()));
    }
    if (auto* c = As<ConstFloat>(e)) {
      if (c->dtype() == DataType::kFP32) return text::FormatFloat(c->value);
      return fmt::format("pl.const({}, pl.{})", text::FormatFloat(c->value), DTypeName(c->dtype()));
    }
    if (auto* b = As<ConstBool>(e)) return b->value ? "True" : "False";
    if (auto* b = As<BinaryExpr>(e)) return Binary(*b);
    if (auto* u = As<UnaryExpr>(e)) return Unary(*u);
    if (auto* c = As<Call>(e)) return CallStr(*c, "");
    if (auto* t = As<MakeTuple>(e)) return "[" + ExprList(t->elements) + "]";
    if (auto* g = As<TupleGetItem>(e))
      return Wrap(g->tuple, ExprPrec(g->tuple) < kPrecAtom) + "[" + std::to_string(g->index) + "]";
    return "<?>";
  }

  std::string TypeStr(const Type* t) {
    if (!t) return "pl.UnknownType";
    switch (t->kind) {
      case NodeKind::kUnknownType:
        return "pl.UnknownType";
      case NodeKind::kPtrType:
        return "pl.Ptr";
      case NodeKind::kCommCtxType:
        return "pld.CommCtx";
      case NodeKind::kWindowBufferType:
        return "pld.WindowBufferType";
      case NodeKind::kScalarType:
        return fmt::format("pl.Scalar[pl.{}]", DTypeName(Cast<ScalarType>(t)->dtype));
      case NodeKind::kTensorType:
      case NodeKind::kDistributedTensorType: {
        const auto* tt = AsTensorTypeLike(t);
        bool dist = t->kind == NodeKind::kDistributedTensorType;
        std::string s = (dist ? "pld.DistributedTensor[" : "pl.Tensor[") + Shape(tt->shape) +
                        ", pl." + std::string(DTypeName(tt->dtype));
        if (tt->view) s += ", " + TensorViewStr(*tt->view);
        if (dist && !Cast<DistributedTensorType>(t)->window_buffer.empty())
          s += ", " +
               text::QuoteString("window_buffer=" + Cast<DistributedTensorType>(t)->window_buffer);
        return s + "]";
      }
      case NodeKind::kTileType: {
        const auto* tt = Cast<TileType>(t);
        std::string s = "pl.Tile[" + Shape(tt->shape) + ", pl." + std::string(DTypeName(tt->dtype));
        if (tt->memory_space)
          s += ", " + EnumStr(EnumKind::kMemorySpace, static_cast<int>(*tt->memory_space));
        if (tt->view) s += ", " + TileViewStr(*tt->view);
        return s + "]";
      }
      case NodeKind::kArrayType: {
        const auto* at = Cast<ArrayType>(t);
        return fmt::format("pl.Array[{}, pl.{}]", at->extent, DTypeName(at->dtype));
      }
      case NodeKind::kTupleType: {
        const auto* tt = Cast<TupleType>(t);
        if (tt->types.empty()) return "pl.Tuple[()]";
        std::string s = "pl.Tuple[";
        for (size_t i = 0; i < tt->types.size(); ++i) s += (i ? ", " : "") + TypeStr(tt->types[i]);
        return s + "]";
      }
      default:
        return "pl.UnknownType";
    }
  }

  std::string Name(const Var* v) { return NameRef(v); }
  const std::string& NameRef(const Var* v) {
    if (v)
      if (const std::string* const* n = names_.Find(v)) return **n;
    return Bind(v);
  }
  // TypeStr, memoized per function (types are immutable and, hash-consed,
  // repeat by pointer; the text of one only depends on the names bound so far,
  // which never change once bound).
  const std::string& TypeRef(const Type* t) {
    auto it = type_strs_.find(t);
    if (it != type_strs_.end()) return it->second;
    std::string str = TypeStr(t);
    return type_strs_.emplace(t, std::move(str)).first->second;
  }
  // CallStr(c, "") for an op call, appended to `out` directly.
  void AppendCall(const Call& c) {
    if (!c.kwargs.empty() || !c.attrs.empty()) {
      out += CallStr(c, "");
      return;
    }
    out += PrintedName(c.op);
    out += '(';
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (i) out += ", ";
      if (auto* v = AsVarLike(c.args[i]))
        out += NameRef(v);
      else
        out += Expr_(c.args[i]);
    }
    out += ')';
  }
  const std::string& PrintedName(const OpDef* op) {
    auto it = op_names_.find(op);
    if (it != op_names_.end()) return it->second;
    return op_names_.emplace(op, text::PrintedOpName(op->name)).first->second;
  }

  std::string out;

 private:
  const std::string& Bind(const Var* v) { return BindIn(v, &local_store_); }

  // The unique printed name of `v`, chosen on first sight and kept in `store`
  // (deques never move their elements, so names_/used_ can point into them).
  const std::string& BindIn(const Var* v, std::deque<std::string>* store) {
    static const std::string kNone = "None";
    if (!v) return kNone;
    auto [slot, fresh] = names_.Insert(v);
    if (!fresh) return **slot;
    std::string_view hint = v->name_hint;
    bool plain = !hint.empty() && text::IsIdentStart(hint[0]);
    for (char c : hint) plain = plain && text::IsIdentChar(c);
    std::string base;
    if (plain) {
      base = hint;
    } else {
      for (char c : hint) base += text::IsIdentChar(c) ? c : '_';
      if (base.empty()) base = "v";
      if (!text::IsIdentStart(base[0])) base = "_" + base;
    }
    if (!text::IsReservedName(base) && !used_.Contains(base)) {
      store->push_back(std::move(base));
    } else {
      // Probe from where the last probe for this base stopped: every
      // base_k below it is taken (used_ only grows within a scope), so the
      // name is the same as probing from 1, in linear total time.
      std::string name;
      int& k = next_suffix_[base];
      for (k = std::max(k, 1);; ++k) {
        name = base + "_" + std::to_string(k);
        if (!text::IsReservedName(name) && !used_.Contains(name)) break;
      }
      ++k;
      store->push_back(std::move(name));
    }
    const std::string& name = store->back();
    used_.Insert(name);
    *slot = &name;
    return name;
  }

  void Line(int indent, const std::string& s) {
    out.append(static_cast<size_t>(indent) * 4, ' ');
    out += s;
    out += '\n';
  }

  void Body(const Stmt* body, int indent, const std::vector<const Var*>* yt) {
    size_t before = out.size();
    if (body) Stmt_(body, indent, yt);
    if (out.size() == before) Line(indent, "pass");
  }

  std::string Decorator(const Function& f) {
    std::vector<std::string> parts;
    if (f.func_type != FunctionType::kOpaque)
      parts.push_back("type=" + EnumStr(EnumKind::kFunctionType, static_cast<int>(f.func_type)));
    if (f.level) parts.push_back("level=" + EnumStr(EnumKind::kLevel, static_cast<int>(*f.level)));
    if (f.role) parts.push_back("role=" + EnumStr(EnumKind::kRole, static_cast<int>(*f.role)));
    for (const auto& a : f.attrs) parts.push_back(a.name + "=" + AttrStr(a.value, nullptr));
    if (parts.empty()) return "@pl.function";
    std::string s = "@pl.function(";
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
    return s + ")";
  }

  void PrintFor(const ForStmt& f, int indent) {
    static constexpr const char* kKinds[] = {"pl.range", "pl.parallel", "pl.unroll", "pl.pipeline"};
    int k = static_cast<int>(f.for_kind);
    std::string head = (k >= 0 && k < 4) ? kKinds[k] : "pl.range";
    auto is_int = [](const Expr* e, int64_t v) {
      auto* c = As<ConstInt>(e);
      return c && c->value == v && c->dtype() == DataType::kIndex;
    };
    std::string args;
    if (is_int(f.step, 1) && is_int(f.start, 0))
      args = Expr_(f.stop);
    else if (is_int(f.step, 1))
      args = Expr_(f.start) + ", " + Expr_(f.stop);
    else
      args = Expr_(f.start) + ", " + Expr_(f.stop) + ", " + Expr_(f.step);
    std::string target = Name(f.loop_var);
    if (!f.iter_args.empty()) {
      target += ", " + IterTuple(f.iter_args);
      args += ", init_values=" + InitTuple(f.iter_args);
    }
    Line(indent, "for " + target + " in " + head + "(" + args + AttrKwargs(f.attrs, true) + "):");
    Body(f.body, indent + 1, f.return_vars.empty() ? nullptr : &f.return_vars);
  }

  void PrintWhile(const WhileStmt& w, int indent) {
    if (w.iter_args.empty()) {
      Line(indent, "while " + Expr_(w.cond) + ":");
      Body(w.body, indent + 1, nullptr);
      return;
    }
    Line(indent, "for " + IterTuple(w.iter_args) +
                     " in pl.while_(init_values=" + InitTuple(w.iter_args) + "):");
    Line(indent + 1, "pl.cond(" + Expr_(w.cond) + ")");
    Stmt_(w.body, indent + 1, w.return_vars.empty() ? nullptr : &w.return_vars);
  }

  std::string IterTuple(const std::vector<const IterArg*>& ias) {
    std::string s = "(";
    for (size_t i = 0; i < ias.size(); ++i) s += (i ? ", " : "") + Name(ias[i]);
    return s + (ias.size() == 1 ? ",)" : ")");
  }
  std::string InitTuple(const std::vector<const IterArg*>& ias) {
    std::string s = "(";
    for (size_t i = 0; i < ias.size(); ++i) s += (i ? ", " : "") + Expr_(ias[i]->init);
    return s + (ias.size() == 1 ? ",)" : ")");
  }

  std::string ExprList(const std::vector<const Expr*>& es) {
    std::string s;
    for (size_t i = 0; i < es.size(); ++i) s += (i ? ", " : "") + Expr_(es[i]);
    return s;
  }

  std::string Wrap(const Expr* e, bool parens) { return parens ? "(" + Expr_(e) + ")" : Expr_(e); }

  std::string Binary(const BinaryExpr& b) {
    if (b.op == BinaryOp::kMin || b.op == BinaryOp::kMax)
      return fmt::format("pl.{}({}, {})", b.op == BinaryOp::kMin ? "min" : "max", Expr_(b.lhs),
                         Expr_(b.rhs));
    int p = BinaryPrec(b.op);
    int lp = ExprPrec(b.lhs), rp = ExprPrec(b.rhs);
    bool lparen, rparen;
    if (b.op == BinaryOp::kPow) {
      lparen = lp <= p;
      rparen = rp < kPrecUnary;
    } else if (p == kPrecCmp) {
      lparen = lp <= p;
      rparen = rp <= p;
    } else {
      lparen = lp < p;
      rparen = rp <= p;
    }
    return Wrap(b.lhs, lparen) + " " + std::string(BinaryOpSymbol(b.op)) + " " +
           Wrap(b.rhs, rparen);
  }

  std::string Unary(const UnaryExpr& u) {
    switch (u.op) {
      case UnaryOp::kNeg:
      case UnaryOp::kBitNot: {
        // A literal operand is parenthesised so it does not fold into a negative literal.
        bool lit = Isa<ConstInt>(u.operand) || Isa<ConstFloat>(u.operand);
        return std::string(u.op == UnaryOp::kNeg ? "-" : "~") +
               Wrap(u.operand, lit || ExprPrec(u.operand) < kPrecUnary);
      }
      case UnaryOp::kNot:
        return "not " + Wrap(u.operand, ExprPrec(u.operand) < kPrecNot);
      case UnaryOp::kAbs:
        return "pl.abs(" + Expr_(u.operand) + ")";
      case UnaryOp::kCast: {
        auto* st = As<ScalarType>(u.type);
        return fmt::format("pl.cast({}, pl.{})", Expr_(u.operand),
                           st ? DTypeName(st->dtype) : "INDEX");
      }
    }
    return "<?>";
  }

  // The RHS of `lhs: T = value`; drops alloc_window_buffer's name= when it is the LHS.
  std::string AssignValue(const Expr* value, const std::string& lhs) {
    auto* c = As<Call>(value);
    if (c && c->IsOp("pld.tensor.alloc_window_buffer")) return CallStr(*c, lhs);
    return Expr_(value);
  }

  std::string CallStr(const Call& c, const std::string& suppress_name) {
    std::string s = c.op ? PrintedName(c.op) : "self." + c.callee;
    s += "(" + ExprList(c.args);
    bool first = c.args.empty();
    for (const auto& kw : c.kwargs) {
      if (c.op && kw.name == "name" && !suppress_name.empty() &&
          kw.value.kind == Attr::Kind::kString && kw.value.s == suppress_name &&
          c.IsOp("pld.tensor.alloc_window_buffer"))
        continue;
      const KwargSpec* spec = c.op ? c.op->FindKwarg(kw.name) : nullptr;
      s += (first ? "" : ", ") + kw.name + "=" + AttrStr(kw.value, spec);
      first = false;
    }
    AttrList rest;
    for (const auto& a : c.attrs) {
      if (!c.op && a.name == "device") {
        s += (first ? "" : ", ") + std::string("device=") + AttrStr(a.value, nullptr);
        first = false;
      } else {
        rest.push_back(a);
      }
    }
    if (!rest.empty()) {
      s += (first ? "" : ", ") + std::string("attrs={");
      for (size_t i = 0; i < rest.size(); ++i)
        s += (i ? ", " : "") + text::QuoteString(rest[i].name) + ": " +
             AttrStr(rest[i].value, nullptr);
      s += "}";
    }
    return s + ")";
  }

  // `, k=v, ...` for scope/loop attrs (leading comma when `comma`).
  std::string AttrKwargs(const AttrList& l, bool comma) {
    std::string s;
    for (size_t i = 0; i < l.size(); ++i)
      s += ((comma || i) ? ", " : "") + l[i].name + "=" + AttrStr(l[i].value, nullptr);
    return s;
  }

  std::string EnumStr(EnumKind k, int v) {
    auto n = EnumValueName(k, v);
    return n ? *n : std::to_string(v);
  }

  std::string AttrStr(const Attr& a, const KwargSpec* spec) {
    switch (a.kind) {
      case Attr::Kind::kNone:
        return "None";
      case Attr::Kind::kInt:
        if (spec && spec->type == KwargType::kEnum)
          return EnumStr(spec->enum_kind, static_cast<int>(a.i));
        return std::to_string(a.i);
      case Attr::Kind::kFloat:
        return text::FormatFloat(a.f);
      case Attr::Kind::kBool:
        return a.b ? "True" : "False";
      case Attr::Kind::kString:
        return text::QuoteString(a.s);
      case Attr::Kind::kDType:
        return "pl." + std::string(DTypeName(a.dtype));
      case Attr::Kind::kEnum:
        return EnumStr(a.enum_kind, static_cast<int>(a.i));
      case Attr::Kind::kExpr:
        return Expr_(a.expr);
      case Attr::Kind::kList: {
        std::string s = "[";
        for (size_t i = 0; i < a.list.size(); ++i) s += (i ? ", " : "") + AttrStr(a.list[i], spec);
        return s + "]";
      }
    }
    return "None";
  }

  std::string Shape(const std::vector<const Expr*>& shape) { return "[" + ExprList(shape) + "]"; }

  std::string TensorViewStr(const TensorView& v) {
    std::vector<std::string> parts;
    if (!v.stride.empty()) parts.push_back("stride=" + Shape(v.stride));
    if (v.layout != TensorLayout::kND)
      parts.push_back("layout=" + EnumStr(EnumKind::kTensorLayout, static_cast<int>(v.layout)));
    if (!v.valid_shape.empty()) parts.push_back("valid_shape=" + Shape(v.valid_shape));
    if (v.pad != PadValue::kNull)
      parts.push_back("pad=" + EnumStr(EnumKind::kPadValue, static_cast<int>(v.pad)));
    std::string s = "pl.TensorView(";
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
    return s + ")";
  }

  std::string TileViewStr(const TileView& v) {
    TileView d;
    std::vector<std::string> parts;
    if (!v.valid_shape.empty()) parts.push_back("valid_shape=" + Shape(v.valid_shape));
    if (v.blayout != d.blayout)
      parts.push_back("blayout=" + EnumStr(EnumKind::kTileLayout, static_cast<int>(v.blayout)));
    if (v.slayout != d.slayout)
      parts.push_back("slayout=" + EnumStr(EnumKind::kTileLayout, static_cast<int>(v.slayout)));
    if (v.fractal != d.fractal) parts.push_back("fractal=" + std::to_string(v.fractal));
    if (v.pad != d.pad)
      parts.push_back("pad=" + EnumStr(EnumKind::kPadValue, static_cast<int>(v.pad)));
    std::string s = "pl.TileView(";
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
    return s + ")";
  }

  // Printed names: module-level ones (kept) and the current function's.
  std::deque<std::string> global_store_, local_store_;
  PtrMap<const Var*, const std::string*> names_, globals_;  // into the stores
  StringViewSet used_, global_used_;                        // names taken (views into the stores)
  std::unordered_map<std::string, int> next_suffix_,
      global_next_suffix_;  // base -> first k to probe
  std::unordered_map<const Type*, std::string> type_strs_;
  std::unordered_map<const OpDef*, std::string> op_names_;
};

}  // namespace

namespace {

// The one program printer behind PrintProgram and PrintProgramTo: writes into
// pr.out and calls `flush` after the header and after each function (flush may
// hand pr.out to a sink and clear it, or do nothing to accumulate).
template <class Flush>
void PrintProgramInto(const Program& p, Printer& pr, Flush&& flush) {
  pr.out += "# pypto.program: " + p.name + "\n";
  pr.out += "import pypto.language as pl\nimport pypto.language.distributed as pld\n";
  if (!p.dynamic_dims.empty()) pr.out += "\n";
  for (const Var* d : p.dynamic_dims) {
    pr.AddGlobal(d);
    std::string n = pr.Name(d);
    pr.out += n + " = pl.dynamic(" + text::QuoteString(n) + ")\n";
  }
  pr.out += "\n\n@pl.program\nclass " + p.name + ":\n";
  if (p.functions.empty()) pr.out += "    pass\n";
  flush();
  for (size_t i = 0; i < p.functions.size(); ++i) {
    if (i) pr.out += "\n";
    pr.PrintFunction(*p.functions[i], 1);
    flush();
  }
}

}  // namespace

std::string PrintProgram(const Program& p) {
  Printer pr;
  // Reserved generously up front: pages never written cost no memory, while
  // growing a large string copies it and briefly holds both copies.
  size_t stmts = 0;
  for (const Function* f : p.functions) stmts += 2 + CountStmts(f->body);
  pr.out.reserve(4096 + stmts * 160);
  PrintProgramInto(p, pr, [] {});
  return std::move(pr.out);
}

void PrintProgramTo(const Program& p, const std::function<void(std::string_view)>& sink) {
  Printer pr;
  PrintProgramInto(p, pr, [&] {
    if (!pr.out.empty()) sink(pr.out);
    pr.out.clear();  // keeps the capacity: one function's text is reused
  });
}

void PrintProgramTo(const Program& p, std::ostream& os) {
  PrintProgramTo(p, [&os](std::string_view piece) {
    os.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  });
}

std::string PrintFunction(const Function& f) {
  Printer pr;
  pr.PrintFunction(f, 0);
  return pr.out;
}

std::string PrintStmt(const Stmt* s, int indent) {
  Printer pr;
  pr.PreBind(s);
  pr.Stmt_(s, indent, nullptr);
  return pr.out;
}

std::string PrintExpr(const Expr* e) {
  Printer pr;
  return pr.Expr_(e);
}

std::string TypeToString(const Type* t) {
  Printer pr;
  return pr.TypeStr(t);
}

}  // namespace pypto::ir
