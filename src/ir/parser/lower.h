// Lowering of the syntax tree (ast.h) to IR: the semantic half of the parser.
// One Lowerer handles one file. Module level: imports are skipped, `N = 64`
// constants and `N = pl.dynamic("N")` dims are recorded, then every function
// signature is collected before any body is lowered (so calls may reference
// later functions). Within a function names live in one flat Python-style scope.
// Errors are reported per statement and lowering continues; a name whose
// definition failed is bound to a poisoned Var so its uses do not cascade.
// Implementation is split by concern: parser.cc (module, functions), types.cc,
// exprs.cc, calls.cc (op/function calls, kwargs), short_forms.cc, stmts.cc.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ast.h"
#include "pypto/core/dtype.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/enums.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/parser.h"

namespace pypto::ir::parser {

// A module-level compile-time value (`N = 64`, `SHAPE = [16, 64]`, and names
// bound to a dtype or an enum member: `DT = pl.FP16`, `OP = pld.ReduceOp.Max`,
// usable wherever that dtype / enum value may be written; see DTypeOf/EnumOf).
struct ConstVal {
  enum class K { kInt, kFloat, kBool, kStr, kList, kDType, kEnum } k = K::kInt;
  int64_t i = 0;  // kInt; the member's value for kEnum
  double f = 0;
  bool b = false;
  std::string s;
  std::vector<ConstVal> list;
  DataType dt = DataType::kFP32;          // kDType
  EnumKind ek = EnumKind::kFunctionType;  // kEnum
};

class Lowerer {
 public:
  Lowerer(Context& ctx, DiagnosticEngine& diag, const ParseOptions& opts, int32_t file)
      : ctx_(ctx), diag_(diag), opts_(opts), file_(file) {}

  const Program* Run(const std::vector<PyStmt*>& module, const std::string& default_name,
                     AstPool& pool);

  // ---- shared helpers (used across the implementation files) ----
  void Error(Span s, std::string msg) { diag_.Error(s, std::move(msg)); }

  // types.cc
  const Type* LowerType(const PyExpr* e);
  // Parameter annotation: strips pl.InOut[...] / pl.Out[...].
  const Type* LowerParamType(const PyExpr* e, ParamDirection* dir);
  static bool TypeEq(const Type* a, const Type* b);
  // Annotations that depend on their text alone are remembered once lowered:
  // AnnotationMatches(ann, t) is true when `ann` was lowered before to a type
  // TypeEq to `t` (so `x: T = op(...)` need not lower T again only to compare
  // it with the deduced type; the comparison ignores spans, so the answer is
  // the one a fresh lowering would give).
  // Keyed by the annotation's source text (views into the SourceManager's
  // copy, which outlives the Lowerer).
  bool AnnotationMatches(std::string_view text, const Type* t);
  void RememberAnnotation(const PyExpr* ann, std::string_view text, const Type* lowered);
  static bool ExprEq(const Expr* a, const Expr* b);

  // exprs.cc
  // Lowers a value expression; nullptr after reporting (or when a poisoned name
  // is involved, silently).
  const Expr* LowerExpr(const PyExpr* e);
  // A scalar expression (shape dims, loop bounds, conditions).
  const Expr* LowerScalar(const PyExpr* e, const char* what);
  const Expr* MakeBinary(BinaryOp op, const Expr* a, const Expr* b, Span s, bool fold);
  std::optional<ConstVal> EvalConst(const PyExpr* e, bool report);
  const Expr* ConstToExpr(const ConstVal& v, Span s);
  // pl.FP32 -> kFP32; also a name bound to a dtype constant (DT = pl.FP32).
  std::optional<DataType> DTypeOf(const PyExpr* e);
  // pld.ReduceOp.Max; also a name bound to an enum constant (OP = pld.ReduceOp.Max).
  std::optional<std::pair<EnumKind, int>> EnumOf(const PyExpr* e);
  // The module constant a bare name (not shadowed by a local) denotes, else null.
  const ConstVal* NamedConst(const PyExpr* e) const;
  // What a bare name is, for diagnostics where a dtype or enum value was
  // expected: "'OP' is pld.ReduceOp.Max, an enum value", "'X' is undefined", ...
  // Empty when `e` is not a bare name.
  std::string DescribeName(const PyExpr* e) const;
  // "<what>: expected a dtype such as <example>", naming what a bare name is.
  std::string ExpectedDType(std::string_view what, const PyExpr* e,
                            std::string_view example = "pl.FP32") const;
  const Expr* LowerSubscript(const PyExpr* e);
  // The region a tensor subscript selects (see LowerSubscriptRegion in exprs.cc).
  struct SubscriptRegion {
    std::vector<const Expr*> shape, offset, drop;
  };
  bool LowerSubscriptRegion(const std::vector<const PyExpr*>& idx,
                            const std::vector<const Expr*>& ix,
                            const std::vector<const Expr*>& dims, SubscriptRegion* out);
  const Expr* LowerList(const PyExpr* e);  // [a, b] / (a, b) -> MakeTuple

