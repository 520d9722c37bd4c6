// Structural equality and hashing of IR (API in structural_equal.h).
//
// Spans and Var name hints never matter. Vars are matched by binding position:
// each binding site (param, assignment LHS, loop var, iter arg, return var,
// split_aiv var, program dynamic dim) pairs the two sides' Vars, and later uses
// must refer to paired Vars. A Var used without a visible binding (a free var,
// e.g. when comparing two standalone expressions) is paired on first occurrence,
// so `x + 1` equals `y + 1`; the pairing is a bijection, so `x + x` does not
// equal `x + y`. Hashing numbers Vars in the same order, so equal IR hashes equal.
// Calls compare their op by pointer (ops are registry singletons) or their callee
// by name; kwargs and attrs compare by value, order-insensitively. Types,
// expressions and statements are compared and hashed field by field in the
// order their field lists in node_kinds.def declare (EqWalk / HashWalk); Var
// uses and Calls are written out here.
#include "pypto/ir/structural_equal.h"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "pypto/ir/casting.h"
#include "pypto/ir/node_fields.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir {
namespace {

// ======================================================================= walkers
//
// Structural equality and hashing read the field lists of node_kinds.def
// (node_fields.h): the walkers below say what each field kind means to them.

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};

template <class T>
bool SameValue(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, double>)
    return std::memcmp(&a, &b, sizeof(double)) == 0;  // bitwise: -0.0 != 0.0, NaN == NaN
  else
    return a == b;
}

// What a VAL diagnostic prints for a value ("{}" in its message).
template <class T>
auto Shown(const T& v) {
  if constexpr (std::is_same_v<T, BinaryOp>)
    return BinaryOpSymbol(v);
  else if constexpr (std::is_same_v<T, DataType>)
    return DTypeName(v);
  else if constexpr (std::is_arithmetic_v<T>)
    return v;
  else
    return std::string_view("?");
}

template <class E, class N>
struct EqWalk {
  E& e;
  const N* x;
  const N* y;
  bool ok = true;

  template <class M, class C>
  void Val(M C::*f, const char* msg) {
    if (!ok || SameValue(x->*f, y->*f)) return;
    std::string_view m(msg);
    ok = e.Fail(m.find("{}") == std::string_view::npos
                    ? std::string(m)
                    : fmt::format(fmt::runtime(m), Shown(x->*f), Shown(y->*f)));
  }
  template <class M, class C>
  void OwnType(M C::*f) {
    ok = ok && e.TypeEq(x->*f, y->*f);
  }
  template <class M, class C>
  void ResultType(M C::*f) {
    OwnType(f);
  }
  template <class M, class C>
  void Use(M C::*f) {
    ok = ok && e.ExprEq(x->*f, y->*f);
  }
  template <class M, class C>
  void Uses(M C::*f, const char* what) {
    ok = ok && e.Exprs(x->*f, y->*f, what);
  }
  template <class M, class C>
  void Attrs(M C::*f, const char* what) {
    ok = ok && e.Attrs(x->*f, y->*f, what);
  }
  template <class M, class C>
  void Def(M C::*f) {
    ok = ok && e.Def(x->*f, y->*f);
  }
  template <class M, class C>
  void AssignDef(M C::*f) {
    ok = ok && e.AssignDef(x->*f, y->*f);
  }
  template <class M, class C>
  void Defs(M C::*f, const char* what) {
    ok = ok && e.Defs(x->*f, y->*f, what);
  }
  template <class M, class C>
  void Inits(M C::*f) {
    ok = ok && e.Inits(x->*f, y->*f);
  }
  template <class M, class C>
  void IterDefs(M C::*f) {
    for (size_t i = 0; ok && i < (x->*f).size(); ++i) ok = e.Def((x->*f)[i], (y->*f)[i]);
  }
  template <class M, class C>
  void OptBody(M C::*f) {
    ok = ok && e.StmtEq(x->*f, y->*f);
  }
  template <class M, class C>
  void Body(M C::*f) {
    OptBody(f);
  }
  template <class M, class C>
  void Stmts(M C::*f, const char* what) {
    if (!ok) return;
    const auto &a = x->*f, &b = y->*f;
    if (a.size() != b.size()) {
      ok = e.Fail(fmt::format("{} count {} vs {}", what, a.size(), b.size()));
      return;
    }
    for (size_t i = 0; ok && i < a.size(); ++i) ok = e.StmtEq(a[i], b[i]);
  }
  template <class M, class C>
  void View(M C::*f, const char* what) {
    if (!ok) return;
    const auto &a = x->*f, &b = y->*f;
    if (a.has_value() != b.has_value()) {
      ok = e.Fail(fmt::format("{} present on one side only", what));
      return;
    }
    if (!a) return;
    EqWalk<E, typename M::value_type> w{e, &*a, &*b};
    EachField(w.x, w);
    ok = w.ok;
  }
  template <class M, class C>
  void Types(M C::*f, const char* msg) {
    if (!ok) return;
    const auto &a = x->*f, &b = y->*f;
    if (a.size() != b.size()) {
      ok = e.Fail(msg);
      return;
    }
    for (size_t i = 0; ok && i < a.size(); ++i) ok = e.TypeEq(a[i], b[i]);
  }
};

