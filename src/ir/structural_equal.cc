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
// by name; kwargs and attrs compare by value, order-insensitively.
#include "pypto/ir/structural_equal.h"

#include <fmt/format.h>

#include <cstring>
#include <string>
#include <unordered_map>

#include "pypto/ir/casting.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir {
namespace {

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
    switch (a->kind) {
      case NodeKind::kVar:
      case NodeKind::kIterArg:
        return VarUse(static_cast<const Var*>(a), static_cast<const Var*>(b));
      case NodeKind::kConstInt: {
        auto *x = static_cast<const ConstInt*>(a), *y = static_cast<const ConstInt*>(b);
        if (x->value != y->value) return Fail(fmt::format("constant {} vs {}", x->value, y->value));
        return TypeEq(a->type, b->type) || Fail(fmt::format("dtype of constant {}", x->value));
      }
      case NodeKind::kConstFloat: {
        auto *x = static_cast<const ConstFloat*>(a), *y = static_cast<const ConstFloat*>(b);
        if (std::memcmp(&x->value, &y->value, sizeof(double)) != 0)
          return Fail(fmt::format("constant {} vs {}", x->value, y->value));
        return TypeEq(a->type, b->type) || Fail(fmt::format("dtype of constant {}", x->value));
      }
      case NodeKind::kConstBool:
        return static_cast<const ConstBool*>(a)->value == static_cast<const ConstBool*>(b)->value ||
               Fail("bool constant differs");
      case NodeKind::kBinaryExpr: {
        auto *x = static_cast<const BinaryExpr*>(a), *y = static_cast<const BinaryExpr*>(b);
        if (x->op != y->op)
          return Fail(
              fmt::format("operator '{}' vs '{}'", BinaryOpSymbol(x->op), BinaryOpSymbol(y->op)));
        return ExprEq(x->lhs, y->lhs) && ExprEq(x->rhs, y->rhs) && TypeEq(a->type, b->type);
      }
      case NodeKind::kUnaryExpr: {
        auto *x = static_cast<const UnaryExpr*>(a), *y = static_cast<const UnaryExpr*>(b);
        if (x->op != y->op) return Fail("unary operator differs");
        return ExprEq(x->operand, y->operand) &&
               (TypeEq(a->type, b->type) || Fail("unary result type differs"));
      }
      case NodeKind::kCall: {
        auto *x = static_cast<const Call*>(a), *y = static_cast<const Call*>(b);
        if (x->op != y->op)
          return Fail(fmt::format("call of '{}' vs '{}'", x->op ? x->op->name : x->callee,
                                  y->op ? y->op->name : y->callee));
        if (!x->op && x->callee != y->callee)
          return Fail(fmt::format("call of 'self.{}' vs 'self.{}'", x->callee, y->callee));
        std::string name = x->op ? x->op->name : "self." + x->callee;
        if (!Exprs(x->args, y->args, (name + " argument").c_str())) return false;
        if (!Attrs(x->kwargs, y->kwargs, name + " kwarg")) return false;
        if (!Attrs(x->attrs, y->attrs, name + " attr")) return false;
        return TypeEq(a->type, b->type) || Fail(name + ": result type differs");
      }
      case NodeKind::kMakeTuple:
        return Exprs(static_cast<const MakeTuple*>(a)->elements,
                     static_cast<const MakeTuple*>(b)->elements, "tuple element");
      case NodeKind::kTupleGetItem: {
        auto *x = static_cast<const TupleGetItem*>(a), *y = static_cast<const TupleGetItem*>(b);
        if (x->index != y->index)
          return Fail(fmt::format("tuple index {} vs {}", x->index, y->index));
        return ExprEq(x->tuple, y->tuple);
      }
      default:
        return Fail("unexpected expression kind");
    }
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

  bool ViewEq(const std::optional<TensorView>& a, const std::optional<TensorView>& b) {
    if (a.has_value() != b.has_value()) return Fail("tensor view present on one side only");
    if (!a) return true;
    if (a->layout != b->layout || a->pad != b->pad) return Fail("tensor view layout/pad differs");
    return Exprs(a->stride, b->stride, "stride") &&
           Exprs(a->valid_shape, b->valid_shape, "valid_shape dim");
  }

