// PtoFunctionEmitter, part 3: one kernel function -> one func.func. Builds the
// signature (tensor-like params first, then scalars in IR order, then one index
// per dynamic shape symbol, then hidden params), the prologue (hoisted constants,
// tensor views, tile allocations) and the body (statements, scf control flow,
// op dispatch through the op table). Sections are written to separate writers
// and stitched together so constants can be hoisted in first-use order.
#include "pypto/codegen/pto_function_emitter.h"

#include <fmt/format.h>

#include "pypto/ir/casting.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/visitor.h"
#include "pypto/ops/ops.h"

namespace pypto::codegen {

using namespace pypto::ir;

PtoFunctionEmitter::PtoFunctionEmitter(Context& ctx, const Program& prog, const Function& fn,
                                       const PtoOptions& opts, std::string target_arch,
                                       DiagnosticEngine& diag)
    : ctx_(ctx), prog_(prog), fn_(fn), opts_(opts), arch_(std::move(target_arch)), diag_(diag) {}

// Vars referenced by a shape expression, in order of first appearance.
static void CollectVars(const Expr* e, std::vector<const Var*>* out) {
  if (!e) return;
  if (const Var* v = AsVarLike(e)) {
    for (const Var* x : *out)
      if (x == v) return;
    out->push_back(v);
  } else if (auto* b = As<BinaryExpr>(e)) {
    CollectVars(b->lhs, out);
    CollectVars(b->rhs, out);
  } else if (auto* u = As<UnaryExpr>(e)) {
    CollectVars(u->operand, out);
  }
}

bool PtoFunctionEmitter::EmitSignature() {
  std::vector<const Var*> tensors, scalars, dists, ctxs;
  for (const Var* p : fn_.params) {
    if (AsTensorTypeLike(p->type)) {
      tensors.push_back(p);
      if (Isa<DistributedTensorType>(p->type)) dists.push_back(p);
    } else if (Isa<ScalarType>(p->type)) {
      scalars.push_back(p);
    } else if (Isa<CommCtxType>(p->type)) {
      scalars.push_back(p);
      ctxs.push_back(p);
    } else {
      Error(p->span.IsKnown() ? p->span : fn_.span,
            fmt::format("{}: parameter '{}' of type {} cannot be passed to a PTO kernel", fn_.name,
                        p->name_hint, TypeStr(p->type)));
    }
  }
  if (dists.size() != ctxs.size()) {
    Error(fn_.span, fmt::format("{}: kernel has {} DistributedTensor parameter(s) but {} CommCtx "
                                "parameter(s); run materialize-dist-tensor-ctx before PTO emission",
                                fn_.name, dists.size(), ctxs.size()));
  }
  // Dynamic shape symbols: Vars in tensor param types that are not params.
  std::vector<const Var*> dyn;
  for (const Var* p : tensors) {
    const TensorType* tt = AsTensorTypeLike(p->type);
    std::vector<const Var*> vs;
    for (const Expr* d : tt->shape) CollectVars(d, &vs);
    if (tt->view) {
      for (const Expr* d : tt->view->stride) CollectVars(d, &vs);
      for (const Expr* d : tt->view->valid_shape) CollectVars(d, &vs);
    }
    for (const Var* v : vs) {
      bool is_param = false;
      for (const Var* q : fn_.params) is_param |= q == v;
      bool seen = false;
      for (const Var* q : dyn) seen |= q == v;
      if (!is_param && !seen) dyn.push_back(v);
    }
  }
  int k = 0;
  auto arg = [&]() {
    std::string n = fmt::format("%arg{}", k++);
    used_names_.insert(n);
    return n;
  };
  for (const Var* p : tensors) {
    auto t = std::make_unique<PtoTensor>();
    t->param = p;
    t->type = AsTensorTypeLike(p->type);
    t->distributed = Isa<DistributedTensorType>(p->type);
    t->name = p->name_hint;
    t->ptr = arg();
    t->ptr_type = fmt::format("!pto.ptr<{}>", MlirScalarType(t->type->dtype));
    sig_args_.push_back(fmt::format("{}: {}", t->ptr, t->ptr_type));
    PtoBinding b;
    b.kind = PtoBinding::Kind::kTensor;
    b.tensor = t.get();
    Bind(p, b);
    tensors_.push_back(std::move(t));
  }
  for (const Var* p : scalars) {
    PtoBinding b;
    std::string n = arg();
    if (Isa<CommCtxType>(p->type)) {
      b.kind = PtoBinding::Kind::kCtx;
      b.value = {n, "!pto.ptr<i64>"};
    } else {
      b.kind = PtoBinding::Kind::kScalar;
      b.value = {n, MlirScalarType(Cast<ScalarType>(p->type)->dtype)};
    }
    sig_args_.push_back(fmt::format("{}: {}", n, b.value.type));
    Bind(p, b);
  }
  for (const Var* v : dyn) {
    PtoBinding b;
    b.kind = PtoBinding::Kind::kScalar;
    b.value = {arg(), "index"};
    sig_args_.push_back(fmt::format("{}: index", b.value.name));
    Bind(v, b);
  }
  size_t di = 0;
  for (auto& t : tensors_) {
    if (!t->distributed) continue;
    if (di < ctxs.size()) t->ctx = bindings_[ctxs[di]].value.name;
    ++di;
  }
  used_names_.insert("%__pypto_deferred_raw_args");
  return !failed_;
}

namespace {
// Variables whose tile is resized by tile.set_validshape (looking through plain
// variable copies is not needed: the op's first argument names the buffer), and
// every loop-carried or if-merged tile that may hold the same value (groups: a
// loop's iter_arg, its result and what its body yields; an if's result and what
// its branches yield). Carried tiles (iter_args, loop and if results) have no
// single buffer to retype, so each one in a resized group is typed dynamic-valid
// (v_row=?, v_col=?) from the start; buffers yielded into it are retyped.
class ResizedTiles : public IRVisitor {
 public:
  std::set<const Var*>* out;
  void Visit_Call(const Call* c) override {
    if (c->Is(ops::kTileSetValidshape) && !c->args.empty())
      if (const Var* v = AsVarLike(c->args[0])) out->insert(v);
    IRVisitor::Visit_Call(c);
  }
  void Visit_ForStmt(const ForStmt* s) override {
    Loop(s->iter_args, s->return_vars, s->body);
    IRVisitor::Visit_ForStmt(s);
  }
  void Visit_WhileStmt(const WhileStmt* s) override {
    Loop(s->iter_args, s->return_vars, s->body);
    IRVisitor::Visit_WhileStmt(s);
  }
  void Visit_IfStmt(const IfStmt* s) override {
    const YieldStmt* a = TrailingYield(s->then_body);
    const YieldStmt* b = TrailingYield(s->else_body);
    for (size_t i = 0; i < s->return_vars.size(); ++i) {
      groups_.push_back({s->return_vars[i], Yielded(a, i), Yielded(b, i)});
      carried_.insert(s->return_vars[i]);
    }
    IRVisitor::Visit_IfStmt(s);
  }
  // Closes `out` over the groups (a member resized: every member is).
  void Close() {
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& g : groups_) {
        bool any = false;
        for (const Var* v : g) any |= v && out->count(v);
        if (!any) continue;
        for (const Var* v : g)
          if (v && carried_.count(v) && Isa<TileType>(v->type) && out->insert(v).second)
            grew = true;
      }
    }
  }