template <class H, class N>
struct HashWalk {
  H& h;
  const N* x;

  template <class M, class C>
  void Val(M C::*f, const char*) {
    h.Value(x->*f);
  }
  template <class M, class C>
  void OwnType(M C::*f) {
    h.TypeH(x->*f);
  }
  template <class M, class C>
  void ResultType(M C::*f) {
    h.TypeH(x->*f);
  }
  template <class M, class C>
  void Use(M C::*f) {
    h.ExprH(x->*f);
  }
  template <class M, class C>
  void Uses(M C::*f, const char*) {
    h.Exprs(x->*f);
  }
  template <class M, class C>
  void Attrs(M C::*f, const char*) {
    h.Attrs(x->*f);
  }
  template <class M, class C>
  void Def(M C::*f) {
    h.Def(x->*f);
  }
  template <class M, class C>
  void AssignDef(M C::*f) {
    h.AssignDef(x->*f);
  }
  template <class M, class C>
  void Defs(M C::*f, const char*) {
    h.Mix((x->*f).size());
    for (const Var* v : x->*f) h.Def(v);
  }
  template <class M, class C>
  void Inits(M C::*f) {
    h.Mix((x->*f).size());
    for (const IterArg* ia : x->*f) h.ExprH(ia->init);
  }
  template <class M, class C>
  void IterDefs(M C::*f) {
    for (const IterArg* ia : x->*f) h.Def(ia);
  }
  template <class M, class C>
  void OptBody(M C::*f) {
    h.StmtH(x->*f);
  }
  template <class M, class C>
  void Body(M C::*f) {
    h.StmtH(x->*f);
  }
  template <class M, class C>
  void Stmts(M C::*f, const char*) {
    h.Mix((x->*f).size());
    for (const Stmt* s : x->*f) h.StmtH(s);
  }
  template <class M, class C>
  void View(M C::*f, const char*) {
    h.Mix((x->*f).has_value());
    if (!(x->*f)) return;
    HashWalk<H, typename M::value_type> w{h, &*(x->*f)};
    EachField(w.x, w);
  }
  template <class M, class C>
  void Types(M C::*f, const char*) {
    h.Mix((x->*f).size());
    for (const Type* t : x->*f) h.TypeH(t);
  }
};

// ======================================================================= equality

class Equal {
 public:
  explicit Equal(std::string* why) : why_(why) {}

  bool Fail(const std::string& msg) {
    if (why_ && why_->empty())
      *why_ = where_.empty() ? msg : "in function '" + where_ + "': " + msg;
    return false;
  }

