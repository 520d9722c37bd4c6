// IRBuilder: the convenient way for passes and C++ tests to build IR.
//
// Expressions: op calls go through MakeOpCall (the deducer type-checks them; an
// error is a bug in the caller, so it is a PYPTO_CHECK carrying the rendered
// diagnostics), scalar arithmetic builds BinaryExpr/UnaryExpr with the promoted
// result type and folds constant operands.
//
// Statements: the builder keeps a stack of open statement lists. Assign/Eval/
// Yield/... append to the innermost list; For/If/While/scopes open a new list,
// run the caller's body callback, and append the finished compound statement.
// `TakeBody()` closes the outermost list into a SeqStmt. All nodes get the
// builder's current span (SetSpan), so built IR can still point at user text.
// Ops are named by their handle (pypto/ops/ops.h: ops::kTileAdd is the op printed
// `pl.tile.add`). This example is run verbatim by tests/unit/builder_example_test.cc:
//
//   IRBuilder b(ctx);
//   const TileType* t = b.TileT(b.Shape({16, 64}), DataType::kFP32);
//   const Function* f = b.BuildFunction(
//       {"k", FunctionType::kInCore}, {{"x", t}}, [&](const std::vector<const Var*>& p) {
//         const Var* y = b.Assign("y", b.Op(ops::kTileAdd, {p[0], p[0]}));
//         b.Return({y});
//       });
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"

namespace pypto::ir {

class IRBuilder {
 public:
  // `registry` defaults to OpRegistry::Global() (tests may pass their own).
  explicit IRBuilder(Context& ctx, const OpRegistry* registry = nullptr);

  Context& ctx() { return ctx_; }
  void SetSpan(Span s) { span_ = s; }
  Span span() const { return span_; }

  // ---- types ----
  std::vector<const Expr*> Shape(std::initializer_list<int64_t> dims);
  const TensorType* TensorT(std::vector<const Expr*> shape, DataType dt);
  const DistributedTensorType* DistTensorT(std::vector<const Expr*> shape, DataType dt);
  const TileType* TileT(std::vector<const Expr*> shape, DataType dt,
                        std::optional<MemorySpace> mem = MemorySpace::kVec);
  const ScalarType* ScalarT(DataType dt) { return ctx_.Scalar(dt); }

  // ---- leaves and calls ----
  const ConstInt* Int(int64_t v, DataType dt = DataType::kIndex) { return ctx_.Int(v, dt, span_); }
  const ConstFloat* Float(double v, DataType dt = DataType::kFP32) {
    return ctx_.Float(v, dt, span_);
  }
  const ConstBool* Bool(bool v) { return ctx_.Bool(v, span_); }
  // `[a, b, ...]`, typed as the tuple of its element types.
  const MakeTuple* Tuple(std::vector<const Expr*> elements);
  // `[16, 64]` of INDEX constants.
  const MakeTuple* IndexTuple(std::initializer_list<int64_t> values);
  const TupleGetItem* GetItem(const Expr* tuple, int64_t index);

  // A registered op call, type-checked by the op's deducer. Passes name the op by
  // its handle (pypto/ops/ops.h); the by-name form is for tests and tools that
  // start from text.
  const Call* Op(OpHandle op, std::vector<const Expr*> args, AttrList kwargs = {},
                 AttrList attrs = {});
  const Call* Op(std::string_view name, std::vector<const Expr*> args, AttrList kwargs = {},
                 AttrList attrs = {});
  const Call* Op(const OpDef& op, std::vector<const Expr*> args, AttrList kwargs = {},
                 AttrList attrs = {});
  // Like Op() but reports problems to `diag` and returns nullptr (for tests of
  // diagnostics and for passes that must surface user errors).
  const Call* TryOp(OpHandle op, std::vector<const Expr*> args, AttrList kwargs, AttrList attrs,
                    DiagnosticEngine& diag);
  const Call* TryOp(std::string_view name, std::vector<const Expr*> args, AttrList kwargs,
                    AttrList attrs, DiagnosticEngine& diag);
  // `self.<callee>(args)`; the result type is the callee's single return type,
  // a TupleType of several, or Unknown for none.
  const Call* CallFunction(const Function& callee, std::vector<const Expr*> args,
                           AttrList attrs = {});

