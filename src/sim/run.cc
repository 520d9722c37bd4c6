// RunProgram: binds the entry's parameters to host arrays (dynamic dims from
// input shapes, world-shaped leading dims from --ranks), runs the host
// orchestrator (or dispatches a non-host entry to every rank), then gathers
// Out/InOut parameters, detector findings, stats and the trace.
#include "pypto/sim/run.h"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <random>

#include "pypto/core/check.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/printer.h"
#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

using namespace ir;

bool ParseSchedule(const std::string& text, RunOptions* o, std::string* error) {
  if (text == "parallel") {
    o->schedule = Schedule::kParallel;
    return true;
  }
  if (text.rfind("random:", 0) == 0 && text.size() > 7) {
    std::string s = text.substr(7);
    if (s.find_first_not_of("0123456789") == std::string::npos && s.size() <= 19) {
      o->schedule = Schedule::kRandom;
      o->seed = std::stoull(s);
      return true;
    }
  }
  *error = "bad --schedule '" + text + "'; expected parallel or random:SEED";
  return false;
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
  for (int d = 0; d < m.ranks(); ++d) {
    const uint8_t* p = m.WindowBytes(t.alloc, d);
    h.bytes.insert(h.bytes.end(), p, p + per);
  }
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

}  // namespace

RunResult RunProgram(Context& ctx, const Program& program,
                     const std::map<std::string, HostArray>& inputs, const RunOptions& opts_in) {
  RunResult res;
  RunOptions opts = opts_in;
  if (opts.ranks < 1 || opts.ranks > 1024) {
    res.exit_code = 2;
    res.report = fmt::format("error: --ranks {} is out of range (1 .. 1024)\n", opts.ranks);
    return res;
  }
  const int P = opts.ranks;
  Machine machine(P, opts.poison_nan);
  auto sched = MakeScheduler(opts);
  RaceDetector races(opts.detect_races);
  Trace trace(!opts.trace_path.empty());
  Interpreter in(ctx, program, machine, *sched, races, trace, opts);
  auto fmt_span = [&in](Span s) { return in.FormatSpan(s); };
  sched->SetSpanFormatter(fmt_span);
  races.SetSpanFormatter(fmt_span);
  races.SetWindowNamer([&machine](int a) { return machine.alloc(a).name; });

  struct OutParam {
    std::string name;
    Value v;
    bool world;
  };
  std::vector<OutParam> outs;
  try {
    const Function* entry = FindEntry(program, opts.entry);
    bool host = entry->IsHostOrchestrator();
    Binder binder(in, P);
    // World-shaped leading dims bind to --ranks; other dynamic dims from inputs.
    for (const Var* p : entry->params)
      if (auto* tt = AsTensorTypeLike(p->type)) {
        if (!tt->shape.empty() && host && AsVarLike(tt->shape[0]) &&
            !in.globals.count(AsVarLike(tt->shape[0])))
          in.globals[AsVarLike(tt->shape[0])] = Value::Int(P);
        for (const Var* dv : program.dynamic_dims)
          if (!host && !tt->shape.empty() && tt->shape[0] == dv && !in.globals.count(dv))
            in.globals[dv] = Value::Int(P);
      }
    for (size_t i = 0; i < entry->params.size(); ++i) {
      const Var* p = entry->params[i];
      auto it = inputs.find(p->name_hint);
      auto* tt = AsTensorTypeLike(p->type);
      if (it == inputs.end() || !tt) continue;
      size_t lead = host ? 0 : 1;  // non-host entries take [P, ...] arrays
      if (it->second.shape.size() == tt->shape.size() + lead)
        for (size_t k = 0; k < tt->shape.size(); ++k)
          binder.Solve(tt->shape[k], it->second.shape[k + lead]);
    }
    std::vector<Value> args;
    std::vector<std::vector<Value>> rank_args(P);
    for (size_t i = 0; i < entry->params.size(); ++i) {
      const Var* p = entry->params[i];
      ParamDirection dir =
          i < entry->param_dirs.size() ? entry->param_dirs[i] : ParamDirection::kIn;
      auto it = inputs.find(p->name_hint);
      const HostArray* given = it == inputs.end() ? nullptr : &it->second;
      if (auto* st = As<ScalarType>(p->type)) {
        if (!given || given->NumElements() != 1)
          throw UserError{fmt::format("input '{}': expected a scalar {} (a 0-d .npy array){}",
                                      p->name_hint, DTypeName(st->dtype),
                                      given ? ", got shape " + ShapeString(given->shape) : "")};
        double v = LoadElem(given->bytes.data(), given->dtype);
        Value sv = CastScalar(Value::Float(v, DataType::kFP64), st->dtype);
        args.push_back(sv);
        for (auto& ra : rank_args) ra.push_back(sv);
        continue;
      }
      auto* tt = AsTensorTypeLike(p->type);
      if (!tt)
        throw UserError{
            fmt::format("parameter '{}' of entry '{}' has type {}, which pypto-run cannot bind "
                        "from the command line",
                        p->name_hint, entry->name, TypeToString(p->type))};
      std::vector<int64_t> shape;
      for (const Expr* d : tt->shape) {
        auto v = binder.Dim(d);
        if (!v)
          throw UserError{
              fmt::format("parameter '{}': cannot bind the dynamic dims of {} (give an input whose "
                          "shape determines them)",
                          p->name_hint, TypeToString(p->type))};
        shape.push_back(*v);
      }
      bool window = tt->kind == NodeKind::kDistributedTensorType;
      std::vector<int64_t> full = shape;
      if (!host) full.insert(full.begin(), P);
      DataType dt = tt->dtype;
      if (given) {
        bool dt_ok =
            given->dtype == dt || (dt == DataType::kBF16 && given->dtype == DataType::kUInt16);
        if (given->shape != full || !dt_ok)
          throw UserError{fmt::format("input '{}': expected shape {} dtype {} ({}{}), got {} {}",
                                      p->name_hint, ShapeString(full), DTypeName(dt),
                                      TypeToString(p->type), binder.Bindings(p->type),
                                      ShapeString(given->shape), DTypeName(given->dtype))};
      } else if (dir != ParamDirection::kOut && !window && !opts.inputs_random) {
        throw UserError{fmt::format(
            "input '{}' is missing: expected shape {} dtype {} ({}{}); pass --input {}=FILE.npy",
            p->name_hint, ShapeString(full), DTypeName(dt), TypeToString(p->type),
            binder.Bindings(p->type), p->name_hint)};
      }
      std::vector<uint8_t> bytes;
      int64_t n = 1;
      for (int64_t d : full) n *= d;
      bytes.assign(static_cast<size_t>(n) * DTypeBytes(dt), 0);
      if (given) {
        bytes = given->bytes;
      } else if (dir == ParamDirection::kOut) {
        if (opts.poison_nan && IsFloat(dt)) std::memset(bytes.data(), 0xff, bytes.size());
      } else if (!window || opts.inputs_random) {
        if (opts.inputs_random && !(window && dt == DataType::kInt32))
          RandomFill(bytes, dt, opts.inputs_seed, p->name_hint);
      }
      if (window) {
        int64_t per = 1;
        for (int64_t d : shape) per *= d;
        int64_t nb = per * DTypeBytes(dt);
        int a = machine.NewAllocation(p->name_hint, std::max<int64_t>(nb, 4), p->span);
        for (int d = 0; d < P; ++d)
          std::memcpy(machine.WindowBytes(a, d), bytes.data() + (host ? 0 : d * nb),
                      static_cast<size_t>(nb));
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
        continue;
      }
      auto t = NewHostTensor(dt, full, p->name_hint);
      std::memcpy(t->host->data, bytes.data(), bytes.size());
      args.push_back(Value::Of(t));
      if (!host)
        for (int d = 0; d < P; ++d) {
          auto s = std::make_shared<TensorVal>(*t);
          s->shape = shape;
          s->strides = PackedStrides(shape);
          s->valid = shape;
          s->offset = d * (full.empty() ? 0 : t->strides[0]);
          rank_args[d].push_back(Value::Of(s));
        }
      if (dir != ParamDirection::kIn) outs.push_back({p->name_hint, Value::Of(t), false});
    }

    LogicalThread host_t;
    host_t.tid = sched->NewTid();
    host_t.name = "host";
    trace.ThreadName(host_t.tid, "host");
    sched->Start(host_t);
    Exec hx(in, host_t);
    std::vector<std::vector<Task>> queues(P);
    hx.queues = &queues;
    Frame top;
    hx.frame = &top;
    try {
      if (host) {
        in.CallFunction(hx, *entry, args);
      } else {
        for (int d = 0; d < P; ++d) {
          for (const Value& v : rank_args[d]) machine.NoteDispatch(d, v);
          Task t;
          t.fn = entry;
          t.args = rank_args[d];
          t.clock = host_t.clock;
          queues[d].push_back(std::move(t));
        }
      }
      in.Flush(hx);
    } catch (const Aborted&) {
    } catch (const SimError& e) {
      machine.Fail(in.RenderError(e.span, e.what()), e.exit_code);
      sched->Abort();
    }
    sched->Finish(host_t);
  } catch (const UsageError& e) {
    res.exit_code = 2;
    res.report = "error: " + e.msg + "\n";
    return res;
  } catch (const UserError& e) {
    res.exit_code = 1;
    res.report = "error: " + e.msg + "\n";
    return res;
  } catch (const std::exception& e) {  // InternalError and allocation failures
    res.exit_code = 1;
    res.report = std::string(e.what()) + "\n";
    return res;
  }

  std::string deadlock = sched->deadlock_report();
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
    for (size_t a = 0; a < machine.NumAllocations(); ++a)
      if (machine.alloc(static_cast<int>(a)).sync_signal)
        in.CheckSignalZero(static_cast<int>(a), "at the end of the run");
  }
  for (const std::string& r : in.residue_reports) res.report += r + "\n";
  if (!in.residue_reports.empty() && res.exit_code == 0) res.exit_code = 1;
  if (opts.stats) {
    for (int d = 0; d < P; ++d) {
      RankStats& s = machine.stats()[d];
      res.report += fmt::format(
          "stats: rank {}: bytes_sent={} bytes_received={} notifies={} waits={} collectives={}\n",
          d, s.bytes_sent.load(), s.bytes_received.load(), s.notifies.load(), s.waits.load(),
          s.collectives.load());
    }
  }
  if (!opts.trace_path.empty()) {
    std::ofstream f(opts.trace_path, std::ios::binary);
    std::string j = trace.ToJson();
    f.write(j.data(), static_cast<std::streamsize>(j.size()));
    if (!f) {
      res.report += "error: cannot write trace '" + opts.trace_path + "'\n";
      if (res.exit_code == 0) res.exit_code = 1;
    }
  }
  if (deadlock.empty() && !machine.failed())
    for (const OutParam& o : outs) res.outputs[o.name] = ToHost(*o.v.tensor, machine, o.world);
  return res;
}

}  // namespace pypto::sim