  // Pairs two binding occurrences (types must match).
  bool Def(const Var* a, const Var* b) {
    if (!a || !b) return a == b || Fail("binding present on one side only");
    if (a->kind != b->kind)
      return Fail(fmt::format("binding '{}' is {} vs {}", a->name_hint, NodeKindName(a->kind),
                              NodeKindName(b->kind)));
    if (!TypeEq(a->type, b->type)) return Fail(fmt::format("type of '{}' differs", a->name_hint));
    a2b_[a] = b;
    b2a_[b] = a;
    return true;
  }
  bool Defs(const std::vector<const Var*>& a, const std::vector<const Var*>& b, const char* what) {
    if (a.size() != b.size())
      return Fail(fmt::format("{} count {} vs {}", what, a.size(), b.size()));
    for (size_t i = 0; i < a.size(); ++i)
      if (!Def(a[i], b[i])) return false;
    return true;
  }

  bool VarUse(const Var* a, const Var* b) {
    auto ia = a2b_.find(a);
    auto ib = b2a_.find(b);
    if (ia == a2b_.end() && ib == b2a_.end()) {  // free on both sides: pair now
      if (!TypeEq(a->type, b->type))
        return Fail(fmt::format("type of free var '{}' differs", a->name_hint));
      a2b_[a] = b;
      b2a_[b] = a;
      return true;
    }
    if (ia != a2b_.end() && ia->second == b) return true;
    return Fail(
        fmt::format("var '{}' vs '{}' refer to different definitions", a->name_hint, b->name_hint));
  }

  bool Exprs(const std::vector<const Expr*>& a, const std::vector<const Expr*>& b,
             const char* what) {
    if (a.size() != b.size())
      return Fail(fmt::format("{} count {} vs {}", what, a.size(), b.size()));
    for (size_t i = 0; i < a.size(); ++i)
      if (!ExprEq(a[i], b[i])) return false;
    return true;
  }

  bool ExprEq(const Expr* a, const Expr* b) {
    if (!a || !b) return a == b || Fail("expression present on one side only");
    if (a->kind != b->kind)
      return Fail(
          fmt::format("expression kind {} vs {}", NodeKindName(a->kind), NodeKindName(b->kind)));
    if (const Var* v = AsVarLike(a)) return VarUse(v, static_cast<const Var*>(b));
    if (a->kind == NodeKind::kCall)
      return CallEq(static_cast<const Call*>(a), static_cast<const Call*>(b));
    return DispatchExpr(a, [&](const auto* x) { return FieldsEq(x, b); });
  }

  // Op identity (pointer) or callee name first; the messages name the call.
  bool CallEq(const Call* x, const Call* y) {
    if (x->op != y->op)
      return Fail(fmt::format("call of '{}' vs '{}'", x->op ? x->op->name : x->callee,
                              y->op ? y->op->name : y->callee));
    if (!x->op && x->callee != y->callee)
      return Fail(fmt::format("call of 'self.{}' vs 'self.{}'", x->callee, y->callee));
    std::string name = x->op ? x->op->name : "self." + x->callee;
    if (!Exprs(x->args, y->args, (name + " argument").c_str())) return false;
    if (!Attrs(x->kwargs, y->kwargs, name + " kwarg")) return false;
    if (!Attrs(x->attrs, y->attrs, name + " attr")) return false;
    return TypeEq(x->type, y->type) || Fail(name + ": result type differs");
  }

  // Every type and every other expression and statement: its fields in
  // declared order.
  template <class N>
  bool FieldsEq(const N* x, const Node* b) {
    EqWalk<Equal, N> w{*this, x, static_cast<const N*>(b)};
    EachField(x, w);
    return w.ok;
  }

