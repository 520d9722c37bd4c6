// Statement lowering: assignments (annotation check, pre-SSA re-assignment,
// tuple unpacking, alloc_window_buffer naming), expression statements, return,
// break/continue, plain while and `x = pl.yield_(...)` joins. Control flow with
// iter-args and the scopes live in control_flow.cc.
#include <fmt/format.h>

#include <algorithm>

#include "lower.h"
#include "pypto/ir/printer.h"
#include "text_names.h"

namespace pypto::ir::parser {

namespace {

bool IsCallTo(const PyExpr* e, std::string_view name) {
  return e && e->kind == EK::kCall && DottedNameIs(e->a, name);
}

// Names of a target: `x` or `a, b` or `(a, b)`; false if anything else.
bool TargetNames(const PyExpr* t, std::vector<const PyExpr*>* out) {
  if (t->kind == EK::kName) {
    out->push_back(t);
    return true;
  }
  if (t->kind != EK::kTuple && t->kind != EK::kList) return false;
  for (const PyExpr* x : t->items) {
    if (x->kind != EK::kName) return false;
    out->push_back(x);
  }
  return true;
}

}  // namespace

const Stmt* Lowerer::LowerBlock(const std::vector<PyStmt*>& body, Span span) {
  std::vector<const Stmt*> out;
  ++block_depth_;
  for (const PyStmt* s : body) {
    if (block_depth_ == 1) CopyParamsAssignedWithin(s, &out);
    LowerStmt(s, &out);
  }
  --block_depth_;
  return ctx_.Make<SeqStmt>(std::move(out), span);
}

void Lowerer::LowerStmt(const PyStmt* s, std::vector<const Stmt*>* out) {
  switch (s->kind) {
    case SK::kExpr: {
      const PyExpr* v = s->value;
      if (v->kind == EK::kString) return;  // docstring
      if (IsCallTo(v, "pl.yield_")) return LowerYield(s, v, out);
      // `...`: the body of a HOST SubWorker (its Python is bound at run time).
      if (v->kind == EK::kEllipsis && cur_fn_ && cur_fn_->IsHostSubWorker() && block_depth_ == 1)
        return;
      if (v->kind != EK::kCall) {
        Error(v->span, "this statement has no effect; expected a call or an assignment");
        return;
      }
      if (const Expr* e = LowerExpr(v)) out->push_back(ctx_.Make<EvalStmt>(e, s->span));
      return;
    }
    case SK::kAssign:
      return LowerAssign(s, out);
    case SK::kAugAssign: {
      if (s->target->kind != EK::kName) {
        Error(s->target->span, "augmented assignment needs a plain name on the left");
        return;
      }
      const Expr* a = LowerExpr(s->target);
      const Expr* b = LowerExpr(s->value);
      if (!a || !b) return;
      const Expr* v = nullptr;
      static const std::pair<const char*, BinaryOp> kOps[] = {
          {"+", BinaryOp::kAdd},    {"-", BinaryOp::kSub},       {"*", BinaryOp::kMul},
          {"/", BinaryOp::kDiv},    {"//", BinaryOp::kFloorDiv}, {"%", BinaryOp::kFloorMod},
          {"**", BinaryOp::kPow},   {"&", BinaryOp::kBitAnd},    {"|", BinaryOp::kBitOr},
          {"^", BinaryOp::kBitXor}, {"<<", BinaryOp::kShl},      {">>", BinaryOp::kShr}};
      if (!Isa<ScalarType>(a->type)) {
        // `x += t` on a tile / tensor: the element-wise op that means `+` on scalars.
        for (const auto& [o, bop] : kOps)
          if (const OpDef* ew = ElementwiseByScalarOp(bop); ew && s->op == o)
            v = DispatchByKind(std::string(ew->ShortName()), {a, b}, nullptr, s->span,
                               {UseSpan(s->target), UseSpan(s->value)});
        if (!v) {
          if (!diag_.HasErrors()) Error(s->span, "unsupported augmented assignment");
          return;
        }
      } else {
        for (const auto& [o, bop] : kOps)
          if (s->op == o) v = MakeBinary(bop, a, b, s->span, false);
      }
      if (v) BindAssign(s->target->str, s->target->span, nullptr, v, s->span, out);
      return;
    }
    case SK::kReturn: {
      std::vector<const Expr*> vals;
      bool ok = true;
      if (s->value) {
        std::vector<const PyExpr*> items;
        if (s->value->kind == EK::kTuple)
          items.assign(s->value->items.begin(), s->value->items.end());
        else
          items.push_back(s->value);
        for (const PyExpr* x : items) {
          const Expr* v = LowerExpr(x);
          ok &= v != nullptr;
          vals.push_back(v);
        }
      }
      if (!ok) return;
      FuncEntry& fe = funcs_[func_index_[cur_fn_->name]];
      // `return self.f(...)` of a multi-result call passes every result on:
      // bound to a tuple Var, then returned element by element.
      if (vals.size() == 1 && s->value->kind != EK::kTuple) {
        auto* tt = As<TupleType>(vals[0]->type);
        if (tt && (!fe.returns_declared || cur_fn_->return_types.size() == tt->types.size())) {
          const Var* tmp = ctx_.NewVar("ret_tuple", tt, s->span);
          out->push_back(ctx_.Make<AssignStmt>(tmp, vals[0], s->span));
          vals.clear();
          for (size_t i = 0; i < tt->types.size(); ++i) {
            const Var* item = ctx_.NewVar(fmt::format("ret{}", i), tt->types[i], s->span);
            out->push_back(ctx_.Make<AssignStmt>(
                item, ctx_.Make<TupleGetItem>(tmp, static_cast<int64_t>(i), tt->types[i], s->span),
                s->span));
            vals.push_back(item);
          }
        }
      }
      if (fe.returns_declared && vals.size() != cur_fn_->return_types.size()) {
        Error(s->span, fmt::format("function '{}' declares {} return value{} but this return "
                                   "gives {}",
                                   cur_fn_->name, cur_fn_->return_types.size(),
                                   cur_fn_->return_types.size() == 1 ? "" : "s", vals.size()));
        return;
      }
      if (!fe.returns_declared && !saw_return_) {
        saw_return_ = true;
        for (const Expr* v : vals) inferred_returns_.push_back(v->type);
      }
      out->push_back(ctx_.Make<ReturnStmt>(std::move(vals), s->span));
      return;
    }
    case SK::kPass:
    case SK::kImport:
      if (s->kind == SK::kImport)
        Error(s->span, "import statements are only allowed at module level");
      return;
    case SK::kBreak:
    case SK::kContinue: {
      bool brk = s->kind == SK::kBreak;
      if (loop_depth_ == 0) {
        Error(s->span, fmt::format("'{}' outside a loop", brk ? "break" : "continue"));
        return;
      }
      if (brk)
        out->push_back(ctx_.Make<BreakStmt>(s->span));
      else
        out->push_back(ctx_.Make<ContinueStmt>(s->span));
      return;
    }
    case SK::kIf:
      return LowerIf(s, out);
    case SK::kFor:
      return LowerFor(s, out);
    case SK::kWhile: {
      const Expr* c = LowerScalar(s->value, "while condition");
      YieldTargets* saved = yield_ctx_;
      yield_ctx_ = nullptr;
      ++loop_depth_;
      const Stmt* body = LowerBlock(s->body, s->span);
      --loop_depth_;
      yield_ctx_ = saved;
      if (c)
        out->push_back(ctx_.Make<WhileStmt>(c, std::vector<const IterArg*>{}, body,
                                            std::vector<const Var*>{}, s->span));
      return;
    }
    case SK::kWith:
      return LowerWith(s, out);
    case SK::kDef:
    case SK::kClass:
      Error(s->span, "nested function and class definitions are not supported");
      return;
  }
}

void Lowerer::LowerAssign(const PyStmt* s, std::vector<const Stmt*>* out) {
  if (s->target->kind == EK::kSubscript && LowerArrayElementAssign(s, out)) return;
  std::vector<const PyExpr*> names;
  if (s->target->kind == EK::kSubscript) return LowerSubscriptAssign(s, out);
  if (!TargetNames(s->target, &names)) {
    Error(s->target->span, "can only assign to a name or a tuple of names");
    return;
  }
  for (const PyExpr* n : names) {
    if (text::IsReservedName(n->str)) {
      Error(n->span, fmt::format("'{}' cannot be assigned", n->str));
      return;
    }
  }
  if (IsCallTo(s->value, "pl.yield_")) return LowerYield(s, s->value, out);
  bool single = s->target->kind == EK::kName;
  std::string alloc_lhs;
  if (single && (IsCallTo(s->value, "pld.alloc_window_buffer") ||
                 IsCallTo(s->value, "pld.tensor.alloc_window_buffer"))) {
    alloc_lhs = names[0]->str;
    alloc_name_ = &alloc_lhs;
  }
  const Expr* v = LowerArg(s->value);
  alloc_name_ = nullptr;
  if (!v) {
    for (const PyExpr* n : names) Poison(n->str, n->span);
    return;
  }
  if (single)
    return BindAssign(names[0]->str, names[0]->span, s->annotation, v, s->span, out,
                      s->annotation_text, s);
  auto* tt = As<TupleType>(v->type);
  if (!tt || tt->types.size() != names.size()) {
    Error(s->value->span, fmt::format("cannot unpack a value of type {} into {} names",
                                      TypeToString(v->type), names.size()));
    for (const PyExpr* n : names) Poison(n->str, n->span);
    return;
  }
  const Var* tmp = ctx_.NewVar("tuple_tmp", v->type, s->span);
  out->push_back(ctx_.Make<AssignStmt>(tmp, v, s->span));
  for (size_t i = 0; i < names.size(); ++i) {
    const Expr* item = ctx_.Make<TupleGetItem>(tmp, static_cast<int64_t>(i), tt->types[i], s->span);
    BindAssign(names[i]->str, names[i]->span, nullptr, item, s->span, out);
  }
}

void Lowerer::BindAssign(const std::string& name, Span name_span, const PyExpr* annotation,
                         const Expr* value, Span s, std::vector<const Stmt*>* out,
                         std::string_view annotation_text, const PyStmt* ann_stmt) {
  if (!task_ids_.empty() && task_ids_.count(name)) {
    Error(name_span, fmt::format("'{}' is a task id (bound by `with pl.at(...) as {}`); choose "
                                 "another variable name",
                                 name, name));
    return;
  }
  const Type* t = value->type;
  // Fast path: an annotation already known to equal the value's type (t stays
  // the value's type, as below when TypeEq holds).
  if (annotation && !AnnotationMatches(annotation_text, value->type)) {
    if (ann_stmt) annotation = OwnAnnotation(ann_stmt);
    const Type* ann = LowerType(annotation);
    RememberAnnotation(annotation, annotation_text, ann);
    if (!ann) {
      Poison(name, name_span);
      return;
    }
    auto* ta = As<TileType>(ann);
    auto* td = As<TileType>(value->type);
    auto* da = As<DistributedTensorType>(ann);
    auto* dv = As<DistributedTensorType>(value->type);
    if (TypeEq(ann, value->type)) {
      t = value->type;
    } else if (Isa<ScalarType>(ann) && (Isa<ConstInt>(value) || Isa<ConstFloat>(value))) {
      // A literal takes the annotated scalar dtype: `x: pl.Scalar[pl.INT32] = 0`.
      DataType dt = Cast<ScalarType>(ann)->dtype;
      double fv = Isa<ConstInt>(value) ? double(Cast<ConstInt>(value)->value)
                                       : Cast<ConstFloat>(value)->value;
      if (IsFloat(dt))
        value = ctx_.Float(fv, dt, value->span);
      else if (Isa<ConstInt>(value) && dt != DataType::kBool)
        value = ctx_.Int(Cast<ConstInt>(value)->value, dt, value->span);
      else
        value = nullptr;
      if (!value) {
        Error(annotation->span,
              fmt::format("cannot give a float literal the integer type {}", TypeToString(ann)));
        Poison(name, name_span);
        return;
      }
      t = value->type;
    } else if (ta && td && ta->dtype == td->dtype &&
               TypeEq(ctx_.Make<TileType>(ta->shape, ta->dtype),
                      ctx_.Make<TileType>(td->shape, td->dtype)) &&
               (!ta->memory_space || !td->memory_space || ta->memory_space == td->memory_space) &&
               (!ta->view || !td->view ||
                TypeEq(ctx_.Make<TileType>(ta->shape, ta->dtype, std::nullopt, ta->view),
                       ctx_.Make<TileType>(td->shape, td->dtype, std::nullopt, td->view)))) {
      // Tile annotations may omit (or add) the memory space and view.
      auto merged = ctx_.Make<TileType>(td->shape, td->dtype,
                                        ta->memory_space ? ta->memory_space : td->memory_space,
                                        ta->view ? ta->view : td->view);
      t = TypeEq(merged, td) ? td : static_cast<const Type*>(merged);
    } else if (da && dv && !da->window_buffer.empty() && dv->window_buffer.empty() &&
               TypeEq(ctx_.Make<DistributedTensorType>(da->shape, da->dtype, da->view), dv)) {
      // A window view annotation may add its window binding (the printed form
      // of a view after materialize-comm-domain-scopes: `"window_buffer=buf"`).
      t = ann;
    } else {
      Error(annotation->span,
            fmt::format("type annotation of '{}' does not match its value: annotated {}, but "
                        "the value has type {}",
                        name, TypeToString(ann), TypeToString(value->type)));
      Poison(name, name_span);
      return;
    }
  }
  // Pre-SSA re-assignment: the same name with the same type is the same Var.
  const Var* var = nullptr;
  // The name's scope entry, looked up (or made) once and set below: Bind(name, var).
  auto [slot, fresh_name] = scope_.try_emplace(name, nullptr);
  const Var* prev = fresh_name ? nullptr : slot->second;
  // Parameters are never re-bound: `out = pl.store(t, [0, 0], out)` makes a new
  // Var (inside a block the name already names a copy: CopyParamsAssignedWithin).
  bool is_param = prev && std::find(cur_fn_->params.begin(), cur_fn_->params.end(), prev) !=
                              cur_fn_->params.end();
  if (prev && Isa<Var>(prev) && !is_param && !poisoned_.count(prev) && SameValueType(prev->type, t))
    var = prev;
  if (!var) var = ctx_.NewVar(name, t, name_span);
  out->push_back(ctx_.Make<AssignStmt>(var, value, s));
  slot->second = var;
}

// Names assigned anywhere inside `s`'s nested blocks, in source order.
static void NestedAssignTargets(const PyStmt* s, bool nested, std::vector<const PyExpr*>* out) {
  if (nested && (s->kind == SK::kAssign || s->kind == SK::kAugAssign)) {
    if (s->target->kind == EK::kSubscript && s->target->a->kind == EK::kName)
      out->push_back(s->target->a);  // `x[a:b] = v` re-binds x (subscript_assign.cc)
    else
      TargetNames(s->target, out);
  }
  for (const PyStmt* c : s->body) NestedAssignTargets(c, true, out);
  for (const PyStmt* c : s->orelse) NestedAssignTargets(c, true, out);
}

// Python lets a block re-assign a parameter and use the new value after the
// block (`for i ...: out = pl.store(t, [i, 0], out)` then `return out`). Our
// IR never re-binds a parameter, so before a top-level statement whose blocks
// assign one, the parameter is copied into a fresh Var (`out_1 = out`) that
// the name then denotes; the blocks re-assign the copy and convert-to-ssa
// carries it through loops and branches like any other variable.
void Lowerer::CopyParamsAssignedWithin(const PyStmt* s, std::vector<const Stmt*>* out) {
  if (s->kind != SK::kIf && s->kind != SK::kFor && s->kind != SK::kWhile && s->kind != SK::kWith)
    return;
  std::vector<const PyExpr*> targets;
  NestedAssignTargets(s, false, &targets);
  for (const PyExpr* t : targets) {
    auto it = scope_.find(t->str);
    if (it == scope_.end() || !Isa<Var>(it->second) || poisoned_.count(it->second)) continue;
    const Var* param = it->second;
    if (std::find(cur_fn_->params.begin(), cur_fn_->params.end(), param) == cur_fn_->params.end())
      continue;
    const Var* copy = ctx_.NewVar(t->str, param->type, t->span);
    out->push_back(ctx_.Make<AssignStmt>(copy, param, t->span));
    Bind(t->str, copy);
  }
}

// Whether a re-assigned name keeps its Var: the same type, where a tile's
// memory space may be unset on one side (`acc = pl.load(...)` is retargetable
// until infer-tile-memory-space; `acc = pl.add(acc, t)` is Vec).
bool Lowerer::SameValueType(const Type* old_type, const Type* new_type) {
  if (TypeEq(old_type, new_type)) return true;
  const auto* a = As<TileType>(old_type);
  const auto* b = As<TileType>(new_type);
  if (!a || !b || a->dtype != b->dtype) return false;
  if (a->memory_space && b->memory_space && *a->memory_space != *b->memory_space) return false;
  return TypeEq(ctx_.Make<TileType>(a->shape, a->dtype, std::nullopt, a->view),
                ctx_.Make<TileType>(b->shape, b->dtype, std::nullopt, b->view));
}

void Lowerer::LowerYield(const PyStmt* s, const PyExpr* call, std::vector<const Stmt*>* out) {
  std::vector<const PyExpr*> names;
  if (s->kind == SK::kAssign) TargetNames(s->target, &names);
  if (!call->kwargs.empty()) {
    Error(call->kwargs[0].span, "pl.yield_ takes positional values only");
    return;
  }
  std::vector<const Expr*> vals;
  bool ok = true;
  for (const PyExpr* a : call->items) {
    const Expr* v = LowerExpr(a);
    ok &= v != nullptr;
    vals.push_back(v);
  }
  if (!names.empty()) {
    if (!yield_ctx_) {
      Error(s->span,
            "`x = pl.yield_(...)` is only allowed directly in an if/else branch or a "
            "loop body");
      ok = false;
    } else if (yield_ctx_->found) {
      Error(s->span, "a block may contain only one `= pl.yield_(...)`");
      ok = false;
    } else if (names.size() != vals.size()) {
      Error(s->span, fmt::format("pl.yield_ gives {} value{} but {} name{} assigned", vals.size(),
                                 vals.size() == 1 ? "" : "s", names.size(),
                                 names.size() == 1 ? " is" : "s are"));
      ok = false;
    }
    if (ok) {
      YieldTargets& yt = *yield_ctx_;
      yt.found = true;
      yt.span = s->span;
      for (size_t i = 0; i < names.size(); ++i) {
        yt.names.push_back(names[i]->str);
        yt.spans.push_back(names[i]->span);
        const Type* t = vals[i]->type;
        if (s->annotation && names.size() == 1) {
          const PyExpr* annotation = OwnAnnotation(s);
          const Type* ann = LowerType(annotation);
          if (!ann) {
            ok = false;
          } else if (!TypeEq(ann, t) && !(Isa<TileType>(ann) && Isa<TileType>(t))) {
            Error(annotation->span,
                  fmt::format("type annotation of '{}' does not match the yielded value: "
                              "annotated {}, but the value has type {}",
                              names[i]->str, TypeToString(ann), TypeToString(t)));
            ok = false;
          } else {
            t = ann;
          }
        }
        yt.types.push_back(t);
      }
    } else if (yield_ctx_ && !yield_ctx_->found) {
      yield_ctx_->found = true;  // keep the join from reporting a second error
      for (const PyExpr* n : names) {
        yield_ctx_->names.push_back(n->str);
        yield_ctx_->spans.push_back(n->span);
        yield_ctx_->types.push_back(ctx_.Unknown());
      }
    }
  }
  if (ok) out->push_back(ctx_.Make<YieldStmt>(std::move(vals), s->span));
}

std::vector<const Var*> Lowerer::MakeReturnVars(const YieldTargets& yt) {
  std::vector<const Var*> rv;
  for (size_t i = 0; i < yt.names.size(); ++i) {
    const Var* v = ctx_.NewVar(yt.names[i], yt.types[i], yt.spans[i]);
    if (Isa<UnknownType>(yt.types[i])) poisoned_.insert(v);
    rv.push_back(v);
  }
  return rv;
}

const PyExpr* Lowerer::OwnAnnotation(const PyStmt* s) {
  if (!s->ann_shared) return s->annotation;
  return CopyShifted(s->annotation, s->ann_shift_line, s->ann_shift_col);
}

// A deep copy of `e` whose spans are moved by (dline, dcol); the tree is a
// one-line annotation no deeper than kMaxExprDepth.
PyExpr* Lowerer::CopyShifted(const PyExpr* e, int32_t dline, int32_t dcol) {
  if (!e) return nullptr;
  PyExpr* c = body_pool_.exprs.New();
  *c = *e;
  auto shift = [&](Span sp) {
    if (sp.IsKnown()) {
      sp.line += dline;
      sp.col += dcol;
    }
    return sp;
  };
  c->span = shift(e->span);
  c->a = CopyShifted(e->a, dline, dcol);
  c->b = CopyShifted(e->b, dline, dcol);
  c->c = CopyShifted(e->c, dline, dcol);
  for (PyExpr*& x : c->items) x = CopyShifted(x, dline, dcol);
  for (PyExpr*& x : c->values) x = CopyShifted(x, dline, dcol);
  for (Keyword& k : c->kwargs) {
    k.span = shift(k.span);
    k.value = CopyShifted(k.value, dline, dcol);
  }
  return c;
}

}  // namespace pypto::ir::parser