 private:
  static const YieldStmt* TrailingYield(const Stmt* s) {
    if (const auto* seq = As<SeqStmt>(s))
      return seq->stmts.empty() ? nullptr : TrailingYield(seq->stmts.back());
    return As<YieldStmt>(s);
  }
  static const Var* Yielded(const YieldStmt* y, size_t i) {
    return y && i < y->values.size() ? AsVarLike(y->values[i]) : nullptr;
  }
  void Loop(const std::vector<const IterArg*>& ias, const std::vector<const Var*>& rvs,
            const Stmt* body) {
    const YieldStmt* y = TrailingYield(body);
    for (size_t i = 0; i < ias.size(); ++i) {
      const Var* rv = i < rvs.size() ? rvs[i] : nullptr;
      groups_.push_back({ias[i], rv, Yielded(y, i)});
      carried_.insert(ias[i]);
      if (rv) carried_.insert(rv);
    }
  }
  std::vector<std::vector<const Var*>> groups_;
  std::set<const Var*> carried_;
};
}  // namespace

bool PtoFunctionEmitter::Emit(PtoWriter& out) {
  if (!EmitSignature()) return false;
  ResizedTiles rt;
  rt.out = &resized_tiles_;
  rt.VisitStmt(fn_.body);
  rt.Close();
  cur_ = &views_;
  for (auto& t : tensors_)
    if (!EmitTensorView(*t)) return false;
  cur_ = &body_;
  EmitStmt(fn_.body);
  if (failed_) return false;
  body_.Line("return");

  std::vector<std::string> args = sig_args_;
  if (uses_deferred_) args.push_back("%__pypto_deferred_raw_args: !pto.ptr<i64>");
  std::string_view kind = fn_.func_type == FunctionType::kAIC ? "cube" : "vector";
  out.Linef("func.func @{}({}) attributes {{pto.kernel_kind = #pto.kernel_kind<{}>}} {{", fn_.name,
            fmt::join(args, ", "), kind);
  out.Raw(consts_.str());
  out.Raw(views_.str());
  out.Raw(allocs_.str());
  out.Raw(body_.str());
  out.Line("}");
  return true;
}

