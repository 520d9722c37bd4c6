// `with pl.manual_scope():` in the executor: explicit-dependency task mode.
//
// While the scope's body runs, the orchestration thread only SUBMITS tasks: a
// pl.at(level=CORE_GROUP) scope (before outlining) or a kernel call statement
// (after) becomes a ManualTask holding what it needs (a copy of the frame, or
// the evaluated arguments); the values it defines are bound to futures. Other
// statements (loops, scalar code) run as usual, passing futures through
// variables, yields and tuple items. Leaving the scope starts every task as its
// own logical thread and waits for all of them (the scope's end is a join):
//  - a task first waits until every task named in its deps=[...] has completed
//    (a name denotes the most recent task submitted under it in this scope;
//    a name not submitted in this scope denotes a task that already finished);
//  - tasks without a dependency do not wait for earlier tasks;
//  - reading a future waits for the task that produces it (a data dependency);
//  - a task completes once its defer_wait conditions hold.
// A dependency that can never be met (a deps cycle through signals, a defer_wait
// nobody satisfies) is a deadlock, reported by the scheduler with every blocked
// task. Orchestration code in the scope that reads a task result before the
// scope ends is an error (the task has not run yet).
#include <fmt/format.h>

#include <deque>
#include <unordered_set>

#include "pypto/ir/casting.h"
#include "pypto/ir/visitor.h"
#include "pypto/sim/interpreter.h"

namespace pypto::sim {

using namespace ir;

struct ManualTask {
  const InCoreScopeStmt* scope = nullptr;  // before outlining
  const Function* fn = nullptr;            // after: the launched kernel
  std::vector<Value> args;
  Frame frame;                   // scope tasks: the submitter's frame at submission
  std::vector<const Var*> defs;  // scope tasks: the values defined in the body
  std::vector<std::shared_ptr<FutureCell>> cells;  // one per def; call tasks: the result
  std::vector<size_t> deps;
  std::string name;
  std::string desc;  // "task 'wait_tid' (f.pir:12)"
  std::string function;
  Span span;
  std::atomic<bool> done{false};
  std::vector<uint32_t> clock;
};

struct ManualRun {
  std::deque<ManualTask> tasks;                    // a deque: tasks never move (they hold atomics)
  std::unordered_map<std::string, size_t> latest;  // task id -> most recent task
};

namespace {

constexpr size_t kMaxTasks = 4096;

// Values a pl.at body defines (they stay visible after the scope).
class DefCollector : public IRVisitor {
 public:
  std::vector<const Var*> defs;
  std::unordered_set<const Var*> seen;
  void VisitVarDef(const Var* v) override {
    if (v && !Isa<IterArg>(v) && seen.insert(v).second) defs.push_back(v);
  }
};

Value FutureOf(std::shared_ptr<FutureCell> c) {
  Value v;
  v.kind = Value::Kind::kFuture;
  v.future = std::move(c);
  return v;
}

}  // namespace

Value Interpreter::Force(Exec& ex, const Value& v, Span at) {
  if (v.kind != Value::Kind::kFuture) return v;
  std::vector<int64_t> path;
  FutureCell* root = v.future.get();
  while (root->parent) {
    path.push_back(root->index);
    root = root->parent.get();
  }
  if (!root->ready.load(std::memory_order_acquire)) {
    if (ex.manual)
      throw SimError(at, "pl.manual_scope: " + root->task +
                             " has not run yet: inside a manual scope the orchestration code "
                             "only submits tasks, so it cannot read a task's result; read it "
                             "after the scope or in a task");
    BlockInfo bi;
    bi.what = "task result";
    bi.function = ex.FunctionName();
    bi.span = at;
    bi.describe = [root] { return "waiting for the result of " + root->task; };
    sched.Block(
        ex.t, [root] { return root->ready.load(std::memory_order_acquire); }, std::move(bi));
  }
  ClockJoin(ex.t.clock, root->clock);
  Value r = root->v;
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    r = Force(ex, r, at);
    if (r.kind != Value::Kind::kTuple || *it < 0 || static_cast<size_t>(*it) >= r.tuple->size())
      throw SimError(at, "tuple index " + std::to_string(*it) + " out of range");
    r = (*r.tuple)[*it];
  }
  return Force(ex, r, at);
}

