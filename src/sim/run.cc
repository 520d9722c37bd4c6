// RunProgram: binds the entry's parameters to host arrays (dynamic dims from
// input shapes, world-shaped leading dims from --ranks), runs the host
// orchestrator (or dispatches a non-host entry to every rank), then gathers
// Out/InOut parameters, detector findings, stats and the trace.
#include "pypto/sim/run.h"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <fstream>
#include <random>
#include <thread>

#include "pypto/core/check.h"
#include "pypto/core/checked_int.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/verifier.h"
#include "pypto/sim/interpreter.h"
#include "pypto/sim/memory_limit.h"
#include "pypto/sim/semantics_util.h"
#include "pypto/sim/timeline_html.h"

namespace pypto::sim {

using namespace ir;

namespace {

// Digits only, at most 19 (fits in int64).
bool ParseDigits(const std::string& s, uint64_t* v) {
  if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  *v = std::stoull(s);
  return true;
}

}  // namespace

bool ParseSchedule(const std::string& text, RunOptions* o, std::string* error) {
  if (text == "parallel") {
    o->schedule = Schedule::kParallel;
    return true;
  }
  uint64_t v = 0;
  if (text.rfind("random:", 0) == 0 && ParseDigits(text.substr(7), &v)) {
    o->schedule = Schedule::kRandom;
    o->seed = v;
    return true;
  }
  if (text.rfind("pct:", 0) == 0) {
    std::vector<std::string> parts;
    size_t b = 4;
    for (;;) {
      size_t e = text.find(':', b);
      parts.push_back(text.substr(b, e == std::string::npos ? std::string::npos : e - b));
      if (e == std::string::npos) break;
      b = e + 1;
    }
    uint64_t seed = 0, depth = kDefaultPctDepth, steps = kDefaultPctSteps;
    bool ok = parts.size() <= 3 && ParseDigits(parts[0], &seed);
    if (ok && parts.size() >= 2) ok = ParseDigits(parts[1], &depth) && depth >= 1 && depth <= 64;
    if (ok && parts.size() >= 3) ok = ParseDigits(parts[2], &steps) && steps >= 1;
    if (ok) {
      o->schedule = Schedule::kPct;
      o->seed = seed;
      o->pct_depth = static_cast<int>(depth);
      o->pct_steps = static_cast<int64_t>(steps);
      return true;
    }
  }
  *error = "bad --schedule '" + text +
           "'; expected parallel, random:SEED or pct:SEED[:DEPTH[:STEPS]] (DEPTH 1..64, default " +
           std::to_string(kDefaultPctDepth) + "; STEPS >= 1, default " +
           std::to_string(kDefaultPctSteps) + ")";
  return false;
}

std::string ScheduleString(const RunOptions& o) {
  switch (o.schedule) {
    case Schedule::kParallel:
      return "parallel";
    case Schedule::kRandom:
      return "random:" + std::to_string(o.seed);
    case Schedule::kPct:
      return "pct:" + std::to_string(o.seed) + ":" + std::to_string(o.pct_depth) + ":" +
             std::to_string(o.pct_steps);
  }
  return "parallel";
}

namespace {

struct UsageError {
  std::string msg;
};
struct UserError {
  std::string msg;
};

class Binder {
 public:
  Binder(Interpreter& in, int ranks) : in_(in), ranks_(ranks) {}