// ---- statements -------------------------------------------------------------------

bool PtoFunctionEmitter::Carried(const Type* t) const {
  return Isa<ScalarType>(t) || Isa<TileType>(t);
}

// A tile carried by a loop or merged by an if is one SSA value on every path,
// and ptoas types are exact, but the IR lets the paths differ in pad (a fillpad
// result with pad=zero enters, a tile.add result with pad=null comes back): the
// carried type always has pad=null, and every buffer flowing in is retyped to it.
static std::string CarriedTileType(std::string type) {
  size_t at = type.rfind(" pad=");
  if (at != std::string::npos) type = type.substr(0, at) + " pad=0>";
  return type;
}

std::optional<std::string> PtoFunctionEmitter::CarriedType(const Expr* e, Span at) {
  if (const auto* st = As<ScalarType>(e->type)) return MlirScalarType(st->dtype);
  if (const Var* v = AsVarLike(e); v && resized_tiles_.count(v))
    if (const auto* tt = As<TileType>(e->type)) {
      auto ty = TileBufType(tt, at, /*dynamic_valid=*/true);
      if (ty) return CarriedTileType(*ty);
      return std::nullopt;
    }
  if (const PtoBinding* b = Lookup(e); b && b->kind == PtoBinding::Kind::kTile)
    return CarriedTileType(b->value.type);
  if (const auto* tt = As<TileType>(e->type)) {
    auto ty = TileBufType(tt, at);
    if (ty) return CarriedTileType(*ty);
  }
  return std::nullopt;
}

