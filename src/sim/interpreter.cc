// Statement and expression interpretation, function calls, host dispatch and
// the rank workers (see include/pypto/sim/interpreter.h).
#include "pypto/sim/interpreter.h"

#include <fmt/format.h>

#include <algorithm>

#include "pypto/core/check.h"
#include "pypto/ir/casting.h"
#include "pypto/sim/arg_directions.h"
#include "pypto/sim/host_sync.h"

namespace pypto::sim {

using namespace ir;

// Registered ops the executor deliberately does not run, each with the reason
// the "not supported by pypto-run" error gives. Every other registered op has a
// kernel (tests/unit/sim_coverage_test.cc checks both).
constexpr std::array<std::pair<OpHandle, std::string_view>, 0> kNotExecutable{};

const OpTable& GetOpTable() {
  static const OpTable* t = [] {
    auto* tab = new OpTable();
    RegisterTensorSemantics(*tab);
    RegisterTileSemantics(*tab);
    RegisterDistributedSemantics(*tab);
    RegisterCollectiveSemantics(*tab);
    RegisterArraySemantics(*tab);
    RegisterCubeSemantics(*tab);
    for (const auto& [h, why] : kNotExecutable) tab->unsupported[h.id] = why;
    return tab;
  }();
  return *t;
}

Interpreter::Interpreter(Context& c, const Program& p, Machine& m, Scheduler& s, RaceDetector& r,
                         Trace& tr, const RunOptions& o)
    : ctx(c), program(p), machine(m), sched(s), races(r), trace(tr), opts(o) {}

std::string Interpreter::FormatSpan(Span s) const {
  if (!s.IsKnown()) return "<unknown location>";
  return ctx.sources().FileName(s.file) + ":" + std::to_string(s.line);
}

std::string Interpreter::RenderError(Span s, const std::string& msg) const {
  DiagnosticEngine d(&ctx.sources());
  d.Error(s, msg);
  std::string r = d.Render();
  if (!r.empty() && r.back() != '\n') r += '\n';
  return r;
}

void Interpreter::Bind(Exec& ex, const Var* v, Value val) { ex.frame->env[v] = std::move(val); }

Value Interpreter::Eval(Exec& ex, const Expr* e) {
  switch (e->kind) {
    case NodeKind::kVar:
    case NodeKind::kIterArg: {
      auto it = ex.frame->env.find(static_cast<const Var*>(e));
      if (it != ex.frame->env.end()) {
        if (it->second.kind == Value::Kind::kFuture) return Force(ex, it->second, e->span);
        return it->second;
      }
      auto g = globals.find(static_cast<const Var*>(e));
      if (g != globals.end()) return g->second;
      // Reported at the statement that uses it: a Var node is shared by all its
      // uses, so its own span is the declaration (for a DSL dynamic dim, a line
      // of the decorator's generated prelude).
      const auto* v = static_cast<const Var*>(e);
      throw SimError(ex.stmt_span.IsKnown() ? ex.stmt_span : e->span,
                     fmt::format("use of variable '{}' (declared at {}) that has no value at "
                                 "run time; bind it (a dynamic dim binds from an input shape "
                                 "or from the shape of a tensor parameter that mentions it)",
                                 v->name_hint, FormatSpan(e->span)));
    }
    case NodeKind::kConstInt: {
      auto* c = static_cast<const ConstInt*>(e);
      return Value::Int(c->value, c->dtype());
    }
    case NodeKind::kConstFloat: {
      auto* c = static_cast<const ConstFloat*>(e);
      return Value::Float(RoundTo(c->dtype(), c->value), c->dtype());
    }
    case NodeKind::kConstBool:
      return Value::Bool(static_cast<const ConstBool*>(e)->value);
    case NodeKind::kBinaryExpr: {
      auto* b = static_cast<const BinaryExpr*>(e);
      Value l = Eval(ex, b->lhs);
      if (b->op == BinaryOp::kAnd && !l.AsBool()) return Value::Bool(false);
      if (b->op == BinaryOp::kOr && l.AsBool()) return Value::Bool(true);
      Value r = Eval(ex, b->rhs);
      const auto* st = As<ScalarType>(e->type);
      DataType dt =
          st ? st->dtype
             : (l.IsFloatScalar() || r.IsFloatScalar() ? DataType::kFP32 : DataType::kIndex);
      bool dz = false;
      Value out = ScalarBinary(b->op, l, r, dt, &dz);
      if (dz) throw SimError(e->span, "integer division or modulo by zero");
      return out;
    }
    case NodeKind::kUnaryExpr: {
      auto* u = static_cast<const UnaryExpr*>(e);
      Value x = Eval(ex, u->operand);
      const auto* st = As<ScalarType>(e->type);
      return ScalarUnary(u->op, x, st ? st->dtype : x.dtype);
    }
    case NodeKind::kCall:
      return EvalCall(ex, static_cast<const Call*>(e));
    case NodeKind::kMakeTuple: {
      auto* t = static_cast<const MakeTuple*>(e);
      std::vector<Value> v;
      v.reserve(t->elements.size());
      for (const Expr* x : t->elements) v.push_back(Eval(ex, x));
      return Value::Tuple(std::move(v));
    }
    case NodeKind::kTupleGetItem: {
      auto* g = static_cast<const TupleGetItem*>(e);
      Value t = Eval(ex, g->tuple);
      if (t.kind != Value::Kind::kTuple || g->index < 0 ||
          static_cast<size_t>(g->index) >= t.tuple->size())
        throw SimError(e->span, "tuple index " + std::to_string(g->index) + " out of range");
      return (*t.tuple)[g->index];
    }
    default:
      break;
  }
  throw SimError(e->span, "expression kind " + std::string(NodeKindName(e->kind)) +
                              " is not supported by pypto-run");
}

Value Interpreter::EvalCall(Exec& ex, const Call* c) {
  if (!c->op) {
    const Function* f = program.Find(c->callee);
    if (!f) throw SimError(c->span, "call of unknown function '" + c->callee + "'");
    std::vector<Value> args;
    args.reserve(c->args.size());
    for (const Expr* a : c->args) args.push_back(Eval(ex, a));
    if (f->IsHostSubWorker()) return CallSubWorker(ex, c, *f, std::move(args));
    if (FindAttr(c->attrs, "device") && ex.is_host()) return Dispatch(ex, c, *f, std::move(args));
    int64_t ts = trace.enabled() ? sched.Now(ex.t) : 0;
    Value r = CallFunction(ex, *f, std::move(args), c);
    TraceSpan(ex, f->name, kCatCall, ts, c->span);
    return r;
  }
  std::vector<Value> args;
  args.reserve(c->args.size());
  for (const Expr* a : c->args) args.push_back(Eval(ex, a));
  return CallOp(ex, c, args);
}

Value Interpreter::CallOp(Exec& ex, const Call* c, std::vector<Value>& args) {
  const OpTable& tab = GetOpTable();
  const std::string& name = c->op->name;
  const OpEntry& op = tab[c->op->handle];
  if (!op.fn) {
    std::string_view u = tab.unsupported[c->op->handle.id];
    std::string why = u.empty() ? "" : " (" + std::string(u) + ")";
    throw SimError(c->span, name + ": not supported by pypto-run" + why);
  }
  bool comm = op.kind == OpKind::kComm || op.kind == OpKind::kCollective;
  // A host-level collective becomes one task per rank of its domain.
  if (ex.is_host() && op.kind == OpKind::kCollective) {
    int alloc = -1;
    for (const Value& v : args)
      if (v.kind == Value::Kind::kTensor && v.tensor->IsWindow()) {
        if (alloc < 0) alloc = v.tensor->alloc;
      }
    if (alloc < 0) throw SimError(c->span, name + ": expects window-bound operands");
    const Domain& d = machine.domain(machine.DomainOf(alloc));
    std::vector<int> targets = d.devices;
    // A per-device dispatch (a builtin collective with attrs={"device": r}, made
    // by lower-host-tensor-collectives) runs on that one device of the domain.
    if (const Attr* da = FindAttr(c->attrs, "device")) {
      int64_t dev = da->kind == Attr::Kind::kInt    ? da->i
                    : da->kind == Attr::Kind::kExpr ? Eval(ex, da->expr).AsInt()
                                                    : -1;
      if (std::find(d.devices.begin(), d.devices.end(), dev) == d.devices.end())
        throw SimError(c->span, fmt::format("{}: device={} is not in the comm domain {} of its "
                                            "window operands",
                                            name, dev, d.Describe()));
      targets = {static_cast<int>(dev)};
    }
    for (int dev : targets) {
      Task t;
      t.call = c;
      t.args = args;
      t.clock = ex.t.clock;
      (*ex.queues)[dev].push_back(std::move(t));
    }
    ClockTick(ex.t);
    // Window-as-result: the collective returns the operand its registration
    // declares (OpDef::returned_arg).
    return args[static_cast<size_t>(c->op->returned_arg)];
  }
  if (ex.is_host() && op.kind == OpKind::kHostData)
    Flush(ex);  // the host touches tensor data: let queued device work land first
  if (comm) ex.Point();
  const Call* saved = ex.cur_call;
  ex.cur_call = c;
  if (!trace.enabled()) {
    Value r = op.fn(ex, *c, args);
    ex.cur_call = saved;
    return r;
  }
  // Traced: the op's semantics fill ex.note (wait time, notify id, bytes, cell).
  TraceNote note;
  TraceNote* outer = ex.note;
  ex.note = &note;
  int64_t ts = sched.Now(ex.t);
  const char* cat = op.kind == OpKind::kCollective ? kCatCollective : comm ? kCatComm : kCatOp;
  Value r;
  try {
    r = op.fn(ex, *c, args);
  } catch (const Aborted&) {  // torn down while blocked (a deadlock): the timeline marks it
    TraceSpan(ex, name, kCatAborted, ts, c->span);
    ex.note = outer;
    throw;
  } catch (...) {
    ex.note = outer;
    throw;
  }
  TraceSpan(ex, name, note.wait ? kCatWait : cat, ts, c->span);
  ex.note = outer;
  ex.cur_call = saved;
  return r;
}

void Interpreter::TraceSpan(Exec& ex, const std::string& name, const char* cat, int64_t ts,
                            Span sp) {
  if (!trace.enabled()) return;
  TraceEvent e;
  e.tid = ex.t.tid;
  e.name = name;
  e.cat = cat;
  e.ts = ts;
  e.dur = sched.Now(ex.t) - ts;
  e.where = FormatSpan(sp);
  if (ex.note && cat != kCatCall && cat != kCatTask) {
    e.id = ex.note->id;
    e.blocked = ex.note->blocked;
    e.bytes = ex.note->bytes;
    e.released_by = ex.note->released_by;
    e.cell = ex.note->cell;
  }
  trace.Event(std::move(e));
}

Value Interpreter::Dispatch(Exec& ex, const Call* c, const Function& f, std::vector<Value> args) {
  const Attr* da = FindAttr(c->attrs, "device");
  int64_t dev = 0;
  if (da->kind == Attr::Kind::kInt) {
    dev = da->i;
  } else if (da->kind == Attr::Kind::kExpr) {
    dev = Eval(ex, da->expr).AsInt();
  } else {
    throw SimError(c->span, "self." + f.name + ": device= must be an integer");
  }
  if (dev < 0 || dev >= machine.ranks())
    throw SimError(c->span, fmt::format("self.{}: device={} is out of range for --ranks {}", f.name,
                                        dev, machine.ranks()));
  for (const Value& v : args) machine.NoteDispatch(static_cast<int>(dev), v);
  Task t;
  t.fn = &f;
  t.call = c;
  t.args = args;
  for (Value& v : t.args)  // each host tensor argument becomes the device's own buffer
    if (v.kind == Value::Kind::kTensor && !v.tensor->IsWindow()) {
      auto dt = std::make_shared<TensorVal>(*v.tensor);
      dt->gm_base = dt->offset;
      v.tensor = dt;
    }
  t.clock = ex.t.clock;
  (*ex.queues)[dev].push_back(std::move(t));
  ClockTick(ex.t);
  // Results of an asynchronous dispatch: parameters returned as-is alias the
  // caller's arguments (Out tensors); anything else has no host value.
  // A returned value that is not a parameter (`out = self.kernel(a, f); return
  // out`) is taken to be the k-th Out / InOut tensor when the function returns
  // as many values as it has Out / InOut parameters (upstream's convention).
  std::vector<Value> outs;
  for (size_t i = 0; i < f.params.size() && i < args.size(); ++i)
    if (i < f.param_dirs.size() && f.param_dirs[i] != ParamDirection::kIn) outs.push_back(args[i]);
  std::vector<Value> rets;
  if (auto* seq = As<SeqStmt>(f.body); seq && !seq->stmts.empty())
    if (auto* ret = As<ReturnStmt>(seq->stmts.back()))
      for (size_t k = 0; k < ret->values.size(); ++k) {
        const Expr* e = ret->values[k];
        Value v;
        bool is_param = false;
        for (size_t i = 0; i < f.params.size(); ++i)
          if (e == f.params[i] && i < args.size()) {
            v = args[i];
            is_param = true;
          }
        if (!is_param && outs.size() == ret->values.size()) v = outs[k];
        rets.push_back(v);
      }
  if (rets.size() == 1) return rets[0];
  if (rets.empty()) return Value::None();
  return Value::Tuple(std::move(rets));
}

void Interpreter::Flush(Exec& host) {
  auto& q = *host.queues;
  // One rank per process (a transport): this process runs its own rank's
  // queue; the host tensors every rank's tasks write are merged afterwards.
  Transport* tp = machine.transport();
  if (tp) {
    if (std::all_of(q.begin(), q.end(), [](const auto& v) { return v.empty(); })) return;
    HostSync sync(q);
    RunQueues(host, tp->local_rank());
    std::vector<int> status = tp->AgreeStatus(0);
    if (int code = *std::max_element(status.begin(), status.end())) {
      machine.Fail(RemoteFailure(status), code);
      sched.Abort();
      throw Aborted{};
    }
    sync.Exchange(*tp);
    return;
  }
  RunQueues(host, -1);
}

std::string RemoteFailure(const std::vector<int>& status) {
  std::string who;
  int code = 0;
  for (size_t r = 0; r < status.size(); ++r)
    if (status[r]) {
      who += (who.empty() ? "" : ", ") + std::to_string(r);
      code = std::max(code, status[r]);
    }
  return fmt::format(
      "error: this rank stopped because the run failed on rank(s) {} (exit {}); their report "
      "names the cause\n",
      who, code);
}

void Interpreter::RunQueues(Exec& host, int only) {
  auto& q = *host.queues;
  std::vector<std::unique_ptr<LogicalThread>> kids;
  for (int d = 0; d < machine.ranks(); ++d) {
    if (q[d].empty() || (only >= 0 && d != only)) continue;
    auto k = std::make_unique<LogicalThread>();
    k->tid = sched.NewTid();
    k->name = "rank" + std::to_string(d);
    k->device = d;
    k->clock = host.t.clock;
    trace.ThreadName(k->tid, k->name, k->device);
    kids.push_back(std::move(k));
  }
  machine.InvalidateDomains();
  if (kids.empty()) {
    for (auto& v : q) v.clear();
    return;
  }
  sched.RunGroup(host.t, kids, [&](LogicalThread& k) {
    Exec ex(*this, k);
    try {
      RunWorker(ex, q[k.device]);
    } catch (const SimError& e) {
      machine.Fail(RenderError(e.span, e.what()) + "  note: on rank " + std::to_string(k.device) +
                       " (thread " + k.name + ")\n",
                   e.exit_code);
      sched.Abort();
    } catch (const Aborted&) {
      throw;
    } catch (const std::exception& e) {  // internal errors, allocation failures
      machine.Fail(std::string(e.what()) + "\n", 1);
      sched.Abort();
    }
  });
  for (auto& k : kids) ClockJoin(host.t.clock, k->clock);
  for (auto& v : q) v.clear();
}

void Interpreter::RunWorker(Exec& ex, std::vector<Task>& tasks) {
  for (Task& task : tasks) {
    ClockJoin(ex.t.clock, task.clock);
    ClockTick(ex.t);
    ex.deferred.clear();
    if (task.fn) {
      int64_t ts = trace.enabled() ? sched.Now(ex.t) : 0;
      CallFunction(ex, *task.fn, task.args, task.call);
      TraceSpan(ex, task.fn->name, kCatTask, ts, task.fn->span);
    } else {
      Frame f;
      ex.frame = &f;
      CallOp(ex, task.call, task.args);
      ex.frame = nullptr;
    }
    // defer_wait conditions: the task completes only once every counter is ready.
    WaitDeferred(ex, task.fn ? task.fn->name : "");
  }
}

void Interpreter::WaitDeferred(Exec& ex, const std::string& function) {
  for (const DeferredCond& dc : ex.deferred) {
    Machine& m = machine;
    auto cell = [&m, &dc] { return m.CellRead(dc.alloc, dc.device, dc.byte_off); };
    // Polled unsigned, as the hardware does: -1 reads as UINT32_MAX and satisfies.
    auto ready = [&cell, &dc] {
      return static_cast<uint32_t>(cell()) >= static_cast<uint32_t>(dc.expected);
    };
    TraceNote note;
    note.wait = true;
    TraceNote* outer = ex.note;
    ex.note = &note;
    int64_t ts = trace.enabled() ? sched.Now(ex.t) : 0;
    if (!ready()) {
      BlockInfo bi;
      bi.what = ops::Get(ops::kPldDeferWait).name + " (task completion)";
      bi.function = function;
      bi.span = dc.span;
      bi.describe = [cell, &dc] {
        return dc.what + " >= " + std::to_string(dc.expected) + " expected (Ge), actual " +
               std::to_string(cell());
      };
      try {
        sched.Block(ex.t, ready, std::move(bi));
      } catch (const Aborted&) {
        TraceSpan(ex, ops::Get(ops::kPldDeferWait).name, kCatAborted, ts, dc.span);
        ex.note = outer;
        throw;
      }
      note.blocked = trace.enabled() ? sched.Now(ex.t) - ts : 0;
    }
    if (machine.transport()) machine.transport()->Acquire();
    if (trace.enabled()) {
      note.released_by = trace.LastNotify(machine.WindowBytes(dc.alloc, dc.device) + dc.byte_off);
      note.cell = dc.what;
      TraceSpan(ex, ops::Get(ops::kPldDeferWait).name, kCatWait, ts, dc.span);
    }
    ex.note = outer;
    races.Acquire(ex.t, dc.alloc, dc.device, dc.byte_off);
  }
  ex.deferred.clear();
}

// A dynamic dim in a tensor parameter's shape is bound by the tensor passed
// (as the PTO emitter binds it: a hidden index argument read from the shape),
// so the body may use it as a value; two parameters giving it different
// extents are an error. Dims bound as globals (NR, input dims) are left alone.
void Interpreter::BindParamDims(Frame& fr, const Function& f, const ir::Call* call) {
  for (const Var* p : f.params) {
    const Value& v = fr.env[p];
    const TensorType* tt = AsTensorTypeLike(p->type);
    if (!tt || v.kind != Value::Kind::kTensor || v.tensor->rank() != tt->rank()) continue;
    for (size_t d = 0; d < tt->rank(); ++d) {
      const Var* dim = AsVarLike(tt->shape[d]);
      if (!dim || globals.count(dim)) continue;
      int64_t actual = v.tensor->shape[d];
      auto [it, fresh] = fr.env.emplace(dim, Value::Int(actual));
      if (!fresh && it->second.IsScalar() && it->second.AsInt() != actual)
        throw SimError(call ? call->span : f.span,
                       fmt::format("call of '{}': parameter '{}' has {} = {} in dim {}, but an "
                                   "earlier parameter gave {} = {}; one dynamic dim has one "
                                   "extent per call",
                                   f.name, p->name_hint, dim->name_hint, actual, d, dim->name_hint,
                                   it->second.AsInt()));
    }
  }
}

Value Interpreter::CallFunction(Exec& ex, const Function& f, std::vector<Value> args,
                                const ir::Call* call) {
  if (args.size() != f.params.size())
    throw SimError(ex.cur_call ? ex.cur_call->span : f.span,
                   fmt::format("call of '{}' with {} arguments; it takes {}", f.name, args.size(),
                               f.params.size()));
  if (ex.call_depth >= Exec::kMaxCallDepth)
    throw SimError(call ? call->span : f.span,
                   fmt::format("call of '{}' exceeds the call depth limit of {} nested calls "
                               "(recursion? the verifier rejects call cycles)",
                               f.name, Exec::kMaxCallDepth));
  struct DepthGuard {
    int& d;
    explicit DepthGuard(int& x) : d(x) { ++d; }
    ~DepthGuard() { --d; }
  } depth_guard(ex.call_depth);
  Frame fr;
  fr.fn = &f;
  static std::atomic<uint64_t> next_call{1};
  bool guard = f.IsKernel() || (call && FindAttr(call->attrs, "device"));
  uint64_t call_id = guard ? next_call++ : 0;
  for (size_t i = 0; i < args.size(); ++i) {
    // An integer scalar passed to an integer parameter of another width
    // converts (wraps) to the parameter's dtype, as the verifier allows.
    const auto* ps = ir::As<ir::ScalarType>(f.params[i]->type);
    if (ps && args[i].IsScalar() && IsInteger(args[i].dtype) && IsInteger(ps->dtype) &&
        args[i].dtype != ps->dtype)
      args[i] = CastScalar(args[i], ps->dtype);
    // A kernel call or a device dispatch honours its parameters' directions.
    if (guard) args[i] = GuardArgument(f, i, args[i], call ? call->span : f.span, call_id);
    fr.env[f.params[i]] = std::move(args[i]);
  }
  BindParamDims(fr, f, call);
  Frame* saved = ex.frame;
  ex.frame = &fr;
  if (f.body) ExecStmt(ex, f.body);
  ex.frame = saved;
  if (guard)
    for (Value& v : fr.ret) v = ReleaseGuards(v, call_id);
  if (fr.ret.empty()) return Value::None();
  if (fr.ret.size() == 1) return fr.ret[0];
  return Value::Tuple(std::move(fr.ret));
}

Interpreter::Flow Interpreter::ExecStmt(Exec& ex, const Stmt* s) {
  struct StmtGuard {
    Span& cur;
    Span saved;
    StmtGuard(Span& c, Span s) : cur(c), saved(c) {
      if (s.IsKnown()) cur = s;
    }
    ~StmtGuard() { cur = saved; }
  } stmt_guard(ex.stmt_span, s->span);
  switch (s->kind) {
    case NodeKind::kSeqStmt:
      for (const Stmt* x : static_cast<const SeqStmt*>(s)->stmts) {
        Flow f = ExecStmt(ex, x);
        if (f != Flow::kNormal) return f;
      }
      return Flow::kNormal;
    case NodeKind::kAssignStmt: {
      auto* a = static_cast<const AssignStmt*>(s);
      if (ex.manual && SubmitTask(ex, s)) return Flow::kNormal;
      Value v = ex.manual ? EvalLazy(ex, a->value) : Eval(ex, a->value);
      // Name window allocations after the LHS for reports.
      if (v.kind == Value::Kind::kTensor && v.tensor->name.empty()) {
        auto t = std::make_shared<TensorVal>(*v.tensor);
        t->name = a->var->name_hint;
        v.tensor = t;
      }
      Bind(ex, a->var, std::move(v));
      return Flow::kNormal;
    }
    case NodeKind::kEvalStmt:
      if (ex.manual && SubmitTask(ex, s)) return Flow::kNormal;
      Eval(ex, static_cast<const EvalStmt*>(s)->expr);
      return Flow::kNormal;
    case NodeKind::kReturnStmt: {
      auto* r = static_cast<const ReturnStmt*>(s);
      ex.frame->ret.clear();
      for (const Expr* e : r->values) ex.frame->ret.push_back(Eval(ex, e));
      return Flow::kReturn;
    }
    case NodeKind::kYieldStmt: {
      auto* y = static_cast<const YieldStmt*>(s);
      std::vector<Value> v;
      for (const Expr* e : y->values) v.push_back(ex.manual ? EvalLazy(ex, e) : Eval(ex, e));
      ex.frame->yielded = std::move(v);
      return Flow::kNormal;
    }
    case NodeKind::kIfStmt: {
      auto* i = static_cast<const IfStmt*>(s);
      bool c = Eval(ex, i->cond).AsBool();
      ex.frame->yielded.clear();
      Flow f = Flow::kNormal;
      if (c) {
        f = ExecStmt(ex, i->then_body);
      } else if (i->else_body) {
        f = ExecStmt(ex, i->else_body);
      }
      if (f != Flow::kNormal) return f;
      if (!i->return_vars.empty()) {
        if (ex.frame->yielded.size() != i->return_vars.size())
          throw SimError(s->span, "if: branch yielded " + std::to_string(ex.frame->yielded.size()) +
                                      " values; expected " + std::to_string(i->return_vars.size()));
        for (size_t k = 0; k < i->return_vars.size(); ++k)
          Bind(ex, i->return_vars[k], ex.frame->yielded[k]);
      }
      ex.frame->yielded.clear();
      return Flow::kNormal;
    }
    case NodeKind::kForStmt:
      return ExecFor(ex, static_cast<const ForStmt*>(s));
    case NodeKind::kWhileStmt:
      return ExecWhile(ex, static_cast<const WhileStmt*>(s));
    case NodeKind::kBreakStmt:
      return Flow::kBreak;
    case NodeKind::kContinueStmt:
      return Flow::kContinue;
    case NodeKind::kInCoreScopeStmt:
      if (ex.manual && SubmitTask(ex, s)) return Flow::kNormal;
      return ExecStmt(ex, static_cast<const ScopeStmt*>(s)->body);
    case NodeKind::kHierarchyScopeStmt:
      return ExecStmt(ex, static_cast<const ScopeStmt*>(s)->body);
    case NodeKind::kManualScopeStmt:
      return ExecManualScope(ex, static_cast<const ManualScopeStmt*>(s));
    case NodeKind::kCommDomainScopeStmt: {
      auto* d = static_cast<const CommDomainScopeStmt*>(s);
      std::vector<int> devs(d->devices.begin(), d->devices.end());
      machine.SetExplicitDomain(d->slots, devs);
      return ExecStmt(ex, d->body);
    }
    case NodeKind::kSpmdScopeStmt: {
      auto* sp = static_cast<const SpmdScopeStmt*>(s);
      int64_t n = Eval(ex, sp->core_num).AsInt();
      ExecSpawn(ex, sp, n, false, nullptr);
      return Flow::kNormal;
    }
    case NodeKind::kSplitAivScopeStmt: {
      auto* sa = static_cast<const SplitAivScopeStmt*>(s);
      ExecSpawn(ex, sa, sa->count, true, sa->var);
      return Flow::kNormal;
    }
    default:
      break;
  }
  throw SimError(s->span, "statement kind " + std::string(NodeKindName(s->kind)) +
                              " is not supported by pypto-run");
}

void Interpreter::ExecSpawn(Exec& ex, const ScopeStmt* s, int64_t n, bool split, const Var* var) {
  if (n <= 0 || n > 1024)
    throw SimError(s->span, fmt::format("scope: {} threads requested; expected 1..1024", n));
  std::vector<std::unique_ptr<LogicalThread>> kids;
  for (int64_t i = 0; i < n; ++i) {
    auto k = std::make_unique<LogicalThread>();
    k->tid = sched.NewTid();
    k->name = ex.t.name + (split ? ".aiv" : ".block") + std::to_string(i);
    k->device = ex.t.device;
    k->block_idx = split ? ex.t.block_idx : i;
    k->block_num = split ? ex.t.block_num : n;
    k->subblock_idx = split ? i : 0;
    k->subblock_num = split ? n : 1;
    k->clock = ex.t.clock;
    trace.ThreadName(k->tid, k->name, k->device);
    kids.push_back(std::move(k));
  }
  ClockTick(ex.t);
  Frame* parent = ex.frame;
  std::vector<std::string> errors;
  std::mutex emu;
  sched.RunGroup(ex.t, kids, [&](LogicalThread& k) {
    Exec kx(*this, k);
    Frame fr = *parent;
    kx.frame = &fr;
    if (var) fr.env[var] = Value::Int(k.subblock_idx, DataType::kIndex);
    try {
      ExecStmt(kx, s->body);
      WaitDeferred(kx, kx.FunctionName());
    } catch (const SimError& e) {
      machine.Fail(RenderError(e.span, e.what()) + "  note: on rank " + std::to_string(k.device) +
                       " (thread " + k.name + ")\n",
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
}

Interpreter::Flow Interpreter::ExecFor(Exec& ex, const ForStmt* s) {
  int64_t start = Eval(ex, s->start).AsInt(), stop = Eval(ex, s->stop).AsInt();
  int64_t step = s->step ? Eval(ex, s->step).AsInt() : 1;
  if (step == 0) throw SimError(s->span, "for: step must not be 0");
  std::vector<Value> cur;
  for (const IterArg* ia : s->iter_args)
    cur.push_back(ex.manual ? EvalLazy(ex, ia->init) : Eval(ex, ia->init));
  const auto* lt = As<ScalarType>(s->loop_var->type);
  DataType ldt = lt ? lt->dtype : DataType::kIndex;
  // The increment is overflow-checked: a range ending near INT64_MAX stops
  // instead of wrapping around.
  bool wrapped = false;
  for (int64_t i = start; !wrapped && (step > 0 ? i < stop : i > stop);
       wrapped = __builtin_add_overflow(i, step, &i)) {
    if (sched.aborted()) throw Aborted{};  // torn down (failure, deadlock, cancel)
    if (!sched.Tick()) throw StepBudgetError(s->span, sched.max_steps());
    Bind(ex, s->loop_var, Value::Int(i, ldt));
    for (size_t k = 0; k < s->iter_args.size(); ++k) Bind(ex, s->iter_args[k], cur[k]);
    ex.frame->yielded.clear();
    Flow f = ExecStmt(ex, s->body);
    if (f == Flow::kReturn) return f;
    if (f == Flow::kBreak) break;
    if (f == Flow::kContinue && ex.frame->yielded.size() != cur.size()) continue;
    if (!s->iter_args.empty()) {
      if (ex.frame->yielded.size() != cur.size())
        throw SimError(s->span, "for: body yielded " + std::to_string(ex.frame->yielded.size()) +
                                    " values; expected " + std::to_string(cur.size()));
      cur = ex.frame->yielded;
    }
    ex.frame->yielded.clear();
  }
  for (size_t k = 0; k < s->return_vars.size() && k < cur.size(); ++k)
    Bind(ex, s->return_vars[k], cur[k]);
  return Flow::kNormal;
}

Interpreter::Flow Interpreter::ExecWhile(Exec& ex, const WhileStmt* s) {
  std::vector<Value> cur;
  for (const IterArg* ia : s->iter_args)
    cur.push_back(ex.manual ? EvalLazy(ex, ia->init) : Eval(ex, ia->init));
  for (int64_t guard = 0;; ++guard) {
    if (!sched.Tick()) throw StepBudgetError(s->span, sched.max_steps());
    for (size_t k = 0; k < s->iter_args.size(); ++k) Bind(ex, s->iter_args[k], cur[k]);
    if (s->cond && !Eval(ex, s->cond).AsBool()) break;
    ex.frame->yielded.clear();
    Flow f = ExecStmt(ex, s->body);
    if (f == Flow::kReturn) return f;
    if (f == Flow::kBreak) break;
    if (!s->iter_args.empty() && ex.frame->yielded.size() == cur.size()) cur = ex.frame->yielded;
    ex.frame->yielded.clear();
    if (sched.aborted()) throw Aborted{};
  }
  for (size_t k = 0; k < s->return_vars.size() && k < cur.size(); ++k)
    Bind(ex, s->return_vars[k], cur[k]);
  return Flow::kNormal;
}

void Interpreter::CheckSignalZero(int alloc, const std::string& when) {
  Allocation& a = machine.alloc(alloc);
  const Domain& d = machine.domain(machine.DomainOf(alloc));
  std::vector<int64_t> shape = a.signal_shape;
  if (shape.empty()) shape = {a.bytes / 4};
  int64_t cells = 1;
  for (int64_t x : shape) cells *= x;
  cells = std::min<int64_t>(cells, a.bytes / 4);
  for (int dev : d.devices)
    for (int64_t c = 0; c < cells && machine.IsLocal(dev); ++c) {  // each process: its rank
      int32_t v = machine.CellRead(alloc, dev, 4 * c);
      if (v == 0) continue;
      std::vector<int64_t> idx(shape.size());
      int64_t rem = c;
      for (size_t k = shape.size(); k-- > 0;) {
        idx[k] = rem % shape[k];
        rem /= shape[k];
      }
      std::lock_guard<std::mutex> l(residue_mu);
      if (residue_reports.size() < 50)
        residue_reports.push_back(fmt::format(
            "error: signal residue {}: signal '{}' (window '{}') on rank {} cell {} = {}; a "
            "self-clearing protocol leaves every cell 0",
            when, a.signal_view.empty() ? a.name : a.signal_view, a.name, dev, ShapeString(idx),
            v));
    }
}

}  // namespace pypto::sim
