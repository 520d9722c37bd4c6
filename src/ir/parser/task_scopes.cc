// Task ids of pl.at tasks: `with pl.at(level=pl.Level.CORE_GROUP, deps=[a, b]) as t:`.
// A task id is a name, not a value: `as t` records attr "task_id" = "t" on the
// InCoreScopeStmt and `deps=[a, b]` records attr "deps" = ["a", "b"]. Names must
// be bound by an earlier `as` in the same function (program order, so a task
// never depends on itself or a later task); at run time a name denotes the most
// recent task started under it (see ManualScopeStmt and docs/executor.md).
#include <fmt/format.h>

#include "lower.h"
#include "text_names.h"

namespace pypto::ir::parser {

bool Lowerer::LowerTaskDeps(const PyExpr* deps, AttrList* attrs) {
  if (deps->kind != EK::kList && deps->kind != EK::kTuple) {
    Error(deps->span,
          "pl.at: deps= must be a list of task ids, e.g. deps=[t] where `t` is bound "
          "by an earlier `with pl.at(...) as t:`");
    return false;
  }
  bool ok = true;
  std::vector<Attr> names;
  for (const PyExpr* d : deps->items) {
    if (d->kind != EK::kName) {
      Error(d->span,
            "pl.at: deps= entries must be task id names bound by `with pl.at(...) as "
            "name:`");
      ok = false;
      continue;
    }
    if (task_ids_.count(d->str)) {
      names.push_back(Attr::Str(d->str));
    } else if (LookupVar(d->str)) {
      Error(d->span, fmt::format("pl.at: deps=: '{}' is a variable, not a task id; task ids are "
                                 "bound by `with pl.at(...) as {}:`",
                                 d->str, d->str));
      ok = false;
    } else {
      Error(d->span, fmt::format("pl.at: deps=: '{}' is not a task id bound before this scope; "
                                 "bind it with `with pl.at(...) as {}:` first",
                                 d->str, d->str));
      ok = false;
    }
  }
  if (ok) attrs->push_back({"deps", Attr::List(std::move(names))});
  return ok;
}

bool Lowerer::LowerTaskTarget(const PyExpr* target, AttrList* attrs) {
  if (target->kind != EK::kName) {
    Error(target->span, "pl.at: `as` takes one name, e.g. `with pl.at(...) as t:`");
    return false;
  }
  if (text::IsReservedName(target->str)) {
    Error(target->span, fmt::format("'{}' cannot be used as a task id name", target->str));
    return false;
  }
  if (LookupVar(target->str)) {
    Error(target->span, fmt::format("pl.at: task id '{}' would shadow the variable '{}'; "
                                    "choose another name",
                                    target->str, target->str));
    return false;
  }
  task_ids_[target->str] = target->span;
  attrs->push_back({"task_id", Attr::Str(target->str)});
  return true;
}

}  // namespace pypto::ir::parser