  // Evaluates a shape dim; nullopt when it mentions an unbound dynamic dim.
  std::optional<int64_t> Dim(const Expr* e) {
    if (auto* c = As<ConstInt>(e)) return c->value;
    if (auto* v = AsVarLike(e)) {
      auto it = in_.globals.find(v);
      if (it == in_.globals.end()) return std::nullopt;
      return it->second.AsInt();
    }
    if (auto* b = As<BinaryExpr>(e)) {
      auto l = Dim(b->lhs), r = Dim(b->rhs);
      if (!l || !r) return std::nullopt;
      bool dz = false;
      Value v = ScalarBinary(b->op, Value::Int(*l), Value::Int(*r), DataType::kIndex, &dz);
      if (dz) return std::nullopt;
      return v.AsInt();
    }
    return std::nullopt;
  }
  // Binds Var / Var*c / c*Var / Var+c dims from an actual extent.
  void Solve(const Expr* e, int64_t actual) {
    if (auto* v = AsVarLike(e)) {
      if (!in_.globals.count(v)) in_.globals[v] = Value::Int(actual);
      return;
    }
    auto* b = As<BinaryExpr>(e);
    if (!b) return;
    auto l = Dim(b->lhs), r = Dim(b->rhs);
    if (l && r) return;
    const Expr* unk = l ? b->rhs : b->lhs;
    std::optional<int64_t> k = l ? l : r;
    if (!k || !AsVarLike(unk)) return;
    if (b->op == BinaryOp::kMul && *k != 0 && actual % *k == 0) Solve(unk, actual / *k);
    if (b->op == BinaryOp::kAdd) Solve(unk, actual - *k);
    if (b->op == BinaryOp::kSub && !l) Solve(unk, actual + *k);
  }
  std::string Bindings(const Type* t) {
    std::string s;
    std::vector<const Var*> seen;
    std::function<void(const Expr*)> walk = [&](const Expr* e) {
      if (auto* v = AsVarLike(e)) {
        if (std::find(seen.begin(), seen.end(), v) != seen.end()) return;
        seen.push_back(v);
        auto it = in_.globals.find(v);
        if (it != in_.globals.end())
          s += (s.empty() ? "" : ", ") + v->name_hint + "=" + std::to_string(it->second.AsInt());
      } else if (auto* b = As<BinaryExpr>(e)) {
        walk(b->lhs);
        walk(b->rhs);
      }
    };
    if (auto* tt = AsTensorTypeLike(t))
      for (const Expr* d : tt->shape) walk(d);
    return s.empty() ? "" : " with " + s;
  }

 private:
  Interpreter& in_;
  int ranks_;
};

HostArray ToHost(const TensorVal& t, Machine& m, bool world) {
  HostArray h;
  h.dtype = t.dtype;
  int eb = DTypeBytes(t.dtype);
  if (!world) {
    h.shape = t.shape;
    h.bytes.assign(t.host->data, t.host->data + t.NumElements() * eb);
    return h;
  }
  h.shape = t.shape;
  h.shape.insert(h.shape.begin(), m.ranks());
  size_t per = static_cast<size_t>(t.NumElements()) * eb;
  h.bytes.resize(per * static_cast<size_t>(m.ranks()));
  for (int d = 0; d < m.ranks() && per > 0; ++d)
    m.ReadWindow(t.alloc, d, 0, &h.bytes[d * per], per);
  return h;
}

void RandomFill(std::vector<uint8_t>& bytes, DataType dt, uint64_t seed, const std::string& name) {
  uint64_t h = 1469598103934665603ull;
  for (char c : name) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  std::mt19937_64 rng(seed ^ h);
  int eb = DTypeBytes(dt);
  for (size_t i = 0; i + eb <= bytes.size(); i += eb) {
    double v = dt == DataType::kBool ? static_cast<double>(rng() % 2)
                                     : static_cast<double>(static_cast<int64_t>(rng() % 9) - 4);
    if (!IsSignedInt(dt) && !IsFloat(dt)) v = std::abs(v);
    StoreElem(bytes.data() + i, dt, v);
  }
}

const Function* FindEntry(const Program& p, const std::string& entry) {
  if (!entry.empty()) {
    const Function* f = p.Find(entry);
    if (!f)
      throw UsageError{"--entry '" + entry + "': no such function in program '" + p.name + "'"};
    return f;
  }
  for (const Function* f : p.functions)
    if (f->IsHostOrchestrator()) return f;
  if (p.functions.size() == 1) return p.functions[0];
  throw UsageError{"program '" + p.name +
                   "' has no host orchestrator (@pl.function(level=pl.Level.HOST, "
                   "role=pl.Role.Orchestrator)); pass --entry FUNC"};
}

// An Out / InOut parameter of the entry, copied back to the host after the run.
struct OutParam {
  std::string name;
  Value v;
  bool world;  // a window: one slice per rank
};

// Binds the entry's parameters to values: scalars and tensors from the inputs
// (or zeros / random / NaN poison), windows to fresh allocations. A host entry
// gets one argument list; a non-host entry gets one per rank, slicing each
// [P, ...] input along its leading dim. Throws UserError for bad inputs.
class EntryBinding {
 public:
  EntryBinding(Interpreter& in, Machine& machine, const RunOptions& opts, const Program& program,
               const Function& entry, const std::map<std::string, HostArray>& inputs)
      : rank_args(opts.ranks),
        in_(in),
        machine_(machine),
        opts_(opts),
        program_(program),
        entry_(entry),
        inputs_(inputs),
        P_(opts.ranks),
        host_(entry.IsHostOrchestrator()),
        binder_(in, opts.ranks) {}