Value Interpreter::EvalLazy(Exec& ex, const Expr* e) {
  if (e->kind == NodeKind::kVar || e->kind == NodeKind::kIterArg) {
    auto it = ex.frame->env.find(static_cast<const Var*>(e));
    if (it != ex.frame->env.end()) return it->second;
  } else if (auto* g = As<TupleGetItem>(e)) {
    Value t = EvalLazy(ex, g->tuple);
    if (t.kind == Value::Kind::kFuture) {
      auto c = std::make_shared<FutureCell>();
      c->parent = t.future;
      c->index = g->index;
      return FutureOf(std::move(c));
    }
  }
  return Eval(ex, e);
}

bool Interpreter::SubmitTask(Exec& ex, const Stmt* s) {
  const auto* ic = As<InCoreScopeStmt>(s);
  const Call* call = nullptr;
  const Var* result = nullptr;
  if (!ic) {
    if (auto* a = As<AssignStmt>(s)) {
      call = As<Call>(a->value);
      result = a->var;
    } else if (auto* ev = As<EvalStmt>(s)) {
      call = As<Call>(ev->expr);
    }
    if (!call || call->op || FindAttr(call->attrs, "device")) return false;
  }
  ManualRun& run = *ex.manual;
  if (run.tasks.size() >= kMaxTasks)
    throw SimError(s->span, fmt::format("pl.manual_scope: more than {} tasks in one manual "
                                        "scope are not supported by pypto-run",
                                        kMaxTasks));
  const AttrList& attrs = ic ? ic->attrs : call->attrs;
  std::vector<size_t> deps;
  if (const Attr* d = FindAttr(attrs, "deps"))
    for (const Attr& n : d->list) {
      auto it = run.latest.find(n.s);
      if (it != run.latest.end()) deps.push_back(it->second);
    }
  const Attr* tid = FindAttr(attrs, "task_id");
  const Function* callee = ic ? nullptr : program.Find(call->callee);
  if (!ic && !callee) throw SimError(call->span, "call of unknown function '" + call->callee + "'");
  // An outlined task's kernel keeps the scope's name_hint.
  const Attr* hint = FindAttr(ic ? ic->attrs : callee->attrs, "name_hint");
  size_t index = run.tasks.size();
  ManualTask& t = run.tasks.emplace_back();
  t.deps = std::move(deps);
  t.span = s->span;
  t.function = ex.FunctionName();
  t.name = tid && tid->kind == Attr::Kind::kString     ? tid->s
           : hint && hint->kind == Attr::Kind::kString ? hint->s
           : ic                                        ? "pl.at"
                                                       : "self." + call->callee;
  t.desc = fmt::format("task '{}' ({})", t.name, FormatSpan(s->span));
  if (ic) {
    t.scope = ic;
    t.frame = *ex.frame;
    DefCollector dc;
    dc.VisitStmt(ic->body);
    t.defs = std::move(dc.defs);
    for (const Var* v : t.defs) {
      auto c = std::make_shared<FutureCell>();
      c->task = t.desc;
      t.cells.push_back(c);
      Bind(ex, v, FutureOf(std::move(c)));
    }
  } else {
    t.fn = callee;
    for (const Expr* a : call->args) t.args.push_back(EvalLazy(ex, a));
    auto c = std::make_shared<FutureCell>();
    c->task = t.desc;
    t.cells.push_back(c);
    if (result) Bind(ex, result, FutureOf(std::move(c)));
  }
  if (tid && tid->kind == Attr::Kind::kString) run.latest[tid->s] = index;
  return true;
}