void PtoFunctionEmitter::EmitStmt(const Stmt* s) {
  if (!s || failed_) return;
  Span saved = cur_span_;
  if (s->span.IsKnown()) cur_span_ = s->span;
  switch (s->kind) {
    case NodeKind::kSeqStmt:
      for (const Stmt* c : static_cast<const SeqStmt*>(s)->stmts) {
        EmitStmt(c);
        if (failed_) break;
      }
      break;
    case NodeKind::kAssignStmt:
      EmitAssign(static_cast<const AssignStmt*>(s));
      break;
    case NodeKind::kEvalStmt: {
      const auto* call = As<Call>(static_cast<const EvalStmt*>(s)->expr);
      if (!call) {
        Error(s->span, "expression statement not supported by the PTO backend");
        break;
      }
      EmitCall(call, nullptr);
      break;
    }
    case NodeKind::kForStmt:
      EmitFor(static_cast<const ForStmt*>(s));
      break;
    case NodeKind::kIfStmt:
      EmitIf(static_cast<const IfStmt*>(s));
      break;
    case NodeKind::kWhileStmt:
      EmitWhile(static_cast<const WhileStmt*>(s));
      break;
    case NodeKind::kYieldStmt:
      EmitYield(static_cast<const YieldStmt*>(s), "scf.yield");
      break;
    case NodeKind::kReturnStmt:
      if (!frames_.empty()) {
        Error(s->span, "return inside control flow is not supported by the PTO backend");
        break;
      }
      for (const Expr* v : static_cast<const ReturnStmt*>(s)->values) {
        const PtoBinding* b = Lookup(v);
        if (!b || b->kind != PtoBinding::Kind::kTensor) {
          Error(v->span.IsKnown() ? v->span : s->span,
                "kernel return values other than tensor parameters are not supported by the "
                "PTO backend");
          break;
        }
      }
      break;
    case NodeKind::kBreakStmt:
      Error(s->span, "break: not supported by the PTO backend");
      break;
    case NodeKind::kContinueStmt:
      Error(s->span, "continue: not supported by the PTO backend");
      break;
    default:
      Error(s->span, fmt::format("{}: not supported by the PTO backend; outline scopes into "
                                 "kernels (the default pipeline) before PTO emission",
                                 NodeKindName(s->kind)));
      break;
  }
  cur_span_ = saved;
}

void PtoFunctionEmitter::EmitAssign(const AssignStmt* s) {
  const Expr* e = s->value;
  if (const auto* call = As<Call>(e)) {
    if (call->span.IsKnown()) cur_span_ = call->span;
    EmitCall(call, s->var);
    return;
  }
  if (AsVarLike(e)) {
    const PtoBinding* b = Lookup(e);
    if (!b) {
      Error(s->span, fmt::format("'{}': value not available in PTO code",
                                 static_cast<const Var*>(e)->name_hint));
      return;
    }
    PtoBinding copy = *b;
    Bind(s->var, copy);
    return;
  }
  if (!Isa<ScalarType>(s->var->type)) {
    Error(s->span,
          fmt::format("{}: expression not supported by the PTO backend", NodeKindName(e->kind)));
    return;
  }
  PtoValue v = Value(e);
  if (!v.ok()) return;
  PtoBinding b;
  b.kind = PtoBinding::Kind::kScalar;
  b.value = CastTo(v, MlirScalarType(Cast<ScalarType>(s->var->type)->dtype));
  Bind(s->var, b);
}

void PtoFunctionEmitter::EmitCall(const Call* c, const Var* result) {
  if (!c->op) {
    Error(c->span, fmt::format("self.{}: calling a function from a kernel is not supported by "
                               "the PTO backend",
                               c->callee));
    return;
  }
  const PtoOpEntry& entry = GetPtoOpTable()[c->op->handle];
  if (!entry.emit) {
    Error(c->span, fmt::format("{}: not supported by the PTO backend", c->op->name));
    std::string_view hint = PtoUnsupportedHint(entry.unsupported);
    if (!hint.empty()) diag_.AddNote(c->span, std::string(hint));
    return;
  }
  if (c->args.size() < c->op->min_args || c->args.size() > c->op->args.size()) {
    Error(c->span, fmt::format("{}: expected {} to {} arguments, got {}", c->op->name,
                               c->op->min_args, c->op->args.size(), c->args.size()));
    return;
  }
  Span saved = cur_span_;
  if (c->span.IsKnown()) cur_span_ = c->span;
  if (!entry.emit(*this, c, result)) failed_ = true;
  cur_span_ = saved;
}