  void Bind() {
    CheckInputNames();
    BindDynamicDims();
    CheckMemory();
    for (size_t i = 0; i < entry_.params.size(); ++i) BindParam(i);
  }

  std::vector<Value> args;                    // a host entry's arguments
  std::vector<std::vector<Value>> rank_args;  // a non-host entry's, per rank
  std::vector<OutParam> outs;

 private:
  // Every input names a parameter of the entry (a misspelt name would
  // otherwise be ignored while the parameter runs on zeros or random data).
  void CheckInputNames() {
    std::string params;
    for (const Var* p : entry_.params) params += (params.empty() ? "" : ", ") + p->name_hint;
    for (const auto& [name, arr] : inputs_) {
      bool known = false;
      for (const Var* p : entry_.params) known = known || p->name_hint == name;
      if (!known)
        throw UserError{fmt::format("input '{}' is not a parameter of entry '{}'; {}", name,
                                    entry_.name,
                                    params.empty() ? std::string("it has no parameters")
                                                   : "its parameters are: " + params)};
    }
  }

  // The bytes of a parameter's buffer (one rank's copy for a window),
  // overflow-checked; nullopt when its dims are not bound yet (BindParam
  // reports that).
  std::optional<int64_t> ParamBytes(const Var* p, const TensorType* tt, bool window) {
    std::vector<int64_t> shape;
    for (const Expr* d : tt->shape) {
      auto v = binder_.Dim(d);
      if (!v) return std::nullopt;
      shape.push_back(*v);
    }
    if (!host_ && !window) shape.insert(shape.begin(), P_);
    bool negative = std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; });
    auto bytes = negative ? std::nullopt : CheckedProduct(shape, DTypeBytes(tt->dtype));
    if (!bytes)
      throw UserError{
          fmt::format("parameter '{}': {} needs {}", p->name_hint, TypeToString(p->type),
                      negative ? "a non-negative shape, got " + ShapeString(shape)
                               : "more than 2^63 bytes for shape " + ShapeString(shape))};
    return *bytes;
  }

  // Refuses, before anything is allocated, a run whose estimated memory (the
  // entry's buffers, constant-size window buffers) is above the limit.
  void CheckMemory() {
    MemoryEstimate est;
    for (const Var* p : entry_.params)
      if (auto* tt = AsTensorTypeLike(p->type)) {
        bool window = tt->kind == NodeKind::kDistributedTensorType;
        if (auto b = ParamBytes(p, tt, window)) {
          if (window)
            est.AddWindow(*b, P_);
          else
            est.AddHost(*b);
        }
      }
    AddConstantWindowSites(program_, entry_, P_, &est);
    if (est.Exceeds(opts_.memory_limit))
      throw UserError{fmt::format("this run needs an estimated {} before it starts; {}",
                                  est.Describe(P_), MemoryLimitHint(opts_.memory_limit))};
  }