  // arrays.cc: `a[i]` on a pl.Array (array.get_element), and the statement
  // `a[i] = v` (a = array.update_element(a, i, v)); the latter returns false,
  // reporting nothing, when the subscripted name is not an array.
  const Expr* LowerArrayElement(const Expr* base, const PyExpr* e);
  bool LowerArrayElementAssign(const PyStmt* s, std::vector<const Stmt*>* out);

  // calls.cc
  const Expr* LowerCall(const PyExpr* e);
  const Expr* LowerFunctionCall(size_t fidx, const PyExpr* e);
  const Expr* ReshapeToParam(const Expr* arg, const Var* param);
  void ImplicitStoreShapes(const PyExpr* call, std::vector<const Expr*>* pos);
  // Builds an op call from already-lowered positional args and the call's keywords.
  // `call` supplies the keywords and span; keywords named in `skip` are ignored.
  const Expr* BuildOpCall(const OpDef& op, std::vector<const Expr*> pos, const PyExpr* call,
                          const std::vector<std::string>& skip = {}, AttrList extra = {});
  // Lowers a call's positional arguments; false if any failed.
  bool LowerPositional(const PyExpr* call, std::vector<const Expr*>* out);
  // Where an argument starts as written at a use ('[' of a list literal, the name
  // of a Var, the left operand of `a + b`): what op argument diagnostics point at.
  static Span UseSpan(const PyExpr* e);
  const Expr* LowerArg(const PyExpr* e);  // list literal -> MakeTuple, else LowerExpr
  std::optional<Attr> LowerAttr(const PyExpr* e, const KwargSpec* spec);
  const OpDef* FindOpOrReport(const std::string& printed, Span s);
  std::string SuggestOp(const std::string& printed);

  // short_forms.cc: handles pl.load, pl.add, pld.window, pl.cast, ... Sets
  // *handled and returns the result (nullptr on error).
  const Expr* LowerShortForm(const std::string& name, const PyExpr* call, bool* handled);
  // `base` ("add") as tile.<base> / tensor.<base> by the first operand's kind;
  // scalar operands give BinaryExpr for add/sub/mul/div/maximum/minimum.
  // Without `call`, `spans` are the operands' use-site spans (see UseSpan).
  const Expr* DispatchByKind(const std::string& base, std::vector<const Expr*> args,
                             const PyExpr* call, Span s, std::vector<Span> spans = {});
  // A ConstInt/ConstFloat literal converted to dtype `dt` (other exprs unchanged).
  const Expr* LiteralAsDType(const Expr* e, DataType dt);
  // The element-wise family as the registry declares it (OpFamily::kElementwise):
  // its tile member by short name ("add" -> tile.add), or by the BinaryOp it means
  // on two scalars (kAdd -> tile.add; infix `a + b` on tiles). nullptr: none.
  static const OpDef* ElementwiseByName(std::string_view base);
  static const OpDef* ElementwiseByScalarOp(BinaryOp op);

  // stmts.cc
  const Stmt* LowerBlock(const std::vector<PyStmt*>& body, Span span);
  bool SameValueType(const Type* old_type, const Type* new_type);
  void CopyParamsAssignedWithin(const PyStmt* s, std::vector<const Stmt*>* out);
  void LowerStmt(const PyStmt* s, std::vector<const Stmt*>* out);

  // Where the trailing `x = pl.yield_(...)` of a block puts its targets.
  struct YieldTargets {
    bool found = false;
    Span span;
    std::vector<std::string> names;
    std::vector<Span> spans;
    std::vector<const Type*> types;  // annotation if given, else the yielded value's type
  };

 private:
  friend class StmtLowering;
  // parser.cc
  void AddFunction(const PyStmt* def, bool in_class);
  bool ApplyDecorator(const PyExpr* d, Function* f);
  void LowerSignature(size_t idx);
  void LowerBody(size_t idx);

