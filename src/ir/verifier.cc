// Whole-program verifier (API in verifier.h). Reports every error it finds:
//
//  1. Bindings (pass 1, per program): params, loop vars, iter args, return vars,
//     split_aiv vars and dynamic dims are bound exactly once and never assigned;
//     a Var belongs to one function; with VerifyOptions::ssa every Var is
//     assigned exactly once.
//  2. Scoping (pass 2): a use refers to a Var bound earlier in the same or an
//     enclosing block (loop vars, iter args and values assigned in a loop body or
//     if branch are local to it; return vars are visible after their statement).
//     Before SSA, a Var assigned in both branches of an `if` is visible after it
//     (the Python pattern convert-to-ssa turns into return vars). `with` scopes
//     do not open a block.
//  3. Calls: every op call is re-checked by its deducer (MakeOpCall into a scratch
//     DiagnosticEngine) and its stored type must equal the re-deduced one;
//     function calls (verifier_calls.cc) check callee, arity, argument and result
//     types; op placement (host-only / kernel-only) follows the function kind.
//  4. Control flow: yield arity against iter args / return vars, trailing yields
//     in both branches of an if with results, return values against the return
//     types, break/continue only inside loops.
//  5. Recursion (verifier_recursion.cc): no function calls itself, directly or
//     through others; each call cycle is reported once, named.
//
// Var uses share the node of their definition, so a use has no span of its own;
// errors about a use point at the innermost enclosing expression or statement.
#include "pypto/ir/verifier.h"

#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/int_expr_fold.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/type_dims_check.h"
#include "verifier_internal.h"