  // World-shaped leading dims bind to --ranks; other dynamic dims from inputs.
  void BindDynamicDims() {
    for (const Var* p : entry_.params)
      if (auto* tt = AsTensorTypeLike(p->type)) {
        if (!tt->shape.empty() && host_ && AsVarLike(tt->shape[0]) &&
            !in_.globals.count(AsVarLike(tt->shape[0])))
          in_.globals[AsVarLike(tt->shape[0])] = Value::Int(P_);
        for (const Var* dv : program_.dynamic_dims)
          if (!host_ && !tt->shape.empty() && tt->shape[0] == dv && !in_.globals.count(dv))
            in_.globals[dv] = Value::Int(P_);
      }
    for (size_t i = 0; i < entry_.params.size(); ++i) {
      const Var* p = entry_.params[i];
      auto it = inputs_.find(p->name_hint);
      auto* tt = AsTensorTypeLike(p->type);
      if (it == inputs_.end() || !tt) continue;
      size_t lead = host_ ? 0 : 1;  // non-host entries take [P, ...] arrays
      if (it->second.shape.size() == tt->shape.size() + lead)
        for (size_t k = 0; k < tt->shape.size(); ++k)
          binder_.Solve(tt->shape[k], it->second.shape[k + lead]);
    }
  }

  void BindParam(size_t i) {
    const Var* p = entry_.params[i];
    ParamDirection dir = i < entry_.param_dirs.size() ? entry_.param_dirs[i] : ParamDirection::kIn;
    auto it = inputs_.find(p->name_hint);
    const HostArray* given = it == inputs_.end() ? nullptr : &it->second;
    if (auto* st = As<ScalarType>(p->type)) return BindScalar(p, st, given);
    auto* tt = AsTensorTypeLike(p->type);
    if (!tt)
      throw UserError{
          fmt::format("parameter '{}' of entry '{}' has type {}, which pypto-run cannot bind "
                      "from the command line",
                      p->name_hint, entry_.name, TypeToString(p->type))};
    std::vector<int64_t> shape;
    for (const Expr* d : tt->shape) {
      auto v = binder_.Dim(d);
      if (!v)
        throw UserError{
            fmt::format("parameter '{}': cannot bind the dynamic dims of {} (give an input whose "
                        "shape determines them)",
                        p->name_hint, TypeToString(p->type))};
      shape.push_back(*v);
    }
    bool window = tt->kind == NodeKind::kDistributedTensorType;
    std::vector<int64_t> full = shape;
    if (!host_) full.insert(full.begin(), P_);
    std::vector<uint8_t> bytes = TensorBytes(p, tt->dtype, dir, window, full, given);
    if (window)
      BindWindow(p, tt->dtype, dir, shape, bytes);
    else
      BindTensor(p, tt->dtype, dir, shape, full, bytes);
  }

  void BindScalar(const Var* p, const ScalarType* st, const HostArray* given) {
    if (!given || given->NumElements() != 1)
      throw UserError{fmt::format("input '{}': expected a scalar {} (a 0-d .npy array){}",
                                  p->name_hint, DTypeName(st->dtype),
                                  given ? ", got shape " + ShapeString(given->shape) : "")};
    double v = LoadElem(given->bytes.data(), given->dtype);
    Value sv = CastScalar(Value::Float(v, DataType::kFP64), st->dtype);
    args.push_back(sv);
    for (auto& ra : rank_args) ra.push_back(sv);
  }

  // The initial bytes of a tensor parameter of shape `full`: the input checked
  // against the parameter's type, else zeros (NaN poison for Out floats with
  // --poison-nan, random values with --inputs-random).
  std::vector<uint8_t> TensorBytes(const Var* p, DataType dt, ParamDirection dir, bool window,
                                   const std::vector<int64_t>& full, const HostArray* given) {
    if (given) {
      bool dt_ok =
          given->dtype == dt || (dt == DataType::kBF16 && given->dtype == DataType::kUInt16);
      if (given->shape != full || !dt_ok)
        throw UserError{fmt::format("input '{}': expected shape {} dtype {} ({}{}), got {} {}",
                                    p->name_hint, ShapeString(full), DTypeName(dt),
                                    TypeToString(p->type), binder_.Bindings(p->type),
                                    ShapeString(given->shape), DTypeName(given->dtype))};
    } else if (dir != ParamDirection::kOut && !window && !opts_.inputs_random) {
      throw UserError{fmt::format(
          "input '{}' is missing: expected shape {} dtype {} ({}{}); pass --input {}=FILE.npy",
          p->name_hint, ShapeString(full), DTypeName(dt), TypeToString(p->type),
          binder_.Bindings(p->type), p->name_hint)};
    }
    std::vector<uint8_t> bytes;
    int64_t n = 1;
    for (int64_t d : full) n *= d;
    bytes.assign(static_cast<size_t>(n) * DTypeBytes(dt), 0);
    if (given) {
      bytes = given->bytes;
    } else if (dir == ParamDirection::kOut) {
      if (opts_.poison_nan && IsFloat(dt)) std::memset(bytes.data(), 0xff, bytes.size());
    } else if (!window || opts_.inputs_random) {
      if (opts_.inputs_random && !(window && dt == DataType::kInt32))
        RandomFill(bytes, dt, opts_.inputs_seed, p->name_hint);
    }
    return bytes;
  }