  bool AttrEq(const Attr& a, const Attr& b, const std::string& what) {
    if (a.kind != b.kind) return Fail(what + ": value kind differs");
    switch (a.kind) {
      case Attr::Kind::kNone:
        return true;
      case Attr::Kind::kInt:
        return a.i == b.i || Fail(fmt::format("{}: {} vs {}", what, a.i, b.i));
      case Attr::Kind::kEnum:
        return (a.enum_kind == b.enum_kind && a.i == b.i) || Fail(what + ": enum value differs");
      case Attr::Kind::kFloat:
        return std::memcmp(&a.f, &b.f, sizeof(double)) == 0 ||
               Fail(fmt::format("{}: {} vs {}", what, a.f, b.f));
      case Attr::Kind::kBool:
        return a.b == b.b || Fail(what + ": bool differs");
      case Attr::Kind::kString:
        return a.s == b.s || Fail(fmt::format("{}: \"{}\" vs \"{}\"", what, a.s, b.s));
      case Attr::Kind::kDType:
        return a.dtype == b.dtype || Fail(what + ": dtype differs");
      case Attr::Kind::kExpr:
        return ExprEq(a.expr, b.expr);
      case Attr::Kind::kList:
        if (a.list.size() != b.list.size()) return Fail(what + ": list length differs");
        for (size_t i = 0; i < a.list.size(); ++i)
          if (!AttrEq(a.list[i], b.list[i], what)) return false;
        return true;
    }
    return false;
  }

  bool Attrs(const AttrList& a, const AttrList& b, const std::string& what) {
    if (a.size() != b.size())
      return Fail(fmt::format("{} count {} vs {}", what, a.size(), b.size()));
    for (const NamedAttr& x : a) {
      const Attr* y = FindAttr(b, x.name);
      if (!y) return Fail(fmt::format("{} '{}' missing on one side", what, x.name));
      if (!AttrEq(x.value, *y, what + " '" + x.name + "'")) return false;
    }
    return true;
  }

  bool TypeEq(const Type* a, const Type* b) {
    if (a == b) return true;
    if (!a || !b) return Fail("type present on one side only");
    if (a->kind != b->kind)
      return Fail(fmt::format("type kind {} vs {}", NodeKindName(a->kind), NodeKindName(b->kind)));
    return DispatchType(a, [&](const auto* x) { return FieldsEq(x, b); });
  }

  bool Inits(const std::vector<const IterArg*>& a, const std::vector<const IterArg*>& b) {
    if (a.size() != b.size())
      return Fail(fmt::format("iter_args count {} vs {}", a.size(), b.size()));
    for (size_t i = 0; i < a.size(); ++i)
      if (!ExprEq(a[i]->init, b[i]->init)) return false;
    return true;
  }

  // An assignment binds its target, or re-assigns (non-SSA) the paired var.
  bool AssignDef(const Var* a, const Var* b) {
    auto it = a2b_.find(a);
    if (it != a2b_.end()) return it->second == b || Fail("assignment target differs");
    if (b2a_.count(b)) return Fail("assignment target differs");
    return Def(a, b);
  }

  bool StmtEq(const Stmt* a, const Stmt* b) {
    if (!a || !b) return a == b || Fail("statement present on one side only");
    if (a->kind != b->kind)
      return Fail(
          fmt::format("statement kind {} vs {}", NodeKindName(a->kind), NodeKindName(b->kind)));
    return DispatchStmt(a, [&](const auto* x) { return FieldsEq(x, b); });
  }

  bool FunctionEq(const Function& a, const Function& b) {
    where_ = a.name;
    if (a.name != b.name) return Fail(fmt::format("function name '{}' vs '{}'", a.name, b.name));
    if (a.func_type != b.func_type || a.level != b.level || a.role != b.role)
      return Fail("function type/level/role differs");
    if (a.param_dirs != b.param_dirs) return Fail("parameter directions differ");
    if (!Defs(a.params, b.params, "parameter")) return false;
    if (a.return_types.size() != b.return_types.size()) return Fail("return type count differs");
    for (size_t i = 0; i < a.return_types.size(); ++i)
      if (!TypeEq(a.return_types[i], b.return_types[i])) return false;
    if (!Attrs(a.attrs, b.attrs, "function attr")) return false;
    bool ok = StmtEq(a.body, b.body);
    if (ok) where_.clear();
    return ok;
  }

