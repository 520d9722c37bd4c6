// IRBuilder implementation: op calls through MakeOpCall, scalar dtype promotion
// and constant folding, and the statement-list stack behind For/If/While/scopes.
#include "pypto/ir/builder.h"

#include <cmath>
#include <limits>

#include "pypto/core/check.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/int_expr_fold.h"

namespace pypto::ir {

IRBuilder::IRBuilder(Context& ctx, const OpRegistry* registry)
    : ctx_(ctx), registry_(registry ? *registry : OpRegistry::Global()) {}

// ---------------------------------------------------------------- types

std::vector<const Expr*> IRBuilder::Shape(std::initializer_list<int64_t> dims) {
  std::vector<const Expr*> out;
  out.reserve(dims.size());
  for (int64_t d : dims) out.push_back(ctx_.Int(d));
  return out;
}

const TensorType* IRBuilder::TensorT(std::vector<const Expr*> shape, DataType dt) {
  return ctx_.Make<TensorType>(std::move(shape), dt);
}

const DistributedTensorType* IRBuilder::DistTensorT(std::vector<const Expr*> shape, DataType dt) {
  return ctx_.Make<DistributedTensorType>(std::move(shape), dt);
}

const TileType* IRBuilder::TileT(std::vector<const Expr*> shape, DataType dt,
                                 std::optional<MemorySpace> mem) {
  return ctx_.Make<TileType>(std::move(shape), dt, mem);
}

// ---------------------------------------------------------------- exprs

const MakeTuple* IRBuilder::Tuple(std::vector<const Expr*> elements) {
  std::vector<const Type*> types;
  types.reserve(elements.size());
  for (const Expr* e : elements) types.push_back(e->type);
  return ctx_.Make<MakeTuple>(std::move(elements), ctx_.Make<TupleType>(std::move(types)), span_);
}

const MakeTuple* IRBuilder::IndexTuple(std::initializer_list<int64_t> values) {
  std::vector<const Expr*> el;
  for (int64_t v : values) el.push_back(Int(v));
  return Tuple(std::move(el));
}

const TupleGetItem* IRBuilder::GetItem(const Expr* tuple, int64_t index) {
  const auto* tt = As<TupleType>(tuple->type);
  PYPTO_CHECK(tt && index >= 0 && static_cast<size_t>(index) < tt->types.size(),
              "IRBuilder::GetItem: index out of range or not a tuple");
  return ctx_.Make<TupleGetItem>(tuple, index, tt->types[index], span_);
}

const Call* IRBuilder::Op(OpHandle op, std::vector<const Expr*> args, AttrList kwargs,
                          AttrList attrs) {
  return Op(registry_.Get(op), std::move(args), std::move(kwargs), std::move(attrs));
}

const Call* IRBuilder::Op(std::string_view name, std::vector<const Expr*> args, AttrList kwargs,
                          AttrList attrs) {
  const OpDef* op = registry_.Find(name);
  PYPTO_CHECK(op != nullptr, "IRBuilder::Op: unknown op " + std::string(name));
  return Op(*op, std::move(args), std::move(kwargs), std::move(attrs));
}

const Call* IRBuilder::Op(const OpDef& op, std::vector<const Expr*> args, AttrList kwargs,
                          AttrList attrs) {
  DiagnosticEngine diag(&ctx_.sources());
  const Call* c =
      MakeOpCall(ctx_, op, std::move(args), std::move(kwargs), std::move(attrs), span_, diag);
  PYPTO_CHECK(c != nullptr,
              "IRBuilder::Op(" + op.name + ") does not type-check:\n" + diag.Render());
  return c;
}

const Call* IRBuilder::TryOp(OpHandle op, std::vector<const Expr*> args, AttrList kwargs,
                             AttrList attrs, DiagnosticEngine& diag) {
  return MakeOpCall(ctx_, registry_.Get(op), std::move(args), std::move(kwargs), std::move(attrs),
                    span_, diag);
}

const Call* IRBuilder::TryOp(std::string_view name, std::vector<const Expr*> args, AttrList kwargs,
                             AttrList attrs, DiagnosticEngine& diag) {
  const OpDef* op = registry_.Find(name);
  if (!op) {
    diag.Error(span_, "unknown op '" + std::string(name) + "'");
    return nullptr;
  }
  return MakeOpCall(ctx_, *op, std::move(args), std::move(kwargs), std::move(attrs), span_, diag);
}

const Call* IRBuilder::CallFunction(const Function& callee, std::vector<const Expr*> args,
                                    AttrList attrs) {
  const Type* t = ctx_.Unknown();
  if (callee.return_types.size() == 1)
    t = callee.return_types[0];
  else if (callee.return_types.size() > 1)
    t = ctx_.Make<TupleType>(callee.return_types);
  return ctx_.Make<Call>(nullptr, callee.name, std::move(args), AttrList{}, std::move(attrs), t,
                         span_);
}

// ---------------------------------------------------------------- scalar arithmetic

namespace {

DataType ScalarDTypeOf(const Expr* e, const char* what) {
  const auto* st = As<ScalarType>(e ? e->type : nullptr);
  PYPTO_CHECK(st != nullptr, std::string("IRBuilder: ") + what + " needs scalar operands");
  return st->dtype;
}

bool IsIndexLiteral(const Expr* e) {
  const auto* c = As<ConstInt>(e);
  return c && c->dtype() == DataType::kIndex;
}

// Folds an integer binary op (int_fold.h: checked, Python semantics; comparisons
// give 0 / 1); nullopt when it cannot be folded exactly.
std::optional<int64_t> FoldInt(BinaryOp op, int64_t a, int64_t b) {
  switch (op) {
    case BinaryOp::kEq:
      return a == b;
    case BinaryOp::kNe:
      return a != b;
    case BinaryOp::kLt:
      return a < b;
    case BinaryOp::kLe:
      return a <= b;
    case BinaryOp::kGt:
      return a > b;
    case BinaryOp::kGe:
      return a >= b;
    case BinaryOp::kPow:  // not folded by the builder (as before)
    case BinaryOp::kShl:
    case BinaryOp::kShr:
      return std::nullopt;
    default:
      break;
  }
  auto iop = IntFoldOpOf(op);
  if (!iop) return std::nullopt;
  return FoldIntBinary(*iop, a, b).value;
}

std::optional<double> FoldFloat(BinaryOp op, double a, double b) {
  switch (op) {
    case BinaryOp::kAdd:
      return a + b;
    case BinaryOp::kSub:
      return a - b;
    case BinaryOp::kMul:
      return a * b;
    case BinaryOp::kDiv:
      if (b == 0) return std::nullopt;
      return a / b;
    case BinaryOp::kMin:
      return a < b ? a : b;
    case BinaryOp::kMax:
      return a > b ? a : b;
    case BinaryOp::kEq:
      return a == b;
    case BinaryOp::kNe:
      return a != b;
    case BinaryOp::kLt:
      return a < b;
    case BinaryOp::kLe:
      return a <= b;
    case BinaryOp::kGt:
      return a > b;
    case BinaryOp::kGe:
      return a >= b;
    default:
      return std::nullopt;
  }
}

std::optional<double> NumericValue(const Expr* e) {
  if (const auto* c = As<ConstInt>(e)) return static_cast<double>(c->value);
  if (const auto* c = As<ConstFloat>(e)) return c->value;
  return std::nullopt;
}

bool IsConstValue(const Expr* e, int64_t v) {
  const auto* c = As<ConstInt>(e);
  return c && c->value == v;
}

}  // namespace

DataType IRBuilder::PromoteDType(BinaryOp op, const Expr* a, const Expr* b) {
  DataType da = ScalarDTypeOf(a, "arithmetic"), db = ScalarDTypeOf(b, "arithmetic");
  if (IsComparison(op) || op == BinaryOp::kAnd || op == BinaryOp::kOr) return DataType::kBool;
  if (IsFloat(da) || IsFloat(db)) {
    if (!IsFloat(db)) return da;
    if (!IsFloat(da)) return db;
    return DTypeBytes(db) > DTypeBytes(da) ? db : da;
  }
  if (op == BinaryOp::kDiv) return DataType::kFP32;  // true division of integers
  if (da == db) return da;
  if (IsIndexLiteral(b)) return da;  // a bare literal adapts to the other side
  if (IsIndexLiteral(a)) return db;
  if (da == DataType::kIndex || db == DataType::kIndex) return DataType::kIndex;
  return DTypeBytes(db) > DTypeBytes(da) ? db : da;
}

const Expr* IRBuilder::Binary(BinaryOp op, const Expr* a, const Expr* b) {
  DataType dt = PromoteDType(op, a, b);
  const auto* ca = As<ConstInt>(a);
  const auto* cb = As<ConstInt>(b);
  if (ca && cb) {
    if (auto v = FoldInt(op, ca->value, cb->value)) {
      if (dt == DataType::kBool) return Bool(*v != 0);
      return Int(*v, dt);
    }
  } else if (IsFloat(dt) || (dt == DataType::kBool && (Isa<ConstFloat>(a) || Isa<ConstFloat>(b)))) {
    auto va = NumericValue(a), vb = NumericValue(b);
    if (va && vb)
      if (auto v = FoldFloat(op, *va, *vb)) {
        if (dt == DataType::kBool) return Bool(*v != 0);
        return Float(*v, dt);
      }
  }
  const auto* ba = As<ConstBool>(a);
  const auto* bb = As<ConstBool>(b);
  if (ba && bb && (op == BinaryOp::kAnd || op == BinaryOp::kOr))
    return Bool(op == BinaryOp::kAnd ? (ba->value && bb->value) : (ba->value || bb->value));
  // Identities that keep the other operand's dtype.
  auto same = [&](const Expr* x) { return ScalarDTypeOf(x, "arithmetic") == dt; };
  if ((op == BinaryOp::kAdd || op == BinaryOp::kSub) && IsConstValue(b, 0) && same(a)) return a;
  if (op == BinaryOp::kAdd && IsConstValue(a, 0) && same(b)) return b;
  if ((op == BinaryOp::kMul || op == BinaryOp::kFloorDiv) && IsConstValue(b, 1) && same(a))
    return a;
  if (op == BinaryOp::kMul && IsConstValue(a, 1) && same(b)) return b;
  return ctx_.Make<BinaryExpr>(op, a, b, ctx_.Scalar(dt), span_);
}

const Expr* IRBuilder::Neg(const Expr* a) {
  DataType dt = ScalarDTypeOf(a, "Neg");
  if (const auto* c = As<ConstInt>(a))
    if (c->value != std::numeric_limits<int64_t>::min()) return Int(-c->value, dt);
  if (const auto* c = As<ConstFloat>(a)) return Float(-c->value, dt);
  return ctx_.Make<UnaryExpr>(UnaryOp::kNeg, a, a->type, span_);
}

const Expr* IRBuilder::Not(const Expr* a) {
  ScalarDTypeOf(a, "Not");
  if (const auto* c = As<ConstBool>(a)) return Bool(!c->value);
  return ctx_.Make<UnaryExpr>(UnaryOp::kNot, a, ctx_.Scalar(DataType::kBool), span_);
}

const Expr* IRBuilder::Cast(const Expr* a, DataType dt) {
  DataType from = ScalarDTypeOf(a, "Cast");
  if (from == dt) return a;
  if (const auto* c = As<ConstInt>(a)) {
    if (IsFloat(dt)) return Float(static_cast<double>(c->value), dt);
    if (dt == DataType::kBool) return Bool(c->value != 0);
    return Int(c->value, dt);
  }
  if (const auto* c = As<ConstBool>(a)) {
    if (IsFloat(dt)) return Float(c->value ? 1.0 : 0.0, dt);
    return Int(c->value ? 1 : 0, dt);
  }
  if (const auto* c = As<ConstFloat>(a)) {
    if (IsFloat(dt)) return Float(c->value, dt);
    if (dt != DataType::kBool && std::isfinite(c->value) && std::fabs(c->value) < 9.0e18)
      return Int(static_cast<int64_t>(c->value), dt);
  }
  return ctx_.Make<UnaryExpr>(UnaryOp::kCast, a, ctx_.Scalar(dt), span_);
}

// ---------------------------------------------------------------- statements

void IRBuilder::Emit(const Stmt* s) {
  if (frames_.empty()) frames_.emplace_back();
  frames_.back().push_back(s);
}

const Var* IRBuilder::Assign(std::string name, const Expr* value) {
  const Var* v = ctx_.NewVar(std::move(name), value->type, span_);
  Emit(ctx_.Make<AssignStmt>(v, value, span_));
  return v;
}

void IRBuilder::AssignTo(const Var* var, const Expr* value) {
  Emit(ctx_.Make<AssignStmt>(var, value, span_));
}

void IRBuilder::Eval(const Expr* e) { Emit(ctx_.Make<EvalStmt>(e, span_)); }
void IRBuilder::Return(std::vector<const Expr*> values) {
  Emit(ctx_.Make<ReturnStmt>(std::move(values), span_));
}
void IRBuilder::Yield(std::vector<const Expr*> values) {
  Emit(ctx_.Make<YieldStmt>(std::move(values), span_));
}
void IRBuilder::Break() { Emit(ctx_.Make<BreakStmt>(span_)); }
void IRBuilder::Continue() { Emit(ctx_.Make<ContinueStmt>(span_)); }

void IRBuilder::Begin() { frames_.emplace_back(); }

const Stmt* IRBuilder::Close() {
  PYPTO_CHECK(!frames_.empty(), "IRBuilder::End without Begin");
  std::vector<const Stmt*> stmts = std::move(frames_.back());
  frames_.pop_back();
  return ctx_.Make<SeqStmt>(std::move(stmts), span_);
}

const SeqStmt* IRBuilder::End() { return static_cast<const SeqStmt*>(Close()); }

const SeqStmt* IRBuilder::TakeBody() {
  if (frames_.empty()) frames_.emplace_back();
  PYPTO_CHECK(frames_.size() == 1, "IRBuilder::TakeBody with nested lists still open");
  return End();
}

static std::vector<const Var*> MakeResults(Context& ctx, const std::vector<const Type*>& types,
                                           const std::vector<std::string>& names,
                                           const std::vector<std::string>& defaults, Span span) {
  PYPTO_CHECK(names.empty() || names.size() == types.size(),
              "IRBuilder: result_names must name every result");
  std::vector<const Var*> out;
  for (size_t i = 0; i < types.size(); ++i)
    out.push_back(ctx.NewVar(names.empty() ? defaults[i] : names[i], types[i], span));
  return out;
}

IRBuilder::LoopResult IRBuilder::For(std::string name, const Expr* start, const Expr* stop,
                                     const Expr* step, std::vector<IterInit> iter_args,
                                     const LoopBody& body, ForKind kind,
                                     std::vector<std::string> result_names) {
  const Var* lv = ctx_.NewVar(std::move(name), ctx_.Scalar(DataType::kIndex), span_);
  std::vector<const IterArg*> ias;
  std::vector<const Type*> types;
  std::vector<std::string> defaults;
  for (auto& ia : iter_args) {
    ias.push_back(ctx_.NewIterArg(ia.name, ia.init->type, ia.init, span_));
    types.push_back(ia.init->type);
    defaults.push_back(ia.name + "_out");
  }
  Begin();
  body(lv, ias);
  const Stmt* b = Close();
  std::vector<const Var*> rv = MakeResults(ctx_, types, result_names, defaults, span_);
  const auto* f =
      ctx_.Make<ForStmt>(lv, start, stop, step, std::move(ias), b, rv, kind, AttrList{}, span_);
  Emit(f);
  return {f, std::move(rv)};
}

IRBuilder::WhileResult IRBuilder::While(std::vector<IterInit> iter_args, const WhileCond& cond,
                                        const WhileBody& body,
                                        std::vector<std::string> result_names) {
  std::vector<const IterArg*> ias;
  std::vector<const Type*> types;
  std::vector<std::string> defaults;
  for (auto& ia : iter_args) {
    ias.push_back(ctx_.NewIterArg(ia.name, ia.init->type, ia.init, span_));
    types.push_back(ia.init->type);
    defaults.push_back(ia.name + "_out");
  }
  const Expr* c = cond(ias);
  Begin();
  body(ias);
  const Stmt* b = Close();
  std::vector<const Var*> rv = MakeResults(ctx_, types, result_names, defaults, span_);
  const auto* w = ctx_.Make<WhileStmt>(c, std::move(ias), b, rv, span_);
  Emit(w);
  return {w, std::move(rv)};
}

IRBuilder::IfResult IRBuilder::If(const Expr* cond, const std::function<void()>& then_body,
                                  const std::function<void()>& else_body,
                                  std::vector<std::string> result_names) {
  Begin();
  then_body();
  const SeqStmt* t = End();
  const Stmt* e = nullptr;
  if (else_body) {
    Begin();
    else_body();
    e = End();
  }
  std::vector<const Type*> types;
  if (!t->stmts.empty())
    if (const auto* y = As<YieldStmt>(t->stmts.back()))
      for (const Expr* v : y->values) types.push_back(v->type);
  std::vector<std::string> defaults;
  for (size_t i = 0; i < types.size(); ++i) defaults.push_back("if_out" + std::to_string(i));
  if (!result_names.empty()) {
    PYPTO_CHECK(result_names.size() == types.size(),
                "IRBuilder::If: result_names must match the then-branch yield");
  }
  std::vector<const Var*> rv = MakeResults(ctx_, types, result_names, defaults, span_);
  const auto* s = ctx_.Make<IfStmt>(cond, t, e, rv, span_);
  Emit(s);
  return {s, std::move(rv)};
}

void IRBuilder::InCoreScope(const std::function<void()>& body, SplitMode split) {
  Begin();
  body();
  const Stmt* b = Close();
  Emit(ctx_.Make<InCoreScopeStmt>(b, split, AttrList{}, span_));
}

void IRBuilder::HierarchyScope(Level level, std::optional<Role> role,
                               const std::function<void()>& body) {
  Begin();
  body();
  const Stmt* b = Close();
  Emit(ctx_.Make<HierarchyScopeStmt>(b, level, role, AttrList{}, span_));
}

void IRBuilder::SpmdScope(const Expr* core_num, const std::function<void()>& body, bool sync) {
  Begin();
  body();
  const Stmt* b = Close();
  Emit(ctx_.Make<SpmdScopeStmt>(b, core_num, sync, AttrList{}, span_));
}

void IRBuilder::SplitAivScope(std::string var_name, int64_t count, SplitMode mode,
                              const std::function<void(const Var*)>& body) {
  const Var* v = ctx_.NewVar(std::move(var_name), ctx_.Scalar(DataType::kIndex), span_);
  Begin();
  body(v);
  const Stmt* b = Close();
  Emit(ctx_.Make<SplitAivScopeStmt>(v, count, mode, b, AttrList{}, span_));
}

// ---------------------------------------------------------------- functions

const Function* IRBuilder::BuildFunction(FunctionSpec spec, std::vector<Param> params,
                                         const FunctionBody& body) {
  Function* f = ctx_.Make<Function>();
  f->name = std::move(spec.name);
  f->func_type = spec.type;
  f->level = spec.level;
  f->role = spec.role;
  f->return_types = std::move(spec.return_types);
  f->span = span_;
  for (auto& p : params) {
    f->params.push_back(ctx_.NewVar(p.name, p.type, span_));
    f->param_dirs.push_back(p.dir);
  }
  Begin();
  body(f->params);
  f->body = Close();
  return f;
}

const Program* IRBuilder::BuildProgram(std::string name, std::vector<const Function*> functions,
                                       std::vector<const Var*> dynamic_dims) {
  Program* p = ctx_.Make<Program>();
  p->name = std::move(name);
  p->functions = std::move(functions);
  p->dynamic_dims = std::move(dynamic_dims);
  p->span = span_;
  return p;
}

const Var* IRBuilder::DynamicDim(std::string name) {
  return ctx_.NewVar(std::move(name), ctx_.Scalar(DataType::kIndex), span_);
}

}  // namespace pypto::ir