  // A window parameter: one allocation, each rank's slice of `bytes` copied in.
  void BindWindow(const Var* p, DataType dt, ParamDirection dir, const std::vector<int64_t>& shape,
                  const std::vector<uint8_t>& bytes) {
    int64_t per = 1;
    for (int64_t d : shape) per *= d;
    int64_t nb = per * DTypeBytes(dt);
    int a = machine_.NewAllocation(p->name_hint, std::max<int64_t>(nb, 4), p->span);
    // nb == 0 (a zero-size view) copies nothing; bytes.data() may then be null.
    for (int d = 0; d < P_ && nb > 0; ++d)
      if (uint8_t* mem = machine_.WindowBytes(a, d))  // null: another process's rank
        std::memcpy(mem, bytes.data() + (host_ ? 0 : d * nb), static_cast<size_t>(nb));
    auto t = std::make_shared<TensorVal>();
    t->alloc = a;
    t->dtype = dt;
    t->shape = shape;
    t->strides = PackedStrides(shape);
    t->valid = shape;
    t->name = p->name_hint;
    args.push_back(Value::Of(t));
    for (auto& ra : rank_args) ra.push_back(Value::Of(t));
    if (dir != ParamDirection::kIn) outs.push_back({p->name_hint, Value::Of(t), true});
  }

  // A host tensor parameter; a non-host entry's ranks each see their row.
  void BindTensor(const Var* p, DataType dt, ParamDirection dir, const std::vector<int64_t>& shape,
                  const std::vector<int64_t>& full, const std::vector<uint8_t>& bytes) {
    auto t = NewHostTensor(dt, full, p->name_hint);
    if (!bytes.empty()) std::memcpy(t->host->data, bytes.data(), bytes.size());
    args.push_back(Value::Of(t));
    if (!host_)
      for (int d = 0; d < P_; ++d) {
        auto s = std::make_shared<TensorVal>(*t);
        s->shape = shape;
        s->strides = PackedStrides(shape);
        s->valid = shape;
        s->offset = d * (full.empty() ? 0 : t->strides[0]);
        rank_args[d].push_back(Value::Of(s));
      }
    if (dir != ParamDirection::kIn) outs.push_back({p->name_hint, Value::Of(t), false});
  }

  Interpreter& in_;
  Machine& machine_;
  const RunOptions& opts_;
  const Program& program_;
  const Function& entry_;
  const std::map<std::string, HostArray>& inputs_;
  const int P_;
  const bool host_;
  Binder binder_;
};

// Runs the entry on the host thread: a host orchestrator is called; any other
// entry is queued as one task per rank. Simulation errors fail the machine.
void RunEntry(Interpreter& in, Machine& machine, Scheduler& sched, Trace& trace,
              const Function& entry, const EntryBinding& bound, int P) {
  LogicalThread host_t;
  host_t.tid = sched.NewTid();
  host_t.name = "host";
  trace.ThreadName(host_t.tid, "host", -1);
  sched.Start(host_t);
  Exec hx(in, host_t);
  std::vector<std::vector<Task>> queues(P);
  hx.queues = &queues;
  Frame top;
  hx.frame = &top;
  try {
    if (entry.IsHostOrchestrator()) {
      in.CallFunction(hx, entry, bound.args);
    } else {
      for (int d = 0; d < P; ++d) {
        for (const Value& v : bound.rank_args[d]) machine.NoteDispatch(d, v);
        Task t;
        t.fn = &entry;
        t.args = bound.rank_args[d];
        t.clock = host_t.clock;
        queues[d].push_back(std::move(t));
      }
    }
    in.Flush(hx);
  } catch (const Aborted&) {
  } catch (const SimError& e) {
    machine.Fail(in.RenderError(e.span, e.what()), e.exit_code);
    sched.Abort();
  }
  sched.Finish(host_t);
}

