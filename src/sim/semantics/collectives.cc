// pld.tensor.* and builtin.tensor.* collectives executed as WHOLE operations:
// the semantic oracle the lowered notify/wait/put programs are compared with.
// Every rank of the window's comm domain must reach its k-th collective on that
// domain (a rendezvous; under a transport, messages: collective_rendezvous.cc);
// ranks that disagree on which collective comes next are reported. Reductions run in rank order
// 0..n-1, rounding to the element type after every step (a deterministic sequential oracle).
// Contiguous FP32/FP16 allreduces are split by element range so every rank reduces its own share.
#include <fmt/format.h>

#include <cstring>

#include "pypto/sim/collective_checks.h"
#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

namespace {

enum class Kind {
  kAllReduce,
  kBarrier,
  kBroadcast,
  kReduceScatter,
  kAllGather,
  kAllToAll,
  kAllToAllV
};

double Reduce(ir::ReduceOp op, DataType dt, double a, double b) {
  switch (op) {
    case ir::ReduceOp::kSum:
      return RoundTo(dt, a + b);
    case ir::ReduceOp::kMax:
      return RoundTo(dt, ApplyElem(ElemOp::kMax, a, b));
    case ir::ReduceOp::kMin:
      return RoundTo(dt, ApplyElem(ElemOp::kMin, a, b));
    case ir::ReduceOp::kProd:
      return RoundTo(dt, a * b);
  }
  return RoundTo(dt, a + b);  // not reached: the switch covers every ReduceOp
}

struct Ctx {
  Exec& ex;
  Rendezvous& rz;
  const Domain& d;
  int n;
  const ir::Call& call;
  ir::ReduceOp op;  // the op= kwarg (reductions; Sum for the rest)
  const TensorVal& T(int r, const char* name) {
    auto* c = static_cast<const ir::Call*>(rz.call[r]);
    const Value* v = Exec::Arg(*c, rz.args[r], name);
    if (!v) ex.Fail(fmt::format("missing '{}'", name));
    return ex.Tensor(*v, name);
  }
  bool Has(int r, const char* name) {
    return Exec::Arg(*static_cast<const ir::Call*>(rz.call[r]), rz.args[r], name) != nullptr;
  }
  int Dev(int r) const { return d.devices[r]; }
};

std::vector<int64_t> RowBox(const TensorVal& t, int64_t rows) {
  std::vector<int64_t> b = t.valid;
  if (!b.empty()) b[0] = rows;
  return b;
}
std::vector<int64_t> RowOff(const TensorVal& t, int64_t row) {
  std::vector<int64_t> o(t.rank(), 0);
  if (!o.empty()) o[0] = row;
  return o;
}
int64_t RowElems(const TensorVal& t) {
  int64_t e = 1;
  for (size_t k = 1; k < t.valid.size(); ++k) e *= t.valid[k];
  return e;
}

bool Contiguous(const TensorVal& t) {
  return t.valid == t.shape && t.strides == PackedStrides(t.shape);
}

// Allreduce share of rank `me`: elements [lo, hi) of a contiguous target.
void AllReduceShare(Ctx& c, int me) {
  const ir::ReduceOp op = c.op;
  const TensorVal& t0 = c.T(0, c.call.op->args[0].name.c_str());
  int64_t N = t0.NumElements();
  int64_t lo = N * me / c.n, hi = N * (me + 1) / c.n;
  if (hi <= lo) return;
  std::vector<uint8_t*> base(c.n);
  for (int r = 0; r < c.n; ++r) {
    const TensorVal& t = c.T(r, c.call.op->args[0].name.c_str());
    base[r] = c.ex.Base(t, c.Dev(r)) + t.offset * DTypeBytes(t.dtype);
  }
  if (t0.dtype == DataType::kFP32) {
    // Reduce in place into rank 0's copy, cache-sized block by block, then copy
    // the block to every other rank while it is hot (no scratch allocation).
    const int64_t kBlock = 8192;
    float* a0 = reinterpret_cast<float*>(base[0]);
    for (int64_t b = lo; b < hi; b += kBlock) {
      int64_t e = std::min(hi, b + kBlock);
      float* a = a0 + b;
      int64_t m = e - b;
      for (int r = 1; r < c.n; ++r) {
        const float* x = reinterpret_cast<const float*>(base[r]) + b;
        switch (op) {
          case ir::ReduceOp::kMax:
            for (int64_t i = 0; i < m; ++i)
              a[i] = std::isnan(a[i]) || std::isnan(x[i]) ? NAN : (a[i] > x[i] ? a[i] : x[i]);
            break;
          case ir::ReduceOp::kMin:
            for (int64_t i = 0; i < m; ++i)
              a[i] = std::isnan(a[i]) || std::isnan(x[i]) ? NAN : (a[i] < x[i] ? a[i] : x[i]);
            break;
          case ir::ReduceOp::kProd:
            for (int64_t i = 0; i < m; ++i) a[i] *= x[i];
            break;
          case ir::ReduceOp::kSum:
            for (int64_t i = 0; i < m; ++i) a[i] += x[i];
            break;
        }
      }
      for (int r = 1; r < c.n; ++r)
        std::memcpy(reinterpret_cast<float*>(base[r]) + b, a,
                    static_cast<size_t>(m) * sizeof(float));
    }
    return;
  }
  int eb = DTypeBytes(t0.dtype);
  for (int64_t i = lo; i < hi; ++i) {
    double acc = LoadElem(base[0] + i * eb, t0.dtype);
    for (int r = 1; r < c.n; ++r)
      acc = Reduce(op, t0.dtype, acc, LoadElem(base[r] + i * eb, t0.dtype));
    for (int r = 0; r < c.n; ++r) StoreElem(base[r] + i * eb, t0.dtype, acc);
  }
}

// Everything else (and allreduce on strided / partially valid / raced views)
// runs on domain rank 0 through the checked memory helpers.
void WholeOp(Ctx& c, Kind k) {
  Exec& ex = c.ex;
  const ir::Call& call = c.call;
  int n = c.n;
  switch (k) {
    case Kind::kBarrier:
      return;
    case Kind::kAllReduce: {
      const char* nm = call.op->args[0].name.c_str();
      const ir::ReduceOp op = c.op;
      const TensorVal& t0 = c.T(0, nm);
      std::vector<int64_t> z(t0.rank(), 0);
      std::vector<double> acc = ex.ReadRegion(t0, c.Dev(0), z, t0.valid, nm);
      for (int r = 1; r < n; ++r) {
        const TensorVal& t = c.T(r, nm);
        std::vector<double> x = ex.ReadRegion(t, c.Dev(r), z, t0.valid, nm);
        for (size_t i = 0; i < acc.size(); ++i) acc[i] = Reduce(op, t0.dtype, acc[i], x[i]);
      }
      for (int r = 0; r < n; ++r)
        ex.WriteRegion(c.T(r, nm), c.Dev(r), z, t0.valid, acc.data(), false, nm);
      return;
    }
    case Kind::kBroadcast: {
      int64_t root = Exec::KwInt(call, "root", 0);
      if (root < 0 || root >= n)
        ex.Fail(fmt::format("root {} is not a rank of the comm domain {} ({} ranks)", root,
                            c.d.Describe(), n));
      const TensorVal& tr = c.T(static_cast<int>(root), "target");
      std::vector<int64_t> z(tr.rank(), 0);
      std::vector<double> v =
          ex.ReadRegion(tr, c.Dev(static_cast<int>(root)), z, tr.valid, "target");
      for (int r = 0; r < n; ++r)
        if (r != root)
          ex.WriteRegion(c.T(r, "target"), c.Dev(r), z, tr.valid, v.data(), false, "target");
      return;
    }
    case Kind::kReduceScatter: {
      const ir::ReduceOp op = c.op;
      const TensorVal& t0 = c.T(0, "target");
      if (t0.rank() < 1 || t0.shape[0] < n)
        ex.Fail(fmt::format("target shape {} needs at least {} rows (one per rank)",
                            ShapeString(t0.shape), n));
      std::vector<std::vector<double>> res(n);
      for (int row = 0; row < n; ++row) {
        for (int r = 0; r < n; ++r) {
          std::vector<double> x =
              ex.ReadRegion(c.T(r, "target"), c.Dev(r), RowOff(t0, row), RowBox(t0, 1), "target");
          if (r == 0) {
            res[row] = x;
          } else {
            for (size_t i = 0; i < x.size(); ++i)
              res[row][i] = Reduce(op, t0.dtype, res[row][i], x[i]);
          }
        }
      }
      for (int r = 0; r < n; ++r)
        ex.WriteRegion(c.T(r, "target"), c.Dev(r), RowOff(t0, r), RowBox(t0, 1), res[r].data(),
                       false, "target");
      return;
    }
    case Kind::kAllGather: {
      const TensorVal& t0 = c.T(0, "target");
      if (t0.shape.empty() || t0.shape[0] < n)
        ex.Fail(fmt::format("target shape {} needs at least {} rows (one per rank)",
                            ShapeString(t0.shape), n));
      for (int src = 0; src < n; ++src) {
        // pld.tensor.allgather names it local_data (upstream's DSL); the builtin, input.
        const TensorVal& in = c.T(src, c.Has(src, "local_data") ? "local_data" : "input");
        // A pre-staged [NR, SIZE] input (in place: the target window itself)
        // contributes its row `src`; a [1, SIZE] chunk contributes itself.
        bool staged = in.rank() == t0.rank() && in.rank() >= 1 && in.shape[0] == t0.shape[0] &&
                      t0.shape[0] > 1 && RowElems(in) == RowElems(t0);
        if (!staged && in.NumElements() != RowElems(t0) &&
            in.NumElements() != t0.NumElements() / t0.shape[0])
          ex.Fail(fmt::format("input shape {} does not match a row of target {}",
                              ShapeString(in.shape), ShapeString(t0.shape)));
        std::vector<int64_t> z(in.rank(), 0);
        std::vector<double> v =
            staged ? ex.ReadRegion(in, c.Dev(src), RowOff(in, src), RowBox(in, 1), "input")
                   : ex.ReadRegion(in, c.Dev(src), z, in.shape, "input");
        for (int r = 0; r < n; ++r)
          ex.WriteRegion(c.T(r, "target"), c.Dev(r), RowOff(t0, src), RowBox(t0, 1), v.data(),
                         false, "target");
      }
      return;
    }
    case Kind::kAllToAll: {
      const TensorVal& t0 = c.T(0, "target");
      if (t0.shape.empty() || t0.shape[0] < n)
        ex.Fail(fmt::format("target shape {} needs at least {} rows (one per rank)",
                            ShapeString(t0.shape), n));
      for (int src = 0; src < n; ++src) {
        const TensorVal& in = c.T(src, "input");
        for (int r = 0; r < n; ++r) {
          std::vector<double> v =
              ex.ReadRegion(in, c.Dev(src), RowOff(in, r), RowBox(in, 1), "input");
          ex.WriteRegion(c.T(r, "target"), c.Dev(r), RowOff(t0, src), RowBox(t0, 1), v.data(),
                         false, "target");
        }
      }
      return;
    }
    case Kind::kAllToAllV: {
      const TensorVal& t0 = c.T(0, "target");
      if (t0.rank() != 2) ex.Fail("target must be a packed 2-D [NR * MAX_RECV, SIZE] window");
      int64_t max_recv = t0.shape[0] / n;
      for (int src = 0; src < n; ++src) {
        const TensorVal& in = c.T(src, "input");
        const TensorVal& sc = c.T(src, "send_counts");
        std::vector<int64_t> z(sc.rank(), 0);
        std::vector<double> counts = ex.ReadRegion(sc, c.Dev(src), z, sc.shape, "send_counts");
        if (static_cast<int64_t>(counts.size()) < n)
          ex.Fail(fmt::format("send_counts has {} entries; expected {}", counts.size(), n));
        for (int dst = 0; dst < n; ++dst) {
          int64_t cnt = std::clamp<int64_t>(static_cast<int64_t>(counts[dst]), 0, max_recv);
          if (cnt > 0) {
            std::vector<double> v =
                ex.ReadRegion(in, c.Dev(src), {dst * max_recv, 0}, {cnt, in.shape[1]}, "input");
            ex.WriteRegion(c.T(dst, "target"), c.Dev(dst), {src * max_recv, 0}, {cnt, t0.shape[1]},
                           v.data(), false, "target");
          }
          const TensorVal& rc = c.T(dst, "recv_counts");
          std::vector<int64_t> idx(rc.rank(), 0);
          idx[0] = src;
          ex.m.CellNotify(rc.alloc, c.Dev(dst), ex.CellByteOffset(rc, idx, "recv_counts"), true,
                          static_cast<int32_t>(cnt));
        }
      }
      return;
    }
  }
}

// "" when every rank of the rendezvous called the same collective, else the report.
std::string Mismatch(Exec& ex, const Rendezvous& rz, const Domain& d, int64_t seq) {
  for (size_t r = 0; r < rz.op.size(); ++r)
    if (rz.op[r] != rz.op[0])
      return fmt::format(
          "collective mismatch on comm domain {}: collective #{} is {} on rank {} ({}) but {} on "
          "rank {} ({}); every rank must call the same collectives in the same order",
          d.Describe(), seq, rz.op[0], d.devices[0], ex.in.FormatSpan(rz.span[0]), rz.op[r],
          d.devices[r], ex.in.FormatSpan(rz.span[r]));
  return "";
}

Value Collective(Exec& ex, const ir::Call& call, std::vector<Value>& args, Kind kind) {
  const std::string& name = call.op->name;
  if (ex.is_host()) ex.Fail("internal: host collectives run as rank tasks");
  // The window that picks the comm domain, and the result: the operand the op
  // returns (OpDef::returned_arg), else the signal.
  const Value* win = &args[static_cast<size_t>(call.op->returned_arg)];
  if (win->kind != Value::Kind::kTensor || !win->tensor->IsWindow())
    win = Exec::Arg(call, args, "signal");
  if (!win || win->kind != Value::Kind::kTensor || !win->tensor->IsWindow())
    ex.Fail("needs a window-bound target or signal");
  const Value* sig = Exec::Arg(call, args, "signal");
  int sig_alloc = -1;
  if (sig && sig->kind == Value::Kind::kTensor && sig->tensor->IsWindow()) {
    sig_alloc = sig->tensor->alloc;
    std::lock_guard<std::mutex> l(ex.m.mu);
    Allocation& a = ex.m.alloc(sig_alloc);
    a.signal = true;
    a.sync_signal = true;
    a.signal_shape = sig->tensor->shape;
    if (!sig->tensor->name.empty()) a.signal_view = sig->tensor->name;
  }
  int dom = ex.m.DomainOf(win->tensor->alloc);
  const Domain& d = ex.m.domain(dom);
  int me = ex.MyDomainRank(*win->tensor);
  int n = static_cast<int>(d.devices.size());
  CheckCollectiveOperands(ex, call, args, d);
  int64_t seq = ex.m.NextCollectiveSeq(ex.device(), dom);
  if (ex.m.transport()) {  // one rank per process: the rendezvous is messages
    Rendezvous rz;
    rz.op.assign(n, "");
    rz.span.assign(n, Span{});
    rz.args.assign(n, {});
    rz.call.assign(n, nullptr);
    ExchangeArrivals(ex, call, args, d, seq, &rz);
    ex.m.stats()[ex.device()].collectives++;
    if (std::string e = Mismatch(ex, rz, d, seq); !e.empty()) ex.Fail(e);
    Ctx c{ex, rz, d, n, call, ex.KwEnum(call, "op", ir::ReduceOp::kSum)};
    if (me == 0) WholeOp(c, kind);  // every rank's windows, through the transport
    ExchangeCompletion(ex, call, d, seq);
    if (ex.in.opts.check_signals && sig_alloc >= 0)
      ex.in.CheckSignalZero(sig_alloc, "after " + name + " at " + ex.in.FormatSpan(call.span));
    return *win;
  }
  Rendezvous* rz;
  bool last;
  {
    std::lock_guard<std::mutex> l(ex.m.mu);
    rz = &ex.m.GetRendezvous(dom, seq);
    rz->op[me] = name;
    rz->span[me] = call.span;
    rz->args[me] = args;
    rz->call[me] = &call;
    ClockJoin(rz->clock, ex.t.clock);
    last = ++rz->arrived == n;
  }
  ex.m.stats()[ex.device()].collectives++;
  if (last) {
    rz->error = Mismatch(ex, *rz, d, seq);
    rz->done = true;
    ex.sched.Wake();
  } else {
    BlockInfo bi;
    bi.what = name;
    bi.function = ex.FunctionName();
    bi.span = call.span;
    bi.describe = [rz, &d, seq, &ex] {
      std::lock_guard<std::mutex> l(ex.m.mu);
      std::string missing;
      for (size_t r = 0; r < rz->op.size(); ++r)
        if (rz->op[r].empty())
          missing += (missing.empty() ? "" : ", ") + std::to_string(d.devices[r]);
      return fmt::format(
          "collective #{} on comm domain {}: {} of {} ranks arrived (rank(s) {} never "
          "reached it)",
          seq, d.Describe(), rz->arrived, rz->op.size(), missing);
    };
    ex.sched.Block(
        ex.t, [rz] { return rz->done.load(); }, std::move(bi));
  }
  if (!rz->error.empty()) ex.Fail(rz->error);
  ClockJoin(ex.t.clock, rz->clock);
  Ctx c{ex, *rz, d, n, call, ex.KwEnum(call, "op", ir::ReduceOp::kSum)};
  bool shared = kind == Kind::kAllReduce && !ex.races.enabled();
  if (shared) {
    for (int r = 0; r < n && shared; ++r) {
      const TensorVal& t = c.T(r, call.op->args[0].name.c_str());
      shared = Contiguous(t) && t.IsWindow();
      if (shared) ex.CheckRegion(t, c.Dev(r), std::vector<int64_t>(t.rank(), 0), t.shape, "target");
    }
  }
  if (shared) {
    AllReduceShare(c, me);
  } else if (me == 0) {
    WholeOp(c, kind);
  }
  int fin = ++rz->finished;
  ex.sched.Wake();
  if (fin < n) {
    BlockInfo bi;
    bi.what = name + " (completion)";
    bi.function = ex.FunctionName();
    bi.span = call.span;
    ex.sched.Block(
        ex.t, [rz, n] { return rz->finished.load() >= n; }, std::move(bi));
  } else if (ex.in.opts.check_signals && sig_alloc >= 0) {
    ex.in.CheckSignalZero(sig_alloc, "after " + name + " at " + ex.in.FormatSpan(call.span));
  }
  ClockTick(ex.t);
  return *win;
}

template <Kind K>
Value Run(Exec& ex, const ir::Call& call, std::vector<Value>& args) {
  return Collective(ex, call, args, K);
}

// What each collective runs. A builtin collective (its HOST dispatch) runs its
// collective's operation, found through the declared builtin twin.
constexpr std::pair<ir::OpHandle, OpFn> kCollectives[] = {
    {ops::kPldAllreduce, Run<Kind::kAllReduce>},
    {ops::kPldBarrier, Run<Kind::kBarrier>},
    {ops::kPldBroadcast, Run<Kind::kBroadcast>},
    {ops::kPldReduceScatter, Run<Kind::kReduceScatter>},
    {ops::kPldAllgather, Run<Kind::kAllGather>},
    {ops::kPldAllToAll, Run<Kind::kAllToAll>},
    {ops::kPldAllToAllV, Run<Kind::kAllToAllV>},
    // The ring dispatch of pld.tensor.allreduce(mode="ring") (no collective declares
    // it as its builtin twin: that is the mesh builtin.tensor.allreduce).
    {ops::kBuiltinAllreduceRing, Run<Kind::kAllReduce>},
};

}  // namespace

void RegisterCollectiveSemantics(OpTable& t) {
  for (const auto& [h, fn] : kCollectives) {
    t.Set(h, fn, OpKind::kCollective);
    if (ir::OpHandle b = ops::Get(h).builtin_twin; b.valid()) t.Set(b, fn, OpKind::kCollective);
  }
}

}  // namespace pypto::sim