void Interpreter::RunTask(Exec& kx, ManualRun& run, size_t index) {
  ManualTask& t = run.tasks[index];
  for (size_t d : t.deps) {
    ManualTask& dt = run.tasks[d];
    if (!dt.done.load(std::memory_order_acquire)) {
      BlockInfo bi;
      bi.what = "deps=[" + dt.name + "] of task '" + t.name + "'";
      bi.function = t.function;
      bi.span = t.span;
      bi.describe = [&dt] { return dt.desc + " has not completed"; };
      sched.Block(
          kx.t, [&dt] { return dt.done.load(std::memory_order_acquire); }, std::move(bi));
    }
    ClockJoin(kx.t.clock, dt.clock);
  }
  ClockTick(kx.t);
  int64_t ts = trace.enabled() ? sched.Now(kx.t) : 0;
  if (t.scope) {
    kx.frame = &t.frame;
    ExecStmt(kx, t.scope->body);
    WaitDeferred(kx, t.function);
    for (size_t k = 0; k < t.defs.size(); ++k) {
      auto it = t.frame.env.find(t.defs[k]);
      if (it != t.frame.env.end()) t.cells[k]->v = it->second;
    }
  } else {
    Frame fr;
    kx.frame = &fr;
    std::vector<Value> args;
    args.reserve(t.args.size());
    for (const Value& a : t.args) args.push_back(Force(kx, a, t.span));
    t.cells[0]->v = CallFunction(kx, *t.fn, std::move(args));
    WaitDeferred(kx, t.fn->name);
  }
  TraceSpan(kx, t.name, kCatTask, ts, t.span);
  t.clock = kx.t.clock;
  for (auto& c : t.cells) {
    c->clock = t.clock;
    c->ready.store(true, std::memory_order_release);
  }
  t.done.store(true, std::memory_order_release);
  sched.Wake();
}

Interpreter::Flow Interpreter::ExecManualScope(Exec& ex, const ManualScopeStmt* s) {
  if (ex.manual)
    throw SimError(s->span, "pl.manual_scope: cannot be nested inside another pl.manual_scope");
  ManualRun run;
  ex.manual = &run;
  Flow f = Flow::kNormal;
  try {
    f = ExecStmt(ex, s->body);
  } catch (...) {
    ex.manual = nullptr;
    throw;
  }
  ex.manual = nullptr;
  if (run.tasks.empty()) return f;
  std::vector<std::unique_ptr<LogicalThread>> kids;
  std::unordered_map<const LogicalThread*, size_t> index;
  for (size_t i = 0; i < run.tasks.size(); ++i) {
    auto k = std::make_unique<LogicalThread>();
    k->tid = sched.NewTid();
    k->name = ex.t.name + ".task" + std::to_string(i);
    k->device = ex.t.device;
    k->block_idx = ex.t.block_idx;
    k->block_num = ex.t.block_num;
    k->subblock_idx = ex.t.subblock_idx;
    k->subblock_num = ex.t.subblock_num;
    k->clock = ex.t.clock;
    trace.ThreadName(k->tid, k->name + " " + run.tasks[i].name, k->device);
    index[k.get()] = i;
    kids.push_back(std::move(k));
  }
  ClockTick(ex.t);
  sched.RunGroup(ex.t, kids, [&](LogicalThread& k) {
    Exec kx(*this, k);
    try {
      RunTask(kx, run, index.at(&k));
    } catch (const SimError& e) {
      machine.Fail(RenderError(e.span, e.what()) + "  note: on rank " + std::to_string(k.device) +
                       " (thread " + k.name + ", " + run.tasks[index.at(&k)].desc + ")\n",
                   e.exit_code);
      sched.Abort();
    } catch (const Aborted&) {
      throw;
    } catch (const std::exception& e) {
      machine.Fail(std::string(e.what()) + "\n", 1);
      sched.Abort();
    }
  });
  for (auto& k : kids) ClockJoin(ex.t.clock, k->clock);
  return f;
}

}  // namespace pypto::sim