// Which allocations were used for synchronization (Allocation::sync_signal):
// with a transport, by any rank (each process saw its own rank's uses only).
std::vector<bool> SyncSignals(Machine& machine) {
  std::vector<uint8_t> mine(machine.NumAllocations());
  for (size_t a = 0; a < mine.size(); ++a) mine[a] = machine.alloc(static_cast<int>(a)).sync_signal;
  std::vector<bool> sync(mine.begin(), mine.end());
  if (!machine.transport()) return sync;
  std::vector<uint8_t> all;
  std::vector<size_t> sizes;
  machine.transport()->AllGather(mine, &all, &sizes);
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i]) sync[i % mine.size()] = true;
  return sync;
}

// The exit code and report after a run: deadlock, machine failure, races,
// leftover signals, residue reports, then --stats. Returns whether the run
// finished cleanly (no deadlock, no failure), i.e. outputs are meaningful.
bool ReportFindings(RunResult& res, Interpreter& in, Machine& machine, Scheduler& sched,
                    RaceDetector& races, const RunOptions& opts) {
  std::string deadlock = sched.deadlock_report();
  if (!deadlock.empty()) {
    res.exit_code = 3;
    res.report += deadlock;
  } else if (machine.failed()) {
    res.exit_code = machine.error_code();
    res.report += machine.error_message();
  }
  for (const std::string& r : races.reports()) res.report += r + "\n";
  if (races.found() && res.exit_code == 0) res.exit_code = 3;
  if (opts.check_signals && deadlock.empty() && !machine.failed()) {
    std::vector<bool> sync = SyncSignals(machine);
    for (size_t a = 0; a < machine.NumAllocations(); ++a)
      if (sync[a]) in.CheckSignalZero(static_cast<int>(a), "at the end of the run");
  }
  for (const std::string& r : in.residue_reports) res.report += r + "\n";
  if (!in.residue_reports.empty() && res.exit_code == 0) res.exit_code = 1;
  if (opts.stats) {
    for (int d = 0; d < opts.ranks; ++d) {
      if (!machine.IsLocal(d)) continue;  // each process counts its own rank
      RankStats& s = machine.stats()[d];
      res.report += fmt::format(
          "stats: rank {}: bytes_sent={} bytes_received={} notifies={} waits={} collectives={}\n",
          d, s.bytes_sent.load(), s.bytes_received.load(), s.notifies.load(), s.waits.load(),
          s.collectives.load());
    }
  }
  return deadlock.empty() && !machine.failed();
}

// Ends the streamed Chrome trace and writes the timeline of the run so far
// (called on every exit after the run started, so a failed run is drawn too).
void FinishTrace(RunResult& res, Trace& trace, const Scheduler& sched, const RunOptions& opts) {
  trace.Close();
  if (!trace.error().empty()) {
    res.report += trace.error() + "\n";
    if (res.exit_code == 0) res.exit_code = 1;
  }
  if (opts.timeline_path.empty()) return;
  TimelineInput tl;
  tl.title = opts.program_name.empty() ? "(program)" : opts.program_name;
  tl.ranks = opts.ranks;
  tl.schedule =
      opts.schedule == Schedule::kRandom ? "random:" + std::to_string(opts.seed) : "parallel";
  tl.time_unit = opts.schedule == Schedule::kRandom ? "steps" : "us";
  tl.outcome = res.report.empty() ? "ok" : res.report;
  tl.events = &trace.events();
  tl.threads = &trace.threads();
  tl.deadlocked = sched.deadlocked();
  std::string html = RenderTimelineHtml(tl);
  std::ofstream f(opts.timeline_path, std::ios::binary);
  f.write(html.data(), static_cast<std::streamsize>(html.size()));
  if (!f) {
    res.report += "error: cannot write timeline '" + opts.timeline_path + "'\n";
    if (res.exit_code == 0) res.exit_code = 1;
  }
}

