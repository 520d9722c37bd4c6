// Private to the verifier (verifier.cc: bindings, scoping, control flow;
// verifier_calls.cc: op re-deduction, function-call signatures, placement).
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "pypto/core/ptr_map.h"
#include "pypto/ir/context.h"
#include "pypto/ir/verifier.h"

namespace pypto::ir::verifier_detail {

enum class BindKind : uint8_t {
  kParam,
  kAssign,
  kLoopVar,
  kIterArg,
  kReturnVar,
  kSplitVar,
  kDynamicDim
};
std::string_view BindKindName(BindKind k);

// Lenient type agreement used for assignments, yields, returns and call
// arguments: Unknown matches anything; same kind (a DistributedTensor is
// accepted where a Tensor is expected) and dtype; shapes of equal rank with no
// two differing constant dims; INDEX scalars mix with other integer scalars.
bool TypesCompatible(const Type* actual, const Type* expected);
std::string TypeSpelling(const Type* t);

// verifier_tasks.cc: manual scopes and task ids (task_id / deps attrs).
void CheckTaskScopes(const Function& f, DiagnosticEngine& diag);

class Verifier {
 public:
  Verifier(Context& ctx, const Program& p, DiagnosticEngine& diag, const VerifyOptions& o)
      : ctx_(ctx), prog_(p), diag_(diag), opts_(o) {}
  bool Run();

 private:
  struct VarInfo {
    BindKind kind = BindKind::kAssign;
    int func = -1;
    int assigns = 0;
    const Span* def_span = nullptr;  // the binding node's span (nodes outlive the verifier)
  };
  static constexpr int kMaxDepth = 4000;

  // pass 1
  // `at` must be a span stored in the program (a node's or the program's own):
  // its address is kept.
  void Bind(const Var* v, BindKind kind, const Span& at);
  void CollectStmt(const Stmt* s);
  // pass 2
  void Define(const Var* v);
  void PopTo(size_t mark);
  void CheckUse(const Var* v);
  Span UseSpan() const;
  void CheckType(const Type* t);
  void CheckDeclaredType(const Type* t);
  void CheckConstantArithmetic(const Expr* e);
  void CheckAttr(const Attr& a);
  void CheckExpr(const Expr* e);
  void CheckStmt(const Stmt* s);
  void CheckScopeAttrs(const ScopeStmt* s);
  void CheckIf(const IfStmt* s);
  void CheckFor(const ForStmt* s);
  void CheckWhile(const WhileStmt* s);
  void CheckReturn(const ReturnStmt* s);
  void CheckIterInits(const std::vector<const IterArg*>& ias);
  void CheckLoopCarried(const std::vector<const IterArg*>& ias, const std::vector<const Var*>& rvs,
                        const Stmt* body, Span at, const char* what);
  const YieldStmt* ExpectTrailingYield(const Stmt* body, size_t n, Span at,
                                       const std::string& what);
  void CheckYieldTypes(const YieldStmt* y, const std::vector<const Type*>& types,
                       const std::string& what);
  // verifier_calls.cc
  void CheckCall(const Call* c);
  void CheckOpCall(const Call* c);
  void CheckFunctionCall(const Call* c);
  void CheckPlacement(const Call* c);
  void CheckParamOnlyArgs(const Call* c);
  std::string DescribeContext() const;
  // verifier_recursion.cc
  void CheckCallCycles();

  std::string FuncName(int index) const;
  void Error(Span at, std::string msg);
  void Note(Span at, std::string msg);

  Context& ctx_;
  const Program& prog_;
  DiagnosticEngine& diag_;
  VerifyOptions opts_;

  PtrMap<const Var*, VarInfo> vars_;
  std::unordered_map<std::string, const Function*> functions_;
  // Function calls per caller index, in program order: callee and the call's span.
  struct CallEdge {
    const Function* callee;
    Span at;
  };
  std::unordered_map<const Function*, std::vector<CallEdge>> calls_;
  const Function* cur_func_ = nullptr;
  int cur_func_index_ = -1;
  PtrMap<const Var*, char> in_scope_;
  std::vector<const Var*> scope_log_;
  std::unordered_set<const YieldStmt*> allowed_yields_;
  std::vector<Span> span_stack_;
  int loop_depth_ = 0;
  int incore_scope_depth_ = 0;
  int depth_ = 0;
  bool depth_reported_ = false;
};

}  // namespace pypto::ir::verifier_detail
