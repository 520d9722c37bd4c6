// HOST SubWorker calls: the host orchestrator calls a function whose body is
// host code (upstream's plain-Python sub-worker). The queued device work lands
// first (the sub-worker reads its results), then the arguments are packed into
// HostArrays, RunOptions::subworker runs the host code, Out / InOut arguments
// are copied back into the caller's tensors and the results become values.
#include <fmt/format.h>

#include <cstring>
#include <exception>

#include "pypto/ir/casting.h"
#include "pypto/ir/printer.h"
#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

using namespace ir;

namespace {

// Visits every element of a strided view in row-major order: fn(element offset).
template <typename Fn>
void ForEachElement(const TensorVal& t, Fn fn) {
  const size_t r = t.rank();
  int64_t n = t.NumElements();
  if (n == 0) return;
  std::vector<int64_t> idx(r, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = t.offset;
    for (size_t d = 0; d < r; ++d) off += idx[d] * t.strides[d];
    fn(off);
    for (size_t d = r; d-- > 0;) {
      if (++idx[d] < t.shape[d]) break;
      idx[d] = 0;
    }
  }
}

HostArray Pack(const TensorVal& t) {
  HostArray h;
  h.dtype = t.dtype;
  h.shape = t.shape;
  const int eb = DTypeBytes(t.dtype);
  h.bytes.resize(static_cast<size_t>(t.NumElements()) * eb);
  uint8_t* dst = h.bytes.data();
  const uint8_t* base = t.host->data;
  ForEachElement(t, [&](int64_t off) {
    std::memcpy(dst, base + off * eb, static_cast<size_t>(eb));
    dst += eb;
  });
  return h;
}

void Unpack(const HostArray& h, const TensorVal& t) {
  const int eb = DTypeBytes(t.dtype);
  const uint8_t* src = h.bytes.data();
  uint8_t* base = t.host->data;
  ForEachElement(t, [&](int64_t off) {
    std::memcpy(base + off * eb, src, static_cast<size_t>(eb));
    src += eb;
  });
}

}  // namespace

Value Interpreter::CallSubWorker(Exec& ex, const Call* c, const Function& f,
                                 std::vector<Value> args) {
  const std::string what = "SubWorker '" + f.name + "'";
  if (!ex.is_host())
    throw SimError(c->span, what + " is host code; only the host orchestrator calls it");
  if (!opts.subworker)
    throw SimError(c->span, what +
                                " is host Python, which pypto-run cannot run; run the "
                                "decorated program with pypto.runtime (or pypto.sim.run), which "
                                "calls the Python function");
  if (args.size() != f.params.size())
    throw SimError(c->span, fmt::format("call of {} with {} arguments; it takes {}", what,
                                        args.size(), f.params.size()));
  Flush(ex);  // the sub-worker reads what the queued device work wrote
  SubWorkerCall call;
  call.fn = &f;
  for (size_t i = 0; i < args.size(); ++i) {
    const Value& v = args[i];
    const std::string& pname = f.params[i]->name_hint;
    ParamDirection dir = i < f.param_dirs.size() ? f.param_dirs[i] : ParamDirection::kIn;
    if (v.IsScalar()) {
      HostArray h;
      h.dtype = v.dtype == DataType::kIndex ? DataType::kInt64 : v.dtype;
      h.bytes.resize(static_cast<size_t>(DTypeBytes(h.dtype)));
      StoreElem(h.bytes.data(), h.dtype, v.AsDouble());
      if (IsInteger(h.dtype) && DTypeBytes(h.dtype) == 8) std::memcpy(h.bytes.data(), &v.i, 8);
      call.args.push_back(std::move(h));
      call.writable.push_back(false);
      call.is_scalar.push_back(true);
      continue;
    }
    if (v.kind != Value::Kind::kTensor || !v.tensor || v.tensor->IsWindow())
      throw SimError(
          c->span,
          fmt::format("{}: argument '{}' is {}; a SubWorker takes host tensors and "
                      "scalars (window memory lives on the ranks)",
                      what, pname,
                      v.kind == Value::Kind::kTensor ? "a window view" : DescribeValue(v)));
    call.args.push_back(Pack(*v.tensor));
    call.writable.push_back(dir != ParamDirection::kIn);
    call.is_scalar.push_back(false);
  }
  int64_t ts = trace.enabled() ? sched.Now(ex.t) : 0;
  try {
    opts.subworker(call);
  } catch (const Aborted&) {
    throw;
  } catch (const std::exception& e) {
    throw SimError(c->span, what + " raised " + e.what());
  }
  if (trace.enabled()) {  // a host call (the timeline draws it on the host row)
    TraceEvent e;
    e.tid = ex.t.tid;
    e.name = f.name;
    e.cat = kCatCall;
    e.ts = ts;
    e.dur = sched.Now(ex.t) - ts;
    e.where = FormatSpan(c->span);
    trace.Event(std::move(e));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!call.writable[i]) continue;
    const TensorVal& t = *args[i].tensor;
    const HostArray& h = call.args[i];
    if (h.shape != t.shape || h.dtype != t.dtype ||
        h.bytes.size() != static_cast<size_t>(t.NumElements()) * DTypeBytes(t.dtype))
      throw SimError(c->span,
                     fmt::format("{}: argument '{}' changed shape or dtype during the call", what,
                                 f.params[i]->name_hint));
    Unpack(h, t);
  }
  if (!call.returned) {
    if (!f.return_types.empty())
      throw SimError(c->span, fmt::format("{} returned None; it is declared to return {}", what,
                                          TypeToString(f.return_types[0])));
    return Value::None();
  }
  if (call.results.size() != f.return_types.size())
    throw SimError(c->span, fmt::format("{} returned {} value(s); it is declared to return {}",
                                        what, call.results.size(), f.return_types.size()));
  std::vector<Value> rets;
  for (size_t k = 0; k < call.results.size(); ++k) {
    const SubWorkerCall::Result& r = call.results[k];
    if (r.arg >= 0 && static_cast<size_t>(r.arg) < args.size()) {
      rets.push_back(args[r.arg]);
      continue;
    }
    const auto* tt = AsTensorTypeLike(f.return_types[k]);
    if (!tt || tt->dtype != r.array.dtype)
      throw SimError(c->span,
                     fmt::format("{}: result {} is a {} array; it is declared {}", what, k,
                                 DTypeName(r.array.dtype), TypeToString(f.return_types[k])));
    auto t = NewHostTensor(r.array.dtype, r.array.shape, f.name + "_result");
    if (r.array.bytes.size() != static_cast<size_t>(t->NumElements()) * DTypeBytes(t->dtype))
      throw SimError(c->span, fmt::format("{}: result {} has {} bytes for shape {}", what, k,
                                          r.array.bytes.size(), ShapeString(r.array.shape)));
    if (!r.array.bytes.empty())
      std::memcpy(t->host->data, r.array.bytes.data(), r.array.bytes.size());
    rets.push_back(Value::Of(t));
  }
  ClockTick(ex.t);
  if (rets.size() == 1) return rets[0];
  return Value::Tuple(std::move(rets));
}

}  // namespace pypto::sim
