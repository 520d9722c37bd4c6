// Verifier rules for manual scopes and task ids (see ManualScopeStmt in stmt.h):
//  - `with pl.manual_scope():` only in a chip orchestration (an Orchestration or
//    non-host Opaque function), never nested, never inside a pl.at task;
//  - attr "task_id" (a string) and "deps" (a list of strings) only on
//    pl.at(level=CORE_GROUP) scopes and on function calls (kernel launches
//    after outlining), every deps name bound by an earlier task in the function.
#include <fmt/format.h>

#include <unordered_set>

#include "pypto/ir/casting.h"
#include "pypto/ir/visitor.h"
#include "verifier_internal.h"

namespace pypto::ir::verifier_detail {

namespace {

class TaskChecker : public IRVisitor {
 public:
  TaskChecker(const Function& f, DiagnosticEngine& d) : f_(f), diag_(d) {}

  void Visit_ManualScopeStmt(const ManualScopeStmt* s) override {
    if (f_.IsKernel() || f_.IsHostOrchestrator() ||
        (f_.func_type != FunctionType::kOrchestration && f_.func_type != FunctionType::kOpaque))
      diag_.Error(s->span, fmt::format("pl.manual_scope: only allowed in a chip orchestration "
                                       "function (type=pl.FunctionType.Orchestration); '{}' is "
                                       "not one",
                                       f_.name));
    else if (manual_depth_ > 0)
      diag_.Error(s->span, "pl.manual_scope: cannot be nested inside another pl.manual_scope");
    else if (incore_depth_ > 0)
      diag_.Error(s->span,
                  "pl.manual_scope: not allowed inside a pl.at(level=pl.Level."
                  "CORE_GROUP) task; put the tasks inside the manual scope instead");
    for (const NamedAttr& a : s->attrs)
      diag_.Error(s->span, fmt::format("pl.manual_scope: unexpected argument {}=", a.name));
    ++manual_depth_;
    IRVisitor::Visit_ManualScopeStmt(s);
    --manual_depth_;
  }

  void Visit_InCoreScopeStmt(const InCoreScopeStmt* s) override {
    CheckDeps(s->attrs, s->span, "pl.at");
    ++incore_depth_;
    IRVisitor::Visit_InCoreScopeStmt(s);
    --incore_depth_;
    BindTaskId(s->attrs, s->span, "pl.at");
  }

  void Visit_HierarchyScopeStmt(const HierarchyScopeStmt* s) override {
    RejectTaskAttrs(s->attrs, s->span, "pl.at");
    IRVisitor::Visit_HierarchyScopeStmt(s);
  }
  void Visit_SpmdScopeStmt(const SpmdScopeStmt* s) override {
    RejectTaskAttrs(s->attrs, s->span, "pl.spmd");
    IRVisitor::Visit_SpmdScopeStmt(s);
  }

  void Visit_Call(const Call* c) override {
    IRVisitor::Visit_Call(c);
    if (c->op) {
      RejectTaskAttrs(c->attrs, c->span, std::string(c->OpName()));
      return;
    }
    std::string what = "self." + c->callee;
    CheckDeps(c->attrs, c->span, what);
    BindTaskId(c->attrs, c->span, what);
  }

 private:
  void RejectTaskAttrs(const AttrList& attrs, Span at, const std::string& what) {
    for (const NamedAttr& a : attrs)
      if (a.name == "task_id" || a.name == "deps")
        diag_.Error(at, fmt::format("{}: {} is only allowed on pl.at(level=pl.Level.CORE_GROUP) "
                                    "tasks and kernel calls",
                                    what, a.name == "deps" ? "deps=" : "a task id (`as name`)"));
  }

  void CheckDeps(const AttrList& attrs, Span at, const std::string& what) {
    const Attr* d = FindAttr(attrs, "deps");
    if (!d) return;
    if (d->kind != Attr::Kind::kList) {
      diag_.Error(at, fmt::format("{}: deps= must be a list of task id names", what));
      return;
    }
    for (const Attr& e : d->list) {
      if (e.kind != Attr::Kind::kString) {
        diag_.Error(at, fmt::format("{}: deps= entries must be task id names", what));
      } else if (!bound_.count(e.s)) {
        diag_.Error(at, fmt::format("{}: deps=: '{}' is not a task id bound by an earlier task "
                                    "in function '{}'",
                                    what, e.s, f_.name));
      }
    }
  }

  void BindTaskId(const AttrList& attrs, Span at, const std::string& what) {
    const Attr* t = FindAttr(attrs, "task_id");
    if (!t) return;
    if (t->kind != Attr::Kind::kString || t->s.empty()) {
      diag_.Error(at, fmt::format("{}: task_id must be a name", what));
      return;
    }
    bound_.insert(t->s);
  }

  const Function& f_;
  DiagnosticEngine& diag_;
  std::unordered_set<std::string> bound_;
  int manual_depth_ = 0;
  int incore_depth_ = 0;
};

}  // namespace

void CheckTaskScopes(const Function& f, DiagnosticEngine& diag) {
  if (!f.body) return;
  TaskChecker c(f, diag);
  c.VisitStmt(f.body);
}

}  // namespace pypto::ir::verifier_detail