  bool TypeEq(const Type* a, const Type* b) {
    if (a == b) return true;
    if (!a || !b) return Fail("type present on one side only");
    if (a->kind != b->kind)
      return Fail(fmt::format("type kind {} vs {}", NodeKindName(a->kind), NodeKindName(b->kind)));
    switch (a->kind) {
      case NodeKind::kScalarType:
        return static_cast<const ScalarType*>(a)->dtype ==
                   static_cast<const ScalarType*>(b)->dtype ||
               Fail(fmt::format("scalar dtype {} vs {}",
                                DTypeName(static_cast<const ScalarType*>(a)->dtype),
                                DTypeName(static_cast<const ScalarType*>(b)->dtype)));
      case NodeKind::kTensorType:
      case NodeKind::kDistributedTensorType: {
        auto *x = static_cast<const TensorType*>(a), *y = static_cast<const TensorType*>(b);
        if (x->dtype != y->dtype)
          return Fail(
              fmt::format("tensor dtype {} vs {}", DTypeName(x->dtype), DTypeName(y->dtype)));
        if (!Exprs(x->shape, y->shape, "shape dim") || !ViewEq(x->view, y->view)) return false;
        if (a->kind == NodeKind::kDistributedTensorType &&
            static_cast<const DistributedTensorType*>(a)->window_buffer !=
                static_cast<const DistributedTensorType*>(b)->window_buffer)
          return Fail("window buffer binding differs");
        return true;
      }
      case NodeKind::kTileType: {
        auto *x = static_cast<const TileType*>(a), *y = static_cast<const TileType*>(b);
        if (x->dtype != y->dtype)
          return Fail(fmt::format("tile dtype {} vs {}", DTypeName(x->dtype), DTypeName(y->dtype)));
        if (x->memory_space != y->memory_space) return Fail("tile memory space differs");
        if (!Exprs(x->shape, y->shape, "shape dim")) return false;
        if (x->view.has_value() != y->view.has_value())
          return Fail("tile view present on one side only");
        if (x->view) {
          const TileView &u = *x->view, &v = *y->view;
          if (u.blayout != v.blayout || u.slayout != v.slayout || u.fractal != v.fractal ||
              u.pad != v.pad)
            return Fail("tile view layout/fractal/pad differs");
          return Exprs(u.valid_shape, v.valid_shape, "valid_shape dim");
        }
        return true;
      }
      case NodeKind::kArrayType: {
        auto *x = static_cast<const ArrayType*>(a), *y = static_cast<const ArrayType*>(b);
        if (x->dtype != y->dtype)
          return Fail(
              fmt::format("array dtype {} vs {}", DTypeName(x->dtype), DTypeName(y->dtype)));
        return x->extent == y->extent ||
               Fail(fmt::format("array extent {} vs {}", x->extent, y->extent));
      }
      case NodeKind::kTupleType: {
        auto *x = static_cast<const TupleType*>(a), *y = static_cast<const TupleType*>(b);
        if (x->types.size() != y->types.size()) return Fail("tuple type arity differs");
        for (size_t i = 0; i < x->types.size(); ++i)
          if (!TypeEq(x->types[i], y->types[i])) return false;
        return true;
      }
      default:
        return true;  // leaf types: same kind is enough
    }
  }