  // stmts.cc
  void LowerAssign(const PyStmt* s, std::vector<const Stmt*>* out);
  // subscript_assign.cc: `x[a:b, c] = v` (tensor.assemble / tile.store / tensor.write).
  void LowerSubscriptAssign(const PyStmt* s, std::vector<const Stmt*>* out);
  void BindAssign(const std::string& name, Span name_span, const PyExpr* annotation,
                  const Expr* value, Span s, std::vector<const Stmt*>* out,
                  std::string_view annotation_text = {}, const PyStmt* ann_stmt = nullptr);
  // s->annotation with its own spans: a copy when the tree is shared with an
  // earlier statement (PyStmt::ann_shared), made in body_pool_.
  const PyExpr* OwnAnnotation(const PyStmt* s);
  PyExpr* CopyShifted(const PyExpr* e, int32_t dline, int32_t dcol);
  void LowerFor(const PyStmt* s, std::vector<const Stmt*>* out);
  void LowerWhileForm(const PyStmt* s, const PyExpr* iter, std::vector<const Stmt*>* out);
  void LowerIf(const PyStmt* s, std::vector<const Stmt*>* out);
  void LowerWith(const PyStmt* s, std::vector<const Stmt*>* out);
  // control_flow.cc: LowerWith's scopes, and the body of any of them.
  void LowerAtScope(const PyStmt* s, const std::string& head, std::vector<const Stmt*>* out);
  void LowerSpmdScope(const PyStmt* s, std::vector<const Stmt*>* out);
  void LowerCommDomainScope(const PyStmt* s, std::vector<const Stmt*>* out);
  void LowerManualScope(const PyStmt* s, std::vector<const Stmt*>* out);
  const Stmt* LowerScopeBody(const PyStmt* s);
  // task_scopes.cc: `deps=[a, b]` of a pl.at task and its `as t` target.
  bool LowerTaskDeps(const PyExpr* deps, AttrList* attrs);
  bool LowerTaskTarget(const PyExpr* target, AttrList* attrs);
  void LowerYield(const PyStmt* s, const PyExpr* call, std::vector<const Stmt*>* out);
  std::vector<const Var*> MakeReturnVars(const YieldTargets& yt);
  const Var* Poison(const std::string& name, Span s);
  void Bind(const std::string& name, const Var* v) { scope_[name] = v; }
  const Var* LookupVar(const std::string& name) const;

 public:
  Context& ctx_;
  DiagnosticEngine& diag_;
  const ParseOptions& opts_;
  int32_t file_;

  // Module level.
  std::map<std::string, ConstVal> consts_;
  std::map<std::string, Span> non_const_globals_;  // module names that are not constants
  std::vector<const Var*> dyn_dims_;
  struct FuncEntry {
    Function* fn = nullptr;
    const PyStmt* def = nullptr;
    bool returns_declared = false;
    bool sig_done = false;
    bool lowering = false;
    bool lowered = false;
    std::vector<const Var*> bad_params;  // annotation rejected: uses stay silent
  };
  std::vector<FuncEntry> funcs_;
  std::map<std::string, size_t> func_index_;

  // Function level.
  std::unordered_map<std::string, const Var*> scope_;
  std::unordered_set<const Var*> poisoned_;
  std::unordered_set<const Expr*> pyconst_;  // values that came from module constants
  Function* cur_fn_ = nullptr;
  std::vector<const Type*> inferred_returns_;
  bool saw_return_ = false;
  const std::string* alloc_name_ = nullptr;  // LHS name offered to alloc_window_buffer
  YieldTargets* yield_ctx_ = nullptr;
  int loop_depth_ = 0;
  int block_depth_ = 0;  // 1 = the function body, > 1 = inside an if/loop/with block
  int tmp_counter_ = 0;
  // Task ids bound so far by `with pl.at(...) as t:` (name -> where), usable only
  // in deps=[...] (see ManualScopeStmt).
  std::unordered_map<std::string, Span> task_ids_;
  AstPool body_pool_;     // syntax trees of bodies being lowered (see LowerBody)
  bool outline_ = false;  // the module came from ParseOutline (see LowerBody)
  std::unordered_map<std::string_view, const Type*> ann_types_;  // see AnnotationMatches
  std::string_view last_ann_text_;             // the entry AnnotationMatches found last
  const Type* last_ann_type_ = nullptr;        // (its value)
  const Type* last_ann_value_type_ = nullptr;  // the type last compared with it
  bool last_ann_equal_ = false;                // (TypeEq's answer)
  std::unordered_map<std::string, const OpDef*> plain_ops_;  // see LowerCall
  std::string call_name_buf_;  // LowerCall's scratch for the callee's dotted name
};

}  // namespace pypto::ir::parser