// Tears the run down once *cancel reads true: polls it from its own thread
// (the host thread may be inside an endless loop) and calls `stop` (aborts the
// scheduler), which makes every logical thread unwind; the run's threads are
// all joined before RunProgram returns.
class CancelWatcher {
 public:
  CancelWatcher(const std::atomic<bool>* cancel, std::function<void()> stop) : cancel_(cancel) {
    if (!cancel_) return;
    thread_ = std::thread([this, stop = std::move(stop)] {
      std::unique_lock<std::mutex> l(mu_);
      while (!done_) {
        if (cancel_->load()) {
          fired_ = true;
          stop();
          return;
        }
        cv_.wait_for(l, std::chrono::milliseconds(20));
      }
    });
  }
  ~CancelWatcher() { Stop(); }
  // Stops watching; true when the run was cancelled.
  bool Stop() {
    if (thread_.joinable()) {
      {
        std::lock_guard<std::mutex> l(mu_);
        done_ = true;
      }
      cv_.notify_all();
      thread_.join();
    }
    return fired_;
  }

 private:
  const std::atomic<bool>* cancel_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false, fired_ = false;
  std::thread thread_;
};

}  // namespace

RunResult RunProgram(Context& ctx, const Program& program,
                     const std::map<std::string, HostArray>& inputs, const RunOptions& opts) {
  RunResult res;
  if (!CheckRunOptions(opts, &res)) return res;
  Machine machine(opts.ranks, opts.poison_nan, opts.memory_limit, opts.transport);
  return RunProgramOn(ctx, program, inputs, opts, machine);
}

namespace {

// What a multi-process run (RunOptions::transport) cannot do, and why; "" when
// the options are fine for it.
std::string TransportConflict(const RunOptions& o) {
  if (!o.transport) return "";
  if (o.ranks != o.transport->world_size())
    return fmt::format(
        "--ranks {} differs from the {} processes mpirun started; one process runs one rank "
        "(leave --ranks out, or start mpirun -np {})",
        o.ranks, o.transport->world_size(), o.ranks);
  const char* why =
      "needs every rank in one process (the in-process engine, --transport=inprocess)";
  if (o.schedule != Schedule::kParallel)
    return fmt::format("--schedule={} {}: it orders the threads of every rank", ScheduleString(o),
                       why);
  if (o.detect_races)
    return fmt::format("--detect-races {}: it keeps vector clocks of every rank's accesses", why);
  if (!o.trace_path.empty() || !o.timeline_path.empty())
    return fmt::format("--trace / --timeline {}: they draw every rank on one clock", why);
  if (o.subworker) return fmt::format("a HOST SubWorker {}", why);
  return "";
}

}  // namespace

bool CheckRunOptions(const RunOptions& opts, RunResult* res) {
  if (opts.ranks < 1 || opts.ranks > kMaxRanks) {
    res->exit_code = 2;
    res->report = fmt::format("error: ranks {} is out of range (1 .. {})\n", opts.ranks, kMaxRanks);
    return false;
  }
  if (std::string c = TransportConflict(opts); !c.empty()) {
    res->exit_code = 2;
    res->report = "error: " + c + "\n";
    return false;
  }
  if (opts.memory_limit < 0) {
    res->exit_code = 2;
    res->report =
        fmt::format("error: memory limit {} is negative (0 = no limit)\n", opts.memory_limit);
    return false;
  }
  return true;
}