  bool IterArgs(const std::vector<const IterArg*>& a, const std::vector<const IterArg*>& b) {
    if (a.size() != b.size())
      return Fail(fmt::format("iter_args count {} vs {}", a.size(), b.size()));
    for (size_t i = 0; i < a.size(); ++i)
      if (!ExprEq(a[i]->init, b[i]->init)) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!Def(a[i], b[i])) return false;
    return true;
  }

  bool StmtEq(const Stmt* a, const Stmt* b) {
    if (!a || !b) return a == b || Fail("statement present on one side only");
    if (a->kind != b->kind)
      return Fail(
          fmt::format("statement kind {} vs {}", NodeKindName(a->kind), NodeKindName(b->kind)));
    switch (a->kind) {
      case NodeKind::kAssignStmt: {
        auto *x = static_cast<const AssignStmt*>(a), *y = static_cast<const AssignStmt*>(b);
        if (!ExprEq(x->value, y->value)) return false;
        // Re-assignment of an already bound var (non-SSA) must hit the paired var.
        auto it = a2b_.find(x->var);
        if (it != a2b_.end()) return it->second == y->var || Fail("assignment target differs");
        if (b2a_.count(y->var)) return Fail("assignment target differs");
        return Def(x->var, y->var);
      }
      case NodeKind::kEvalStmt:
        return ExprEq(static_cast<const EvalStmt*>(a)->expr, static_cast<const EvalStmt*>(b)->expr);
      case NodeKind::kReturnStmt:
        return Exprs(static_cast<const ReturnStmt*>(a)->values,
                     static_cast<const ReturnStmt*>(b)->values, "return value");
      case NodeKind::kYieldStmt:
        return Exprs(static_cast<const YieldStmt*>(a)->values,
                     static_cast<const YieldStmt*>(b)->values, "yield value");
      case NodeKind::kIfStmt: {
        auto *x = static_cast<const IfStmt*>(a), *y = static_cast<const IfStmt*>(b);
        return ExprEq(x->cond, y->cond) && StmtEq(x->then_body, y->then_body) &&
               StmtEq(x->else_body, y->else_body) &&
               Defs(x->return_vars, y->return_vars, "if return var");
      }
      case NodeKind::kForStmt: {
        auto *x = static_cast<const ForStmt*>(a), *y = static_cast<const ForStmt*>(b);
        if (x->for_kind != y->for_kind) return Fail("loop kind differs");
        return ExprEq(x->start, y->start) && ExprEq(x->stop, y->stop) && ExprEq(x->step, y->step) &&
               Attrs(x->attrs, y->attrs, "loop attr") && Def(x->loop_var, y->loop_var) &&
               IterArgs(x->iter_args, y->iter_args) && StmtEq(x->body, y->body) &&
               Defs(x->return_vars, y->return_vars, "for return var");
      }
      case NodeKind::kWhileStmt: {
        auto *x = static_cast<const WhileStmt*>(a), *y = static_cast<const WhileStmt*>(b);
        return IterArgs(x->iter_args, y->iter_args) && ExprEq(x->cond, y->cond) &&
               StmtEq(x->body, y->body) && Defs(x->return_vars, y->return_vars, "while return var");
      }
      case NodeKind::kSeqStmt: {
        auto *x = static_cast<const SeqStmt*>(a), *y = static_cast<const SeqStmt*>(b);
        if (x->stmts.size() != y->stmts.size())
          return Fail(fmt::format("statement count {} vs {}", x->stmts.size(), y->stmts.size()));
        for (size_t i = 0; i < x->stmts.size(); ++i)
          if (!StmtEq(x->stmts[i], y->stmts[i])) return false;
        return true;
      }
      case NodeKind::kBreakStmt:
      case NodeKind::kContinueStmt:
        return true;
      default:
        return ScopeEq(static_cast<const ScopeStmt*>(a), static_cast<const ScopeStmt*>(b));
    }
  }

  bool ScopeEq(const ScopeStmt* a, const ScopeStmt* b) {
    switch (a->kind) {
      case NodeKind::kInCoreScopeStmt:
        if (static_cast<const InCoreScopeStmt*>(a)->split !=
            static_cast<const InCoreScopeStmt*>(b)->split)
          return Fail("InCore scope split differs");
        break;
      case NodeKind::kHierarchyScopeStmt: {
        auto *x = static_cast<const HierarchyScopeStmt*>(a),
             *y = static_cast<const HierarchyScopeStmt*>(b);
        if (x->level != y->level || x->role != y->role) return Fail("scope level/role differs");
        break;
      }
      case NodeKind::kSpmdScopeStmt: {
        auto *x = static_cast<const SpmdScopeStmt*>(a), *y = static_cast<const SpmdScopeStmt*>(b);
        if (x->sync_start != y->sync_start) return Fail("spmd sync_start differs");
        if (!ExprEq(x->core_num, y->core_num)) return false;
        break;
      }
      case NodeKind::kSplitAivScopeStmt: {
        auto *x = static_cast<const SplitAivScopeStmt*>(a),
             *y = static_cast<const SplitAivScopeStmt*>(b);
        if (x->count != y->count || x->mode != y->mode) return Fail("split_aiv count/mode differs");
        if (!Def(x->var, y->var)) return false;
        break;
      }
      case NodeKind::kCommDomainScopeStmt: {
        auto *x = static_cast<const CommDomainScopeStmt*>(a),
             *y = static_cast<const CommDomainScopeStmt*>(b);
        if (x->name != y->name || x->devices != y->devices || x->slots != y->slots)
          return Fail("comm_domain name/devices/slots differ");
        break;
      }
      case NodeKind::kManualScopeStmt:
        break;
      default:
        return Fail("unexpected statement kind");
    }
    return Attrs(a->attrs, b->attrs, "scope attr") && StmtEq(a->body, b->body);
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
    switch (e->kind) {
      case NodeKind::kVar:
      case NodeKind::kIterArg:
        return VarUse(static_cast<const Var*>(e));
      case NodeKind::kConstInt:
        Mix(static_cast<uint64_t>(static_cast<const ConstInt*>(e)->value));
        return TypeH(e->type);
      case NodeKind::kConstFloat:
        Dbl(static_cast<const ConstFloat*>(e)->value);
        return TypeH(e->type);
      case NodeKind::kConstBool:
        return Mix(static_cast<const ConstBool*>(e)->value);
      case NodeKind::kBinaryExpr: {
        auto* x = static_cast<const BinaryExpr*>(e);
        Mix(static_cast<uint64_t>(x->op));
        ExprH(x->lhs);
        ExprH(x->rhs);
        return TypeH(e->type);
      }
      case NodeKind::kUnaryExpr: {
        auto* x = static_cast<const UnaryExpr*>(e);
        Mix(static_cast<uint64_t>(x->op));
        ExprH(x->operand);
        return TypeH(e->type);
      }
      case NodeKind::kCall: {
        auto* x = static_cast<const Call*>(e);
        Str(x->op ? std::string_view(x->op->name) : std::string_view(x->callee));
        Mix(x->op != nullptr);
        Exprs(x->args);
        Attrs(x->kwargs);
        Attrs(x->attrs);
        return TypeH(e->type);
      }
      case NodeKind::kMakeTuple:
        return Exprs(static_cast<const MakeTuple*>(e)->elements);
      case NodeKind::kTupleGetItem:
        Mix(static_cast<uint64_t>(static_cast<const TupleGetItem*>(e)->index));
        return ExprH(static_cast<const TupleGetItem*>(e)->tuple);
      default:
        return;
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
    switch (t->kind) {
      case NodeKind::kScalarType:
        return Mix(static_cast<uint64_t>(static_cast<const ScalarType*>(t)->dtype));
      case NodeKind::kTensorType:
      case NodeKind::kDistributedTensorType: {
        auto* x = static_cast<const TensorType*>(t);
        Mix(static_cast<uint64_t>(x->dtype));
        Exprs(x->shape);
        Mix(x->view.has_value());
        if (x->view) {
          Mix(static_cast<uint64_t>(x->view->layout));
          Mix(static_cast<uint64_t>(x->view->pad));
          Exprs(x->view->stride);
          Exprs(x->view->valid_shape);
        }
        if (t->kind == NodeKind::kDistributedTensorType)
          Str(static_cast<const DistributedTensorType*>(t)->window_buffer);
        return;
      }
      case NodeKind::kTileType: {
        auto* x = static_cast<const TileType*>(t);
        Mix(static_cast<uint64_t>(x->dtype));
        Mix(x->memory_space ? static_cast<uint64_t>(*x->memory_space) + 1 : 0);
        Exprs(x->shape);
        Mix(x->view.has_value());
        if (x->view) {
          Mix(static_cast<uint64_t>(x->view->blayout));
          Mix(static_cast<uint64_t>(x->view->slayout));
          Mix(static_cast<uint64_t>(x->view->fractal));
          Mix(static_cast<uint64_t>(x->view->pad));
          Exprs(x->view->valid_shape);
        }
        return;
      }
      case NodeKind::kArrayType:
        Mix(static_cast<uint64_t>(static_cast<const ArrayType*>(t)->dtype));
        Mix(static_cast<uint64_t>(static_cast<const ArrayType*>(t)->extent));
        return;
      case NodeKind::kTupleType:
        Mix(static_cast<const TupleType*>(t)->types.size());
        for (const Type* x : static_cast<const TupleType*>(t)->types) TypeH(x);
        return;
      default:
        return;
    }
  }

  void StmtH(const Stmt* s) {
    if (!s) return Mix(0);
    Mix(static_cast<uint64_t>(s->kind) + 200);
    switch (s->kind) {
      case NodeKind::kAssignStmt: {
        auto* x = static_cast<const AssignStmt*>(s);
        ExprH(x->value);
        if (ids_.count(x->var)) return VarUse(x->var);
        return Def(x->var);
      }
      case NodeKind::kEvalStmt:
        return ExprH(static_cast<const EvalStmt*>(s)->expr);
      case NodeKind::kReturnStmt:
        return Exprs(static_cast<const ReturnStmt*>(s)->values);
      case NodeKind::kYieldStmt:
        return Exprs(static_cast<const YieldStmt*>(s)->values);
      case NodeKind::kIfStmt: {
        auto* x = static_cast<const IfStmt*>(s);
        ExprH(x->cond);
        StmtH(x->then_body);
        StmtH(x->else_body);
        Mix(x->return_vars.size());
        for (const Var* v : x->return_vars) Def(v);
        return;
      }
      case NodeKind::kForStmt: {
        auto* x = static_cast<const ForStmt*>(s);
        Mix(static_cast<uint64_t>(x->for_kind));
        ExprH(x->start);
        ExprH(x->stop);
        ExprH(x->step);
        Attrs(x->attrs);
        Def(x->loop_var);
        IterArgs(x->iter_args);
        StmtH(x->body);
        Mix(x->return_vars.size());
        for (const Var* v : x->return_vars) Def(v);
        return;
      }
      case NodeKind::kWhileStmt: {
        auto* x = static_cast<const WhileStmt*>(s);
        IterArgs(x->iter_args);
        ExprH(x->cond);
        StmtH(x->body);
        Mix(x->return_vars.size());
        for (const Var* v : x->return_vars) Def(v);
        return;
      }
      case NodeKind::kSeqStmt:
        Mix(static_cast<const SeqStmt*>(s)->stmts.size());
        for (const Stmt* x : static_cast<const SeqStmt*>(s)->stmts) StmtH(x);
        return;
      case NodeKind::kBreakStmt:
      case NodeKind::kContinueStmt:
        return;
      case NodeKind::kInCoreScopeStmt:
        Mix(static_cast<uint64_t>(static_cast<const InCoreScopeStmt*>(s)->split));
        break;
      case NodeKind::kHierarchyScopeStmt: {
        auto* x = static_cast<const HierarchyScopeStmt*>(s);
        Mix(static_cast<uint64_t>(x->level));
        Mix(x->role ? static_cast<uint64_t>(*x->role) + 1 : 0);
        break;
      }
      case NodeKind::kSpmdScopeStmt: {
        auto* x = static_cast<const SpmdScopeStmt*>(s);
        Mix(x->sync_start);
        ExprH(x->core_num);
        break;
      }
      case NodeKind::kSplitAivScopeStmt: {
        auto* x = static_cast<const SplitAivScopeStmt*>(s);
        Mix(static_cast<uint64_t>(x->count));
        Mix(static_cast<uint64_t>(x->mode));
        Def(x->var);
        break;
      }
      case NodeKind::kCommDomainScopeStmt: {
        auto* x = static_cast<const CommDomainScopeStmt*>(s);
        Str(x->name);
        for (int64_t d : x->devices) Mix(static_cast<uint64_t>(d));
        for (const std::string& sl : x->slots) Str(sl);
        break;
      }
      case NodeKind::kManualScopeStmt:
        break;
      default:
        return;
    }
    const auto* sc = static_cast<const ScopeStmt*>(s);
    Attrs(sc->attrs);
    StmtH(sc->body);
  }

  void IterArgs(const std::vector<const IterArg*>& v) {
    Mix(v.size());
    for (const IterArg* ia : v) ExprH(ia->init);
    for (const IterArg* ia : v) Def(ia);
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