  bool ProgramEq(const Program& a, const Program& b) {
    if (a.name != b.name) return Fail(fmt::format("program name '{}' vs '{}'", a.name, b.name));
    if (!Defs(a.dynamic_dims, b.dynamic_dims, "dynamic dim")) return false;
    if (a.functions.size() != b.functions.size())
      return Fail(fmt::format("function count {} vs {}", a.functions.size(), b.functions.size()));
    for (size_t i = 0; i < a.functions.size(); ++i)
      if (!FunctionEq(*a.functions[i], *b.functions[i])) return false;
    return true;
  }

 private:
  std::string* why_;
  std::string where_;
  std::unordered_map<const Var*, const Var*> a2b_, b2a_;
};

// ======================================================================= hashing

class Hasher {
 public:
  uint64_t h = 0x9e3779b97f4a7c15ULL;
  void Mix(uint64_t v) {
    v *= 0xff51afd7ed558ccdULL;
    v ^= v >> 33;
    h = (h ^ v) * 0xc4ceb9fe1a85ec53ULL + 0x9e3779b9ULL;
    h ^= h >> 29;
  }
  void Str(std::string_view s) {
    Mix(s.size());
    for (char c : s) Mix(static_cast<unsigned char>(c));
  }
  void Dbl(double d) {
    uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    Mix(u);
  }

  void Def(const Var* v) {
    if (!v) return Mix(0);
    Mix(static_cast<uint64_t>(v->kind));
    TypeH(v->type);
    ids_[v] = next_++;
  }
  void VarUse(const Var* v) {
    auto it = ids_.find(v);
    if (it == ids_.end()) {
      TypeH(v->type);
      it = ids_.emplace(v, next_++).first;
    }
    Mix(0x5a5a0000 + it->second);
  }

  void Exprs(const std::vector<const Expr*>& v) {
    Mix(v.size());
    for (const Expr* e : v) ExprH(e);
  }

  void ExprH(const Expr* e) {
    if (!e) return Mix(0);
    Mix(static_cast<uint64_t>(e->kind) + 1);
    if (const Var* v = AsVarLike(e)) return VarUse(v);
    if (e->kind == NodeKind::kCall) return CallH(static_cast<const Call*>(e));
    DispatchExpr(e, [&](const auto* x) { FieldsH(x); });
  }

  void CallH(const Call* x) {
    Str(x->op ? std::string_view(x->op->name) : std::string_view(x->callee));
    Mix(x->op != nullptr);
    Exprs(x->args);
    Attrs(x->kwargs);
    Attrs(x->attrs);
    TypeH(x->type);
  }

  template <class N>
  void FieldsH(const N* x) {
    HashWalk<Hasher, N> w{*this, x};
    EachField(x, w);
  }

  // Plain field values (VAL): enums and integers by value, optionals with a
  // presence bit, strings and vectors element by element.
  template <class T>
  void Value(const T& v) {
    if constexpr (std::is_same_v<T, double>) {
      Dbl(v);
    } else if constexpr (std::is_same_v<T, std::string>) {
      Str(v);
    } else if constexpr (IsOptional<T>::value) {
      Mix(v ? static_cast<uint64_t>(*v) + 1 : 0);
    } else if constexpr (IsVector<T>::value) {
      for (const auto& x : v) Value(x);
    } else {
      Mix(static_cast<uint64_t>(v));
    }
  }

  void AttrH(const Attr& a) {
    Mix(static_cast<uint64_t>(a.kind));
    switch (a.kind) {
      case Attr::Kind::kNone:
        return;
      case Attr::Kind::kInt:
        return Mix(static_cast<uint64_t>(a.i));
      case Attr::Kind::kEnum:
        Mix(static_cast<uint64_t>(a.enum_kind));
        return Mix(static_cast<uint64_t>(a.i));
      case Attr::Kind::kFloat:
        return Dbl(a.f);
      case Attr::Kind::kBool:
        return Mix(a.b);
      case Attr::Kind::kString:
        return Str(a.s);
      case Attr::Kind::kDType:
        return Mix(static_cast<uint64_t>(a.dtype));
      case Attr::Kind::kExpr:
        return ExprH(a.expr);
      case Attr::Kind::kList:
        Mix(a.list.size());
        for (const Attr& x : a.list) AttrH(x);
        return;
    }
  }