RunResult RunProgramOn(Context& ctx, const Program& program,
                       const std::map<std::string, HostArray>& inputs, const RunOptions& opts,
                       Machine& machine) {
  RunResult res;
  if (!CheckRunOptions(opts, &res)) return res;
  if (opts.ranks != machine.ranks()) {
    res.exit_code = 2;
    res.report = fmt::format("error: ranks {} differs from the {} ranks of the session\n",
                             opts.ranks, machine.ranks());
    return res;
  }
  machine.BeginRun();
  if (opts.verify) {
    DiagnosticEngine diag(&ctx.sources());
    if (!VerifyProgram(ctx, program, diag) || diag.HasErrors()) {
      res.exit_code = 1;
      res.report = diag.Render();
      return res;
    }
  }
  const int P = opts.ranks;
  auto sched = MakeScheduler(opts);
  RaceDetector races(opts.detect_races);
  Trace trace(opts.trace_path, !opts.timeline_path.empty());
  if (!trace.error().empty()) {
    res.exit_code = 2;
    res.report = trace.error() + "\n";
    return res;
  }
  if (!opts.timeline_path.empty() && !std::ofstream(opts.timeline_path, std::ios::binary)) {
    res.exit_code = 2;  // found out before the run, not after it
    res.report = "error: cannot write timeline '" + opts.timeline_path + "'\n";
    return res;
  }
  Interpreter in(ctx, program, machine, *sched, races, trace, opts);
  auto fmt_span = [&in](Span s) { return in.FormatSpan(s); };
  sched->SetSpanFormatter(fmt_span);
  races.SetSpanFormatter(fmt_span);
  races.SetWindowNamer([&machine](int a) { return machine.alloc(a).name; });

  std::vector<OutParam> outs;
  try {
    const Function* entry = FindEntry(program, opts.entry);
    EntryBinding bound(in, machine, opts, program, *entry, inputs);
    bound.Bind();
    outs = std::move(bound.outs);
    // Every rank's window parameters hold their initial bytes before any rank runs.
    if (machine.transport()) machine.transport()->Barrier();
    CancelWatcher watcher(opts.cancel, [&sched] { sched->Abort(); });
    // Another process failed: stop now, saying where this rank was waiting.
    std::string blocked;
    CancelWatcher peer(machine.transport() ? machine.transport()->peer_failed() : nullptr,
                       [&sched, &blocked] { blocked = sched->AbortListingBlocked(); });
    RunEntry(in, machine, *sched, trace, *entry, bound, P);
    peer.Stop();
    if (Transport* tp = machine.transport()) {  // every rank's outcome, agreed by all
      int code = !sched->deadlock_report().empty() ? 3
                 : machine.failed()                ? machine.error_code()
                                                   : 0;
      std::vector<int> status = tp->AgreeStatus(code);
      int worst = *std::max_element(status.begin(), status.end());
      if (worst && !code) machine.Fail(RemoteFailure(status) + blocked, worst);
    }
    if (watcher.Stop()) {
      res.exit_code = 130;
      res.report = "error: the run was interrupted\n";
      FinishTrace(res, trace, *sched, opts);
      return res;
    }
  } catch (const UsageError& e) {
    res.exit_code = 2;
    res.report = "error: " + e.msg + "\n";
    FinishTrace(res, trace, *sched, opts);
    return res;
  } catch (const UserError& e) {
    res.exit_code = 1;
    res.report = "error: " + e.msg + "\n";
    FinishTrace(res, trace, *sched, opts);
    return res;
  } catch (const SimError& e) {  // a window parameter that cannot be allocated
    res.exit_code = e.exit_code;
    res.report = in.RenderError(e.span, e.what());
    FinishTrace(res, trace, *sched, opts);
    return res;
  } catch (const std::bad_alloc&) {
    res.exit_code = 1;
    res.report = "error: out of memory while allocating the entry's host tensors\n";
    FinishTrace(res, trace, *sched, opts);
    return res;
  } catch (const std::system_error& e) {  // the cancel watcher's thread
    res.exit_code = 1;
    res.report = fmt::format("error: cannot start a thread: {}\n", e.what());
    FinishTrace(res, trace, *sched, opts);
    return res;
  } catch (const std::exception& e) {  // InternalError
    res.exit_code = 1;
    res.report = std::string(e.what()) + "\n";
    FinishTrace(res, trace, *sched, opts);
    return res;
  }

  bool clean = ReportFindings(res, in, machine, *sched, races, opts);
  FinishTrace(res, trace, *sched, opts);
  if (clean)
    for (const OutParam& o : outs) res.outputs[o.name] = ToHost(*o.v.tensor, machine, o.world);
  return res;
}

}  // namespace pypto::sim
