// The rendezvous of a whole-operation collective under a transport (one rank
// per process): instead of a shared Rendezvous, two rounds of messages among
// the comm domain's ranks (Transport::StartExchange). The arrival round sends
// each rank's op, position and operands: window views as descriptors (the
// allocation ids agree across processes), scalars as values, host tensors as
// their bytes (collectives only read them), so domain rank 0 can run the
// operation on every rank's windows through the transport exactly as the
// in-process engine does; the completion round tells the others it is done.
// A wait for either round blocks through the scheduler (deadline, peer failure).
#include <fmt/format.h>

#include <cstring>

#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

namespace {

class Writer {
 public:
  void I(int64_t v) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
    b.insert(b.end(), p, p + sizeof(v));
  }
  void F(double v) {
    int64_t i;
    std::memcpy(&i, &v, sizeof(v));
    I(i);
  }
  void S(const std::string& s) {
    I(static_cast<int64_t>(s.size()));
    b.insert(b.end(), s.begin(), s.end());
  }
  void V(const std::vector<int64_t>& v) {
    I(static_cast<int64_t>(v.size()));
    for (int64_t x : v) I(x);
  }
  void Bytes(const uint8_t* p, size_t n) {
    I(static_cast<int64_t>(n));
    b.insert(b.end(), p, p + n);
  }
  std::vector<uint8_t> b;
};

class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& b) : b_(b) {}
  int64_t I() {
    int64_t v = 0;
    std::memcpy(&v, b_.data() + at_, sizeof(v));
    at_ += sizeof(v);
    return v;
  }
  double F() {
    int64_t i = I();
    double v;
    std::memcpy(&v, &i, sizeof(v));
    return v;
  }
  std::string S() {
    size_t n = static_cast<size_t>(I());
    std::string s(b_.begin() + at_, b_.begin() + at_ + n);
    at_ += n;
    return s;
  }
  std::vector<int64_t> V() {
    std::vector<int64_t> v(static_cast<size_t>(I()));
    for (int64_t& x : v) x = I();
    return v;
  }
  const uint8_t* Bytes(size_t* n) {
    *n = static_cast<size_t>(I());
    const uint8_t* p = b_.data() + at_;
    at_ += *n;
    return p;
  }

 private:
  const std::vector<uint8_t>& b_;
  size_t at_ = 0;
};

void PutValue(Exec& ex, Writer& w, const Value& v) {
  w.I(static_cast<int64_t>(v.kind));
  switch (v.kind) {
    case Value::Kind::kNone:
      return;
    case Value::Kind::kScalar:
      w.I(static_cast<int64_t>(v.dtype));
      w.I(v.i);
      w.F(v.f);
      return;
    case Value::Kind::kPtr:
    case Value::Kind::kCommCtx:
      w.I(v.i);
      return;
    case Value::Kind::kTuple:
      w.I(static_cast<int64_t>(v.tuple->size()));
      for (const Value& e : *v.tuple) PutValue(ex, w, e);
      return;
    case Value::Kind::kTensor: {
      const TensorVal& t = *v.tensor;
      w.I(t.alloc);
      w.I(static_cast<int64_t>(t.dtype));
      w.I(t.offset);
      w.V(t.shape);
      w.V(t.strides);
      w.V(t.valid);
      w.S(t.name);
      w.I(t.gm_base);
      if (t.IsWindow()) return;
      std::vector<uint8_t> bytes(static_cast<size_t>(t.NumElements() * DTypeBytes(t.dtype)));
      ex.ReadBytes(t, ex.device(), std::vector<int64_t>(t.rank(), 0), t.shape, bytes.data(),
                   "operand");
      w.Bytes(bytes.data(), bytes.size());
      return;
    }
    default:
      ex.Fail(fmt::format("an operand is {}, which --transport=mpi cannot send to the other ranks",
                          DescribeValue(v)));
  }
}

Value GetValue(Reader& r) {
  Value v;
  v.kind = static_cast<Value::Kind>(r.I());
  switch (v.kind) {
    case Value::Kind::kScalar:
      v.dtype = static_cast<DataType>(r.I());
      v.i = r.I();
      v.f = r.F();
      break;
    case Value::Kind::kPtr:
    case Value::Kind::kCommCtx:
      v.i = r.I();
      break;
    case Value::Kind::kTuple: {
      auto items = std::make_shared<std::vector<Value>>(static_cast<size_t>(r.I()));
      for (Value& e : *items) e = GetValue(r);
      v.tuple = items;
      break;
    }
    case Value::Kind::kTensor: {
      auto t = std::make_shared<TensorVal>();
      t->alloc = static_cast<int>(r.I());
      t->dtype = static_cast<DataType>(r.I());
      t->offset = r.I();
      t->shape = r.V();
      t->strides = r.V();
      t->valid = r.V();
      t->name = r.S();
      t->gm_base = r.I();
      if (!t->IsWindow()) {  // the sender's bytes, packed over its shape
        size_t n = 0;
        const uint8_t* p = r.Bytes(&n);
        t->host = NewHostTensor(t->dtype, t->shape)->host;
        std::memcpy(t->host->data, p, n);
        t->offset = 0;
        t->gm_base = 0;
        t->strides = PackedStrides(t->shape);
      }
      v.tensor = t;
      break;
    }
    default:
      break;
  }
  return v;
}

// One round among the domain's ranks; blocks until every rank's message is in.
std::vector<std::vector<uint8_t>> Round(Exec& ex, const ir::Call& call, const Domain& d,
                                        int64_t seq, const std::vector<uint8_t>& mine,
                                        const std::string& what) {
  Transport& tp = *ex.m.transport();
  int round = tp.StartExchange(d.devices, mine);
  if (!tp.ExchangeDone(round)) {
    BlockInfo bi;
    bi.what = what;
    bi.function = ex.FunctionName();
    bi.span = call.span;
    bi.describe = [&tp, round, &d, seq] {
      std::string missing;
      for (int r : tp.Missing(round)) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
      return fmt::format("collective #{} on comm domain {}: rank(s) {} never reached it", seq,
                         d.Describe(), missing);
    };
    ex.sched.Block(
        ex.t, [&tp, round] { return tp.ExchangeDone(round); }, std::move(bi));
  }
  return tp.TakeExchange(round);
}

}  // namespace

void ExchangeArrivals(Exec& ex, const ir::Call& call, const std::vector<Value>& args,
                      const Domain& d, int64_t seq, Rendezvous* rz) {
  Writer w;
  w.S(call.op->name);
  w.I(call.span.file);
  w.I(call.span.line);
  w.I(call.span.col);
  w.I(static_cast<int64_t>(args.size()));
  for (const Value& v : args) PutValue(ex, w, v);
  std::vector<std::vector<uint8_t>> all = Round(ex, call, d, seq, w.b, call.op->name);
  for (size_t r = 0; r < all.size(); ++r) {
    Reader rd(all[r]);
    rz->op[r] = rd.S();
    rz->span[r].file = static_cast<int32_t>(rd.I());
    rz->span[r].line = static_cast<int32_t>(rd.I());
    rz->span[r].col = static_cast<int32_t>(rd.I());
    rz->args[r].resize(static_cast<size_t>(rd.I()));
    for (Value& v : rz->args[r]) v = GetValue(rd);
    rz->call[r] = &call;  // the op is checked to agree before any use
  }
  rz->arrived = static_cast<int>(all.size());
}

void ExchangeCompletion(Exec& ex, const ir::Call& call, const Domain& d, int64_t seq) {
  Round(ex, call, d, seq, {}, call.op->name + " (completion)");
}

}  // namespace pypto::sim