void PtoFunctionEmitter::EmitYield(const YieldStmt* s, std::string_view op) {
  if (frames_.empty()) {
    Error(s->span, "yield outside of a loop or if");
    return;
  }
  Frame& f = frames_.back();
  if (s->values.size() != f.carried.size()) {
    Error(s->span, fmt::format("yield of {} values where {} are expected", s->values.size(),
                               f.carried.size()));
    return;
  }
  std::vector<std::string> names, types;
  f.yielded.clear();
  for (size_t i = 0; i < s->values.size(); ++i) {
    const PtoBinding* b = Lookup(s->values[i]);
    f.yielded.push_back(b ? *b : PtoBinding{});
    if (!f.carried[i]) continue;
    if (f.types[i].rfind("!pto.tile_buf", 0) == 0) {
      if (!b || b->kind != PtoBinding::Kind::kTile) {
        Error(s->span, "yielded tile is not available in PTO code");
        return;
      }
      auto typed = RetypeTile(*b, f.types[i], s->span);
      if (!typed) return;
      names.push_back(typed->value.name);
    } else {
      PtoValue v = CastTo(Value(s->values[i]), f.types[i]);
      if (!v.ok()) return;
      names.push_back(v.name);
    }
    types.push_back(f.types[i]);
  }
  if (names.empty()) return;
  Op(fmt::format("{} {} : {}", op, fmt::join(names, ", "), fmt::join(types, ", ")));
}

// Binds the results of an scf op: carried ones to `res`, `res#i`, aliased ones
// (tensors) to what the region yielded (or the init for loops).
void PtoFunctionEmitter::BindResults(const std::vector<const Var*>& rvs, const Frame& f,
                                     const std::string& res, size_t n_carried,
                                     const std::vector<PtoBinding>& aliases) {
  size_t ci = 0;
  for (size_t i = 0; i < rvs.size() && i < f.carried.size(); ++i) {
    PtoBinding b;
    if (f.carried[i]) {
      bool tile = f.types[i].rfind("!pto.tile_buf", 0) == 0;
      b.kind = tile ? PtoBinding::Kind::kTile : PtoBinding::Kind::kScalar;
      b.value = {n_carried == 1 ? res : fmt::format("{}#{}", res, ci), f.types[i]};
      b.carried = tile;
      if (i < f.addrs.size()) b.addr = f.addrs[i];
      ++ci;
    } else if (i < aliases.size()) {
      b = aliases[i];
    }
    Bind(rvs[i], b);
  }
}