  // ---- scalar arithmetic (promoted result dtype; constant operands folded) ----
  const Expr* Binary(BinaryOp op, const Expr* a, const Expr* b);
  const Expr* Add(const Expr* a, const Expr* b) { return Binary(BinaryOp::kAdd, a, b); }
  const Expr* Sub(const Expr* a, const Expr* b) { return Binary(BinaryOp::kSub, a, b); }
  const Expr* Mul(const Expr* a, const Expr* b) { return Binary(BinaryOp::kMul, a, b); }
  const Expr* Div(const Expr* a, const Expr* b) { return Binary(BinaryOp::kDiv, a, b); }
  const Expr* FloorDiv(const Expr* a, const Expr* b) { return Binary(BinaryOp::kFloorDiv, a, b); }
  const Expr* FloorMod(const Expr* a, const Expr* b) { return Binary(BinaryOp::kFloorMod, a, b); }
  const Expr* Min(const Expr* a, const Expr* b) { return Binary(BinaryOp::kMin, a, b); }
  const Expr* Max(const Expr* a, const Expr* b) { return Binary(BinaryOp::kMax, a, b); }
  const Expr* Eq(const Expr* a, const Expr* b) { return Binary(BinaryOp::kEq, a, b); }
  const Expr* Ne(const Expr* a, const Expr* b) { return Binary(BinaryOp::kNe, a, b); }
  const Expr* Lt(const Expr* a, const Expr* b) { return Binary(BinaryOp::kLt, a, b); }
  const Expr* Le(const Expr* a, const Expr* b) { return Binary(BinaryOp::kLe, a, b); }
  const Expr* Gt(const Expr* a, const Expr* b) { return Binary(BinaryOp::kGt, a, b); }
  const Expr* Ge(const Expr* a, const Expr* b) { return Binary(BinaryOp::kGe, a, b); }
  const Expr* And(const Expr* a, const Expr* b) { return Binary(BinaryOp::kAnd, a, b); }
  const Expr* Or(const Expr* a, const Expr* b) { return Binary(BinaryOp::kOr, a, b); }
  const Expr* Neg(const Expr* a);
  const Expr* Not(const Expr* a);
  // pl.cast(x, dt); folds constants and is the identity when x already has dt.
  const Expr* Cast(const Expr* a, DataType dt);
  // Result dtype of a scalar binary op on `a` and `b` (see builder.cc).
  static DataType PromoteDType(BinaryOp op, const Expr* a, const Expr* b);

  // ---- statements (appended to the innermost open list) ----
  const Var* Assign(std::string name, const Expr* value);
  // Assigns to an existing Var (re-binding, e.g. before convert-to-ssa).
  void AssignTo(const Var* var, const Expr* value);
  void Eval(const Expr* e);
  void Return(std::vector<const Expr*> values = {});
  void Yield(std::vector<const Expr*> values);
  void Break();
  void Continue();
  void Emit(const Stmt* s);  // any prebuilt statement

  struct IterInit {
    std::string name;
    const Expr* init;
  };
  struct LoopResult {
    const ForStmt* stmt;
    std::vector<const Var*> results;  // return vars, one per iter arg
  };
  using LoopBody = std::function<void(const Var* loop_var, const std::vector<const IterArg*>&)>;
  // `for name, (iters...) in pl.range(start, stop, step, init_values=(...))`; the
  // return vars are named `<iter name>_out` unless `result_names` is given.
  LoopResult For(std::string name, const Expr* start, const Expr* stop, const Expr* step,
                 std::vector<IterInit> iter_args, const LoopBody& body,
                 ForKind kind = ForKind::kRange, std::vector<std::string> result_names = {});
  struct WhileResult {
    const WhileStmt* stmt;
    std::vector<const Var*> results;
  };
  using WhileCond = std::function<const Expr*(const std::vector<const IterArg*>&)>;
  using WhileBody = std::function<void(const std::vector<const IterArg*>&)>;
  WhileResult While(std::vector<IterInit> iter_args, const WhileCond& cond, const WhileBody& body,
                    std::vector<std::string> result_names = {});
  struct IfResult {
    const IfStmt* stmt;
    std::vector<const Var*> results;
  };
  // `if cond:` ... `else:` ...; return vars (one per name) take the types of the
  // values of the then-branch's trailing yield. `else_body` may be empty.
  IfResult If(const Expr* cond, const std::function<void()>& then_body,
              const std::function<void()>& else_body = {},
              std::vector<std::string> result_names = {});
  void InCoreScope(const std::function<void()>& body, SplitMode split = SplitMode::kNone);
  void HierarchyScope(Level level, std::optional<Role> role, const std::function<void()>& body);
  void SpmdScope(const Expr* core_num, const std::function<void()>& body, bool sync = false);
  void SplitAivScope(std::string var_name, int64_t count, SplitMode mode,
                     const std::function<void(const Var*)>& body);

  // Open / close a statement list explicitly (For/If do this for you).
  void Begin();
  const SeqStmt* End();
  // Closes the outermost list (the builder is reusable afterwards).
  const SeqStmt* TakeBody();

  // ---- functions and programs ----
  struct FunctionSpec {
    std::string name;
    FunctionType type = FunctionType::kOpaque;
    std::optional<Level> level = std::nullopt;
    std::optional<Role> role = std::nullopt;
    std::vector<const Type*> return_types = {};
  };
  struct Param {
    std::string name;
    const Type* type;
    ParamDirection dir = ParamDirection::kIn;
  };
  using FunctionBody = std::function<void(const std::vector<const Var*>& params)>;
  const Function* BuildFunction(FunctionSpec spec, std::vector<Param> params,
                                const FunctionBody& body);
  const Program* BuildProgram(std::string name, std::vector<const Function*> functions,
                              std::vector<const Var*> dynamic_dims = {});
  // A module-level `N = pl.dynamic("N")` symbol (INDEX scalar Var).
  const Var* DynamicDim(std::string name);

 private:
  const Stmt* Close();  // End() without the SeqStmt cast
  Context& ctx_;
  const OpRegistry& registry_;
  Span span_;
  std::vector<std::vector<const Stmt*>> frames_;
};

}  // namespace pypto::ir