namespace pypto::ir {
namespace verifier_detail {

std::string_view BindKindName(BindKind k) {
  switch (k) {
    case BindKind::kParam:
      return "a function parameter";
    case BindKind::kAssign:
      return "an assigned variable";
    case BindKind::kLoopVar:
      return "a loop variable";
    case BindKind::kIterArg:
      return "a loop iter arg";
    case BindKind::kReturnVar:
      return "a return variable of an if/for/while";
    case BindKind::kSplitVar:
      return "a pl.split_aiv index";
    case BindKind::kDynamicDim:
      return "a dynamic dimension (pl.dynamic)";
  }
  return "?";
}

// ======================================================= pass 1: bindings

void Verifier::Bind(const Var* v, BindKind kind, const Span& at) {
  if (!v) {
    Error(at, "internal IR error: null variable binding; every binding needs a Var");
    return;
  }
  auto [slot, fresh] = vars_.Insert(v);
  VarInfo& info = *slot;
  if (fresh) {
    info.kind = kind;
    info.func = cur_func_index_;
    info.def_span = &at;
    info.assigns = kind == BindKind::kAssign ? 1 : 0;
    return;
  }
  if (info.func != cur_func_index_ && info.kind != BindKind::kDynamicDim) {
    Error(at, fmt::format("'{}' is bound in both function '{}' and function '{}'; a variable "
                          "belongs to one function (use a fresh variable)",
                          v->name_hint, FuncName(info.func), FuncName(cur_func_index_)));
    return;
  }
  if (kind == BindKind::kAssign && info.kind == BindKind::kAssign) {
    ++info.assigns;
    if (opts_.ssa) {
      Error(at, fmt::format("'{}' is defined more than once (SSA form required after "
                            "convert-to-ssa)",
                            v->name_hint));
      Note(*info.def_span, fmt::format("'{}' was first defined here", v->name_hint));
    }
    return;
  }
  if (kind == BindKind::kAssign) {
    Error(at, fmt::format("cannot assign to '{}': it is {}; assign to a new variable instead",
                          v->name_hint, BindKindName(info.kind)));
    return;
  }
  Error(at, fmt::format("'{}' is defined more than once (already bound as {}); bind a fresh "
                        "variable",
                        v->name_hint, BindKindName(info.kind)));
  Note(*info.def_span, fmt::format("'{}' was first defined here", v->name_hint));
}

void Verifier::CollectStmt(const Stmt* s) {
  if (!s) return;
  switch (s->kind) {
    case NodeKind::kAssignStmt:
      Bind(static_cast<const AssignStmt*>(s)->var, BindKind::kAssign, s->span);
      return;
    case NodeKind::kIfStmt: {
      const auto* x = static_cast<const IfStmt*>(s);
      CollectStmt(x->then_body);
      CollectStmt(x->else_body);
      for (const Var* v : x->return_vars) Bind(v, BindKind::kReturnVar, s->span);
      return;
    }
    case NodeKind::kForStmt: {
      const auto* x = static_cast<const ForStmt*>(s);
      Bind(x->loop_var, BindKind::kLoopVar, s->span);
      for (const IterArg* ia : x->iter_args) Bind(ia, BindKind::kIterArg, s->span);
      CollectStmt(x->body);
      for (const Var* v : x->return_vars) Bind(v, BindKind::kReturnVar, s->span);
      return;
    }
    case NodeKind::kWhileStmt: {
      const auto* x = static_cast<const WhileStmt*>(s);
      for (const IterArg* ia : x->iter_args) Bind(ia, BindKind::kIterArg, s->span);
      CollectStmt(x->body);
      for (const Var* v : x->return_vars) Bind(v, BindKind::kReturnVar, s->span);
      return;
    }
    case NodeKind::kSeqStmt:
      for (const Stmt* c : static_cast<const SeqStmt*>(s)->stmts) CollectStmt(c);
      return;
    case NodeKind::kSplitAivScopeStmt:
      Bind(static_cast<const SplitAivScopeStmt*>(s)->var, BindKind::kSplitVar, s->span);
      CollectStmt(static_cast<const ScopeStmt*>(s)->body);
      return;
    default:
      if (Isa<ScopeStmt>(s)) CollectStmt(static_cast<const ScopeStmt*>(s)->body);
      return;
  }
}

// ======================================================= pass 2: scoping

void Verifier::Define(const Var* v) {
  if (v && in_scope_.Insert(v).second) scope_log_.push_back(v);
}

void Verifier::PopTo(size_t mark) {
  while (scope_log_.size() > mark) {
    in_scope_.Erase(scope_log_.back());
    scope_log_.pop_back();
  }
}

void Verifier::CheckUse(const Var* v) {
  if (in_scope_.Contains(v)) return;
  Span at = UseSpan();
  const VarInfo* info = vars_.Find(v);
  if (info && info->func != cur_func_index_ && info->kind != BindKind::kDynamicDim) {
    Error(at, fmt::format("use of '{}' defined in function '{}'; values cross functions only "
                          "as call arguments",
                          v->name_hint, FuncName(info->func)));
    return;
  }
  Error(at, fmt::format("use of '{}' before its definition", v->name_hint));
  if (info) Note(*info->def_span, fmt::format("'{}' is defined here", v->name_hint));
}

Span Verifier::UseSpan() const {
  for (auto it = span_stack_.rbegin(); it != span_stack_.rend(); ++it)
    if (it->IsKnown()) return *it;
  return cur_func_ ? cur_func_->span : Span{};
}

void Verifier::CheckType(const Type* t) {
  if (!t) return;
  if (const auto* tt = AsTensorTypeLike(t)) {
    for (const Expr* d : tt->shape) CheckExpr(d);
    if (tt->view) {
      for (const Expr* d : tt->view->stride) CheckExpr(d);
      for (const Expr* d : tt->view->valid_shape) CheckExpr(d);
    }
  } else if (const auto* tl = As<TileType>(t)) {
    for (const Expr* d : tl->shape) CheckExpr(d);
    if (tl->view)
      for (const Expr* d : tl->view->valid_shape) CheckExpr(d);
  } else if (const auto* tu = As<TupleType>(t)) {
    for (const Type* x : tu->types) CheckType(x);
  }
}

// A type written by the user (a parameter or return type): its dims obey the
// type rules (type_dims_check.h) besides referring to bound Vars.
void Verifier::CheckDeclaredType(const Type* t) {
  CheckType(t);
  CheckTypeDims(
      t, [&](Span at, std::string msg) { Error(at.IsKnown() ? at : UseSpan(), std::move(msg)); });
}

// Integer arithmetic whose operands are constants must have a value
// (int_fold.h): `4611686018427387904 * 4` overflows, `1 // 0` divides by zero.
// Reported at the innermost failing node only, so once per mistake.
void Verifier::CheckConstantArithmetic(const Expr* e) {
  IntExprFold f = FoldIntExpr(e);
  if (!f.failed() || f.at != e) return;
  Error(e->span.IsKnown() ? e->span : UseSpan(),
        fmt::format("{} in the constant expression {}{}", IntFoldErrorText(f.fold.error),
                    PrintExpr(e),
                    f.fold.error == IntFoldError::kOverflow
                        ? fmt::format(" (the result does not fit in {})", TypeStr(e->type))
                        : ""));
}

void Verifier::CheckAttr(const Attr& a) {
  if (a.kind == Attr::Kind::kExpr) CheckExpr(a.expr);
  for (const Attr& x : a.list) CheckAttr(x);
}

void Verifier::CheckExpr(const Expr* e) {
  if (!e) {
    Error(UseSpan(), "internal IR error: null expression");
    return;
  }
  if (++depth_ > kMaxDepth) {
    if (!depth_reported_)
      Error(UseSpan(),
            fmt::format("expression nested more than {} levels deep; not supported", kMaxDepth));
    depth_reported_ = true;
    --depth_;
    return;
  }
  bool pushed = e->kind != NodeKind::kVar && e->kind != NodeKind::kIterArg;
  if (pushed) span_stack_.push_back(e->span);
  switch (e->kind) {
    case NodeKind::kVar:
    case NodeKind::kIterArg:
      CheckUse(static_cast<const Var*>(e));
      break;
    case NodeKind::kBinaryExpr:
      CheckExpr(static_cast<const BinaryExpr*>(e)->lhs);
      CheckExpr(static_cast<const BinaryExpr*>(e)->rhs);
      CheckConstantArithmetic(e);
      break;
    case NodeKind::kUnaryExpr:
      CheckExpr(static_cast<const UnaryExpr*>(e)->operand);
      CheckConstantArithmetic(e);
      break;
    case NodeKind::kCall: {
      const auto* c = static_cast<const Call*>(e);
      for (const Expr* a : c->args) CheckExpr(a);
      for (const NamedAttr& a : c->kwargs) CheckAttr(a.value);
      for (const NamedAttr& a : c->attrs) CheckAttr(a.value);
      CheckCall(c);
      break;
    }
    case NodeKind::kMakeTuple:
      for (const Expr* x : static_cast<const MakeTuple*>(e)->elements) CheckExpr(x);
      break;
    case NodeKind::kTupleGetItem: {
      const auto* g = static_cast<const TupleGetItem*>(e);
      CheckExpr(g->tuple);
      const auto* tt = g->tuple ? As<TupleType>(g->tuple->type) : nullptr;
      if (g->tuple && (!tt || g->index < 0 || static_cast<size_t>(g->index) >= tt->types.size()))
        Error(UseSpan(), fmt::format("tuple index {} is out of range for {}", g->index,
                                     TypeSpelling(g->tuple->type)));
      break;
    }
    default:
      break;
  }
  if (pushed) span_stack_.pop_back();
  --depth_;
}

// The statement a block ends with (a SeqStmt's last element, recursively).
static const Stmt* TrailingStmt(const Stmt* s) {
  while (const auto* seq = As<SeqStmt>(s)) {
    if (seq->stmts.empty()) return nullptr;
    s = seq->stmts.back();
  }
  return s;
}

const YieldStmt* Verifier::ExpectTrailingYield(const Stmt* body, size_t n, Span at,
                                               const std::string& what) {
  const auto* y = As<YieldStmt>(TrailingStmt(body));
  if (y) allowed_yields_.insert(y);
  if (n == 0) {
    if (y && !y->values.empty())
      Error(y->span, fmt::format("pl.yield_: {} has no results but yields {} value(s); remove "
                                 "the values or add init_values / result variables",
                                 what, y->values.size()));
    return y;
  }
  if (!y) {
    Error(at, fmt::format("{} must end with pl.yield_ of {} value(s)", what, n));
    return nullptr;
  }
  if (y->values.size() != n)
    Error(y->span,
          fmt::format("pl.yield_: {} expects {} value(s), got {}", what, n, y->values.size()));
  return y;
}

void Verifier::CheckYieldTypes(const YieldStmt* y, const std::vector<const Type*>& types,
                               const std::string& what) {
  if (!y || y->values.size() != types.size()) return;
  for (size_t i = 0; i < types.size(); ++i)
    if (y->values[i] && !TypesCompatible(y->values[i]->type, types[i]))
      Error(y->span, fmt::format("pl.yield_: value {} has type {} but {} expects {}", i,
                                 TypeSpelling(y->values[i]->type), what, TypeSpelling(types[i])));
}

void Verifier::CheckStmt(const Stmt* s) {
  if (!s) {
    Error(cur_func_ ? cur_func_->span : Span{}, "internal IR error: null statement");
    return;
  }
  if (++depth_ > kMaxDepth) {
    if (!depth_reported_)
      Error(s->span,
            fmt::format("statements nested more than {} levels deep; not supported", kMaxDepth));
    depth_reported_ = true;
    --depth_;
    return;
  }
  span_stack_.push_back(s->span);
  switch (s->kind) {
    case NodeKind::kAssignStmt: {
      const auto* x = static_cast<const AssignStmt*>(s);
      CheckExpr(x->value);
      if (x->var) {
        CheckType(x->var->type);
        if (x->value && !TypesCompatible(x->value->type, x->var->type))
          Error(s->span, fmt::format("assignment to '{}': value has type {} but the variable "
                                     "is declared {}",
                                     x->var->name_hint, TypeSpelling(x->value->type),
                                     TypeSpelling(x->var->type)));
      }
      Define(x->var);
      break;
    }
    case NodeKind::kEvalStmt:
      CheckExpr(static_cast<const EvalStmt*>(s)->expr);
      break;
    case NodeKind::kReturnStmt:
      CheckReturn(static_cast<const ReturnStmt*>(s));
      break;
    case NodeKind::kYieldStmt: {
      const auto* y = static_cast<const YieldStmt*>(s);
      for (const Expr* v : y->values) CheckExpr(v);
      if (!allowed_yields_.count(y))
        Error(s->span,
              "pl.yield_: only allowed as the last statement of a loop body or an if "
              "branch");
      break;
    }
    case NodeKind::kIfStmt:
      CheckIf(static_cast<const IfStmt*>(s));
      break;
    case NodeKind::kForStmt:
      CheckFor(static_cast<const ForStmt*>(s));
      break;
    case NodeKind::kWhileStmt:
      CheckWhile(static_cast<const WhileStmt*>(s));
      break;
    case NodeKind::kSeqStmt:
      for (const Stmt* c : static_cast<const SeqStmt*>(s)->stmts) CheckStmt(c);
      break;
    case NodeKind::kBreakStmt:
    case NodeKind::kContinueStmt:
      if (loop_depth_ == 0)
        Error(s->span, fmt::format("{}: only allowed inside a loop",
                                   s->kind == NodeKind::kBreakStmt ? "break" : "continue"));
      break;
    case NodeKind::kInCoreScopeStmt: {
      ++incore_scope_depth_;
      CheckScopeAttrs(static_cast<const ScopeStmt*>(s));
      CheckStmt(static_cast<const ScopeStmt*>(s)->body);
      --incore_scope_depth_;
      break;
    }
    case NodeKind::kSpmdScopeStmt:
      CheckExpr(static_cast<const SpmdScopeStmt*>(s)->core_num);
      CheckScopeAttrs(static_cast<const ScopeStmt*>(s));
      CheckStmt(static_cast<const ScopeStmt*>(s)->body);
      break;
    case NodeKind::kSplitAivScopeStmt: {
      const auto* x = static_cast<const SplitAivScopeStmt*>(s);
      CheckScopeAttrs(x);
      bool fresh = x->var && !in_scope_.Contains(x->var);
      Define(x->var);
      CheckStmt(x->body);
      if (fresh) in_scope_.Erase(x->var);  // the index is local to the scope
      break;
    }
    default:
      if (Isa<ScopeStmt>(s)) {
        CheckScopeAttrs(static_cast<const ScopeStmt*>(s));
        CheckStmt(static_cast<const ScopeStmt*>(s)->body);
      }
      break;
  }
  span_stack_.pop_back();
  --depth_;
}

void Verifier::CheckScopeAttrs(const ScopeStmt* s) {
  for (const NamedAttr& a : s->attrs) CheckAttr(a.value);
}

void Verifier::CheckIf(const IfStmt* s) {
  CheckExpr(s->cond);
  if (s->cond) {
    const auto* st = As<ScalarType>(s->cond->type);
    if (!st)
      Error(s->span,
            fmt::format("if: condition must be a scalar, got {}", TypeSpelling(s->cond->type)));
  }
  size_t n = s->return_vars.size();
  std::vector<const Type*> types;
  for (const Var* v : s->return_vars) types.push_back(v ? v->type : nullptr);
  const YieldStmt* ty = ExpectTrailingYield(s->then_body, n, s->span, "the then-branch of this if");
  CheckYieldTypes(ty, types, "the if result");
  if (n > 0 && !s->else_body) {
    Error(s->span, fmt::format("if: has {} result(s) but no else branch; both branches must end "
                               "with pl.yield_ of {} value(s)",
                               n, n));
  } else if (s->else_body) {
    const YieldStmt* ey =
        ExpectTrailingYield(s->else_body, n, s->span, "the else-branch of this if");
    CheckYieldTypes(ey, types, "the if result");
  }
  // Branch bodies are blocks; before SSA, vars assigned in both branches escape.
  size_t mark = scope_log_.size();
  CheckStmt(s->then_body);
  std::vector<const Var*> then_defs(scope_log_.begin() + mark, scope_log_.end());
  PopTo(mark);
  std::vector<const Var*> else_defs;
  if (s->else_body) {
    CheckStmt(s->else_body);
    else_defs.assign(scope_log_.begin() + mark, scope_log_.end());
    PopTo(mark);
  }
  if (!opts_.ssa && !else_defs.empty()) {
    std::unordered_set<const Var*> in_else(else_defs.begin(), else_defs.end());
    for (const Var* v : then_defs)
      if (in_else.count(v)) Define(v);
  }
  for (const Var* v : s->return_vars) {
    if (v) CheckType(v->type);
    Define(v);
  }
}

void Verifier::CheckLoopCarried(const std::vector<const IterArg*>& ias,
                                const std::vector<const Var*>& rvs, const Stmt* body, Span at,
                                const char* what) {
  if (!rvs.empty() && rvs.size() != ias.size())
    Error(at, fmt::format("{}: has {} iter arg(s) but {} result variable(s); they must match", what,
                          ias.size(), rvs.size()));
  std::vector<const Type*> types;
  for (const IterArg* ia : ias) types.push_back(ia ? ia->type : nullptr);
  const YieldStmt* y =
      ExpectTrailingYield(body, ias.size(), at, fmt::format("the body of this {}", what));
  CheckYieldTypes(y, types, "the iter arg");
  for (size_t i = 0; i < ias.size() && i < rvs.size(); ++i)
    if (ias[i] && rvs[i] && !TypesCompatible(ias[i]->type, rvs[i]->type))
      Error(at, fmt::format("{}: result '{}' has type {} but iter arg '{}' has type {}", what,
                            rvs[i]->name_hint, TypeSpelling(rvs[i]->type), ias[i]->name_hint,
                            TypeSpelling(ias[i]->type)));
}

void Verifier::CheckIterInits(const std::vector<const IterArg*>& ias) {
  for (const IterArg* ia : ias) {
    if (!ia) continue;
    if (!ia->init) {
      Error(UseSpan(), fmt::format("iter arg '{}' has no initial value", ia->name_hint));
      continue;
    }
    CheckExpr(ia->init);
    if (!TypesCompatible(ia->init->type, ia->type))
      Error(UseSpan(),
            fmt::format("iter arg '{}' has type {} but its initial value has type {}",
                        ia->name_hint, TypeSpelling(ia->type), TypeSpelling(ia->init->type)));
  }
}

void Verifier::CheckFor(const ForStmt* s) {
  CheckExpr(s->start);
  CheckExpr(s->stop);
  CheckExpr(s->step);
  for (const NamedAttr& a : s->attrs) CheckAttr(a.value);
  CheckIterInits(s->iter_args);
  CheckLoopCarried(s->iter_args, s->return_vars, s->body, s->span, "for");
  size_t mark = scope_log_.size();
  Define(s->loop_var);
  for (const IterArg* ia : s->iter_args) Define(ia);
  ++loop_depth_;
  CheckStmt(s->body);
  --loop_depth_;
  PopTo(mark);
  for (const Var* v : s->return_vars) Define(v);
}

void Verifier::CheckWhile(const WhileStmt* s) {
  CheckIterInits(s->iter_args);
  CheckLoopCarried(s->iter_args, s->return_vars, s->body, s->span, "while");
  size_t mark = scope_log_.size();
  for (const IterArg* ia : s->iter_args) Define(ia);
  CheckExpr(s->cond);
  ++loop_depth_;
  CheckStmt(s->body);
  --loop_depth_;
  PopTo(mark);
  for (const Var* v : s->return_vars) Define(v);
}

void Verifier::CheckReturn(const ReturnStmt* s) {
  for (const Expr* v : s->values) CheckExpr(v);
  const auto& rts = cur_func_->return_types;
  if (s->values.size() != rts.size()) {
    Error(s->span, fmt::format("return: function '{}' returns {} value(s), got {}", cur_func_->name,
                               rts.size(), s->values.size()));
    return;
  }
  for (size_t i = 0; i < rts.size(); ++i)
    if (s->values[i] && !TypesCompatible(s->values[i]->type, rts[i]))
      Error(s->span,
            fmt::format("return: value {} has type {} but function '{}' declares {}", i,
                        TypeSpelling(s->values[i]->type), cur_func_->name, TypeSpelling(rts[i])));
}

// ======================================================= driver

std::string Verifier::FuncName(int index) const {
  if (index < 0 || static_cast<size_t>(index) >= prog_.functions.size()) return "?";
  return prog_.functions[index]->name;
}

void Verifier::Error(Span at, std::string msg) { diag_.Error(at, std::move(msg)); }
void Verifier::Note(Span at, std::string msg) {
  if (at.IsKnown()) diag_.AddNote(at, std::move(msg));
}

// Upper bound of the Vars statement `s` binds (to size the binding table once).
static size_t CountBinders(const Stmt* s) {
  if (!s) return 0;
  switch (s->kind) {
    case NodeKind::kAssignStmt:
      return 1;
    case NodeKind::kSeqStmt: {
      size_t n = 0;
      for (const Stmt* c : static_cast<const SeqStmt*>(s)->stmts) n += CountBinders(c);
      return n;
    }
    case NodeKind::kIfStmt: {
      const auto* x = static_cast<const IfStmt*>(s);
      return x->return_vars.size() + CountBinders(x->then_body) + CountBinders(x->else_body);
    }
    case NodeKind::kForStmt: {
      const auto* x = static_cast<const ForStmt*>(s);
      return 1 + x->iter_args.size() + x->return_vars.size() + CountBinders(x->body);
    }
    case NodeKind::kWhileStmt: {
      const auto* x = static_cast<const WhileStmt*>(s);
      return x->iter_args.size() + x->return_vars.size() + CountBinders(x->body);
    }
    default:
      if (Isa<ScopeStmt>(s)) return 1 + CountBinders(static_cast<const ScopeStmt*>(s)->body);
      return 0;
  }
}

bool Verifier::Run() {
  int before = diag_.ErrorCount();
  size_t binders = prog_.dynamic_dims.size();
  for (const Function* f : prog_.functions)
    if (f) binders += f->params.size() + CountBinders(f->body);
  vars_.Reserve(binders);
  cur_func_index_ = -1;
  for (const Var* d : prog_.dynamic_dims) Bind(d, BindKind::kDynamicDim, prog_.span);
  for (size_t i = 0; i < prog_.functions.size(); ++i) {
    const Function* f = prog_.functions[i];
    if (!f) continue;
    if (!functions_.emplace(f->name, f).second)
      Error(f->span, fmt::format("function '{}' is defined more than once", f->name));
    cur_func_index_ = static_cast<int>(i);
    for (const Var* p : f->params) Bind(p, BindKind::kParam, f->span);
    CollectStmt(f->body);
  }
  for (size_t i = 0; i < prog_.functions.size(); ++i) {
    const Function* f = prog_.functions[i];
    if (!f) {
      Error(prog_.span, "internal IR error: null function");
      continue;
    }
    cur_func_ = f;
    cur_func_index_ = static_cast<int>(i);
    PopTo(0);  // empties in_scope_ in time proportional to its entries
    in_scope_.Clear();
    allowed_yields_.clear();
    span_stack_.clear();
    loop_depth_ = incore_scope_depth_ = 0;
    for (const Var* d : prog_.dynamic_dims) Define(d);
    if (f->param_dirs.size() != f->params.size())
      Error(f->span, fmt::format("function '{}': {} parameter direction(s) for {} parameter(s)",
                                 f->name, f->param_dirs.size(), f->params.size()));
    for (const Var* p : f->params) Define(p);
    span_stack_.push_back(f->span);
    for (const Var* p : f->params)
      if (p) CheckDeclaredType(p->type);
    for (const Type* t : f->return_types) CheckDeclaredType(t);
    span_stack_.pop_back();
    auto* seq = As<SeqStmt>(f->body);
    if (f->IsHostSubWorker() && f->body && !(seq && seq->stmts.empty()))
      Error(f->span, fmt::format("HOST SubWorker function '{}' has an IR body; a SubWorker's body "
                                 "is host Python that the runtime calls, so in IR text it is "
                                 "`...` (decorate the Python function with @pl.function(level="
                                 "pl.Level.HOST, role=pl.Role.SubWorker) in a @pl.program class)",
                                 f->name));
    if (!f->body)
      Error(f->span, fmt::format("function '{}' has no body", f->name));
    else
      CheckStmt(f->body);
    CheckTaskScopes(*f, diag_);
  }
  CheckCallCycles();
  return diag_.ErrorCount() == before;
}

}  // namespace verifier_detail

bool VerifyProgram(Context& ctx, const Program& p, DiagnosticEngine& diag,
                   const VerifyOptions& opts) {
  verifier_detail::Verifier v(ctx, p, diag, opts);
  return v.Run();
}

bool VerifyProgram(Context& ctx, const Program& p, DiagnosticEngine& diag) {
  return VerifyProgram(ctx, p, diag, VerifyOptions{});
}

}  // namespace pypto::ir