void PtoFunctionEmitter::EmitFor(const ForStmt* s) {
  std::string lb = AsIndex(s->start), ub = AsIndex(s->stop), st = AsIndex(s->step);
  if (lb.empty() || ub.empty() || st.empty()) return;
  Frame f;
  std::vector<std::string> inits;
  std::vector<PtoBinding> aliases;
  for (const IterArg* ia : s->iter_args) {
    bool carried = Carried(ia->type);
    f.carried.push_back(carried);
    const PtoBinding* ib = Lookup(ia->init);
    aliases.push_back(ib ? *ib : PtoBinding{});
    if (!carried) {
      f.types.push_back("");
      if (!ib) {
        Error(s->span,
              fmt::format("loop-carried '{}' is not available in PTO code", ia->name_hint));
        return;
      }
      Bind(ia, *ib);
      continue;
    }
    auto ty = CarriedType(ia, s->span);
    if (!ty) return;
    f.types.push_back(*ty);
    std::string init;
    if (Isa<TileType>(ia->type)) {
      if (!ib || ib->kind != PtoBinding::Kind::kTile) {
        Error(s->span, fmt::format("loop-carried tile '{}' has no tile buffer", ia->name_hint));
        return;
      }
      auto typed = RetypeTile(*ib, *ty, s->span);
      if (!typed) return;
      init = typed->value.name;
    } else {
      PtoValue v = CastTo(Value(ia->init), *ty);
      if (!v.ok()) return;
      init = v.name;
    }
    inits.push_back(init);
  }
  std::string iv = Named(s->loop_var->name_hint);
  PtoBinding lvb;
  lvb.kind = PtoBinding::Kind::kScalar;
  lvb.value = {iv, "index"};
  Bind(s->loop_var, lvb);
  std::vector<std::string> iter, types;
  size_t ci = 0;
  for (size_t i = 0; i < s->iter_args.size(); ++i) {
    f.addrs.emplace_back();
    if (!f.carried[i]) continue;
    const IterArg* ia = s->iter_args[i];
    std::string a = Named(ia->name_hint);
    iter.push_back(fmt::format("{} = {}", a, inits[ci++]));
    types.push_back(f.types[i]);
    PtoBinding b;
    if (Isa<TileType>(ia->type)) {
      b = CarriedTile(ia, a, f.types[i], &aliases[i]);
      f.addrs.back() = b.addr;
    } else {
      b.kind = PtoBinding::Kind::kScalar;
      b.value = {a, f.types[i]};
    }
    Bind(ia, b);
  }
  std::string res;
  std::string head;
  if (!iter.empty()) {
    res = Named(s->return_vars.empty() ? "loop" : s->return_vars[0]->name_hint);
    head = iter.size() == 1 ? res + " = " : fmt::format("{}:{} = ", res, iter.size());
    Op(fmt::format("{}scf.for {} = {} to {} step {} iter_args({}) -> ({}) {{", head, iv, lb, ub, st,
                   fmt::join(iter, ", "), fmt::join(types, ", ")));
  } else {
    Op(fmt::format("scf.for {} = {} to {} step {} {{", iv, lb, ub, st));
  }
  frames_.push_back(f);
  cur_->Indent();
  EmitStmt(s->body);
  cur_->Dedent();
  Frame done = frames_.back();
  frames_.pop_back();
  cur_->Line("}");
  BindResults(s->return_vars, done, res, iter.size(), aliases);
}

void PtoFunctionEmitter::EmitIf(const IfStmt* s) {
  PtoValue c = CastTo(Value(s->cond), "i1");
  if (!c.ok()) return;
  Frame f;
  std::vector<std::string> types;
  for (const Var* rv : s->return_vars) {
    bool carried = Carried(rv->type);
    f.carried.push_back(carried);
    if (!carried) {
      f.types.push_back("");
      continue;
    }
    // A tile result has its declared type, with pad=null (CarriedTileType).
    auto ty = CarriedType(rv, s->span);
    if (!ty) return;
    f.types.push_back(*ty);
    types.push_back(*ty);
  }
  if ((!types.empty() || !s->return_vars.empty()) && !s->else_body) {
    Error(s->span, "if with results needs an else branch");
    return;
  }
  std::string res;
  if (!types.empty()) {
    res = Named(s->return_vars[0]->name_hint);
    std::string head = types.size() == 1 ? res + " = " : fmt::format("{}:{} = ", res, types.size());
    Op(fmt::format("{}scf.if {} -> ({}) {{", head, c.name, fmt::join(types, ", ")));
  } else {
    Op(fmt::format("scf.if {} {{", c.name));
  }
  frames_.push_back(f);
  cur_->Indent();
  EmitStmt(s->then_body);
  std::vector<PtoBinding> aliases = frames_.back().yielded;
  cur_->Dedent();
  if (s->else_body) {
    cur_->Line("} else {");
    cur_->Indent();
    frames_.back().yielded.clear();
    EmitStmt(s->else_body);
    cur_->Dedent();
  }
  Frame done = frames_.back();
  frames_.pop_back();
  cur_->Line("}");
  BindResults(s->return_vars, done, res, types.size(), aliases);
}