  // Order-insensitive (matches Equal::Attrs): combine per-entry hashes by sum.
  void Attrs(const AttrList& l) {
    uint64_t sum = 0;
    for (const NamedAttr& a : l) {
      uint64_t saved = h;
      h = 0x9e3779b97f4a7c15ULL;
      Str(a.name);
      AttrH(a.value);
      sum += h;
      h = saved;
    }
    Mix(l.size());
    Mix(sum);
  }

  void TypeH(const Type* t) {
    if (!t) return Mix(0);
    Mix(static_cast<uint64_t>(t->kind) + 100);
    DispatchType(t, [&](const auto* x) { FieldsH(x); });
  }

  void StmtH(const Stmt* s) {
    if (!s) return Mix(0);
    Mix(static_cast<uint64_t>(s->kind) + 200);
    DispatchStmt(s, [&](const auto* x) { FieldsH(x); });
  }

  void AssignDef(const Var* v) {
    if (ids_.count(v)) return VarUse(v);
    Def(v);
  }

  void FunctionH(const Function& f) {
    Str(f.name);
    Mix(static_cast<uint64_t>(f.func_type));
    Mix(f.level ? static_cast<uint64_t>(*f.level) + 1 : 0);
    Mix(f.role ? static_cast<uint64_t>(*f.role) + 1 : 0);
    Mix(f.params.size());
    for (size_t i = 0; i < f.params.size(); ++i) {
      Def(f.params[i]);
      Mix(i < f.param_dirs.size() ? static_cast<uint64_t>(f.param_dirs[i]) : 99);
    }
    Mix(f.return_types.size());
    for (const Type* t : f.return_types) TypeH(t);
    Attrs(f.attrs);
    StmtH(f.body);
  }

  void ProgramH(const Program& p) {
    Str(p.name);
    Mix(p.dynamic_dims.size());
    for (const Var* v : p.dynamic_dims) Def(v);
    Mix(p.functions.size());
    for (const Function* f : p.functions) FunctionH(*f);
  }

 private:
  std::unordered_map<const Var*, uint64_t> ids_;
  uint64_t next_ = 1;
};

template <typename F>
bool RunEq(std::string* why, F f) {
  if (why) why->clear();
  Equal eq(why);
  return f(eq);
}

}  // namespace

bool StructuralEqual(const Program& a, const Program& b, std::string* why) {
  return RunEq(why, [&](Equal& e) { return e.ProgramEq(a, b); });
}
bool StructuralEqual(const Function& a, const Function& b, std::string* why) {
  return RunEq(why, [&](Equal& e) { return e.FunctionEq(a, b); });
}
bool StructuralEqual(const Stmt* a, const Stmt* b, std::string* why) {
  return RunEq(why, [&](Equal& e) { return e.StmtEq(a, b); });
}
bool StructuralEqual(const Expr* a, const Expr* b, std::string* why) {
  return RunEq(why, [&](Equal& e) { return e.ExprEq(a, b); });
}
bool StructuralEqual(const Type* a, const Type* b, std::string* why) {
  return RunEq(why, [&](Equal& e) { return e.TypeEq(a, b); });
}

uint64_t StructuralHash(const Program& p) {
  Hasher h;
  h.ProgramH(p);
  return h.h;
}
uint64_t StructuralHash(const Function& f) {
  Hasher h;
  h.FunctionH(f);
  return h.h;
}
uint64_t StructuralHash(const Stmt* s) {
  Hasher h;
  h.StmtH(s);
  return h.h;
}
uint64_t StructuralHash(const Expr* e) {
  Hasher h;
  h.ExprH(e);
  return h.h;
}
uint64_t StructuralHash(const Type* t) {
  Hasher h;
  h.TypeH(t);
  return h.h;
}

}  // namespace pypto::ir