void PtoFunctionEmitter::EmitWhile(const WhileStmt* s) {
  Frame f;
  std::vector<std::string> inits, before, types;
  std::vector<PtoBinding> aliases;
  for (const IterArg* ia : s->iter_args) {
    bool carried = Carried(ia->type);
    f.carried.push_back(carried);
    const PtoBinding* ib = Lookup(ia->init);
    aliases.push_back(ib ? *ib : PtoBinding{});
    if (!carried) {
      f.types.push_back("");
      if (ib) Bind(ia, *ib);
      continue;
    }
    auto ty = CarriedType(ia, s->span);
    if (!ty) return;
    f.types.push_back(*ty);
    types.push_back(*ty);
    if (Isa<TileType>(ia->type)) {
      if (!ib || ib->kind != PtoBinding::Kind::kTile) {
        Error(s->span, fmt::format("loop-carried tile '{}' has no tile buffer", ia->name_hint));
        return;
      }
      auto typed = RetypeTile(*ib, *ty, s->span);
      if (!typed) return;
      inits.push_back(typed->value.name);
    } else {
      PtoValue v = CastTo(Value(ia->init), *ty);
      if (!v.ok()) return;
      inits.push_back(v.name);
    }
  }
  if (types.empty()) {
    Error(s->span, "while loop without loop-carried scalars or tiles cannot terminate in PTO code");
    return;
  }
  std::string res = Named(s->return_vars.empty() ? "while" : s->return_vars[0]->name_hint);
  std::vector<std::string> bnames, anames;
  size_t ci = 0;
  for (size_t i = 0; i < s->iter_args.size(); ++i) {
    if (!f.carried[i]) continue;
    std::string b = Named(s->iter_args[i]->name_hint);
    bnames.push_back(b);
    before.push_back(fmt::format("{} = {}", b, inits[ci++]));
  }
  std::string head = types.size() == 1 ? res + " = " : fmt::format("{}:{} = ", res, types.size());
  std::string tl = fmt::format("{}", fmt::join(types, ", "));
  Op(fmt::format("{}scf.while ({}) : ({}) -> ({}) {{", head, fmt::join(before, ", "), tl, tl));
  f.addrs.assign(s->iter_args.size(), "");
  auto bind_iter = [&](const std::vector<std::string>& names) {
    size_t k = 0;
    for (size_t i = 0; i < s->iter_args.size(); ++i) {
      if (!f.carried[i]) continue;
      const IterArg* ia = s->iter_args[i];
      PtoBinding b;
      if (Isa<TileType>(ia->type)) {
        b = CarriedTile(ia, names[k++], f.types[i], &aliases[i]);
        f.addrs[i] = b.addr;
      } else {
        b.kind = PtoBinding::Kind::kScalar;
        b.value = {names[k++], f.types[i]};
      }
      Bind(ia, b);
    }
  };
  bind_iter(bnames);
  cur_->Indent();
  PtoValue c = CastTo(Value(s->cond), "i1");
  if (!c.ok()) return;
  Op(fmt::format("scf.condition({}) {} : {}", c.name, fmt::join(bnames, ", "), tl));
  cur_->Dedent();
  cur_->Line("} do {");
  std::vector<std::string> blk;
  for (size_t i = 0; i < s->iter_args.size(); ++i) {
    if (!f.carried[i]) continue;
    anames.push_back(Named(s->iter_args[i]->name_hint));
    blk.push_back(fmt::format("{}: {}", anames.back(), f.types[i]));
  }
  cur_->Linef("^bb0({}):", fmt::join(blk, ", "));
  bind_iter(anames);
  frames_.push_back(f);
  cur_->Indent();
  EmitStmt(s->body);
  cur_->Dedent();
  Frame done = frames_.back();
  frames_.pop_back();
  cur_->Line("}");
  BindResults(s->return_vars, done, res, types.size(), aliases);
}

}  // namespace pypto::codegen
