// Exec: per-thread helpers shared by every op handler — argument access by the
// op's registered names, kwarg readers, and window/host memory access with
// bounds checks, valid regions, race-detector hooks and traffic statistics.
#include <fmt/format.h>

#include <cstring>

#include "pypto/sim/arg_directions.h"
#include "pypto/sim/interpreter.h"

namespace pypto::sim {

using namespace ir;

// The GM start alignment of an MTE transfer (--check-alignment).
constexpr int64_t kGmTransferAlign = 32;

// The op name errors and race reports give: the current call's, or "" outside one.
static const std::string& OpNameOf(const Call* c) {
  static const std::string kNone;
  return c && c->op ? c->op->name : kNone;
}

Exec::Exec(Interpreter& i, LogicalThread& th)
    : in(i), t(th), m(i.machine), sched(i.sched), races(i.races) {}

std::string Exec::FunctionName() const {
  return frame && frame->fn ? frame->fn->name : std::string();
}

void Exec::Fail(const std::string& msg, int code) const {
  Span s = cur_call ? cur_call->span : Span{};
  const std::string& op = OpNameOf(cur_call);
  std::string who = device() >= 0 ? fmt::format(" (on rank {})", device()) : "";
  throw SimError(s, (op.empty() ? "" : op + ": ") + msg + who, code);
}

void Exec::Point() {
  if (!sched.Tick()) throw StepBudgetError(cur_call ? cur_call->span : Span{}, sched.max_steps());
  sched.Point(t);
}

const Value* Exec::Arg(const Call& c, std::vector<Value>& args, std::string_view name) {
  if (!c.op) return nullptr;
  int i = c.op->ArgIndex(name);
  if (i < 0 || static_cast<size_t>(i) >= args.size()) return nullptr;
  if (args[i].kind == Value::Kind::kNone) return nullptr;
  return &args[i];
}

int64_t Exec::KwInt(const Call& c, std::string_view name, int64_t def) {
  const Attr* a = FindAttr(c.kwargs, name);
  if (!a) return def;
  if (a->kind == Attr::Kind::kInt || a->kind == Attr::Kind::kEnum) return a->i;
  if (a->kind == Attr::Kind::kBool) return a->b;
  return def;
}
bool Exec::KwBool(const Call& c, std::string_view name, bool def) {
  const Attr* a = FindAttr(c.kwargs, name);
  if (!a) return def;
  if (a->kind == Attr::Kind::kBool) return a->b;
  if (a->kind == Attr::Kind::kInt) return a->i != 0;
  return def;
}
std::string Exec::KwStr(const Call& c, std::string_view name, const std::string& def) {
  const Attr* a = FindAttr(c.kwargs, name);
  return a && a->kind == Attr::Kind::kString ? a->s : def;
}
std::optional<DataType> Exec::KwDType(const Call& c, std::string_view name) {
  const Attr* a = FindAttr(c.kwargs, name);
  if (a && a->kind == Attr::Kind::kDType) return a->dtype;
  return std::nullopt;
}

const TensorVal& Exec::Tensor(const Value& v, const char* what) const {
  if (v.kind != Value::Kind::kTensor)
    Fail(fmt::format("'{}' must be a tensor, got {}", what, DescribeValue(v)));
  return *v.tensor;
}
const TileVal& Exec::Tile(const Value& v, const char* what) const {
  if (v.kind != Value::Kind::kTile)
    Fail(fmt::format("'{}' must be a tile, got {}", what, DescribeValue(v)));
  return *v.tile;
}
int64_t Exec::Int(const Value& v, const char* what) const {
  if (v.kind != Value::Kind::kScalar)
    Fail(fmt::format("'{}' must be a scalar, got {}", what, DescribeValue(v)));
  return v.AsInt();
}
std::vector<int64_t> Exec::Ints(const Value& v, const char* what) const {
  std::vector<int64_t> out;
  if (v.kind == Value::Kind::kScalar) return {v.AsInt()};
  if (v.kind != Value::Kind::kTuple)
    Fail(fmt::format("'{}' must be a tuple of integers, got {}", what, DescribeValue(v)));
  for (const Value& e : *v.tuple) out.push_back(Int(e, what));
  return out;
}

uint8_t* Exec::Base(const TensorVal& v, int dev) const {
  if (v.IsWindow()) {
    if (dev < 0)
      Fail(fmt::format(
          "window tensor '{}' is accessed from the host; window memory lives on the ranks",
          v.name));
    return m.WindowBytes(v.alloc, dev);
  }
  return v.host->data;
}

static int64_t StorageElems(Machine& m, const TensorVal& v) {
  int64_t bytes = v.IsWindow() ? m.alloc(v.alloc).bytes : static_cast<int64_t>(v.host->size);
  return bytes / DTypeBytes(v.dtype);
}

void Exec::CheckTransferAlignment(const TensorVal& v, const std::vector<int64_t>& off,
                                  const std::vector<int64_t>& ext, const char* role) const {
  if (!in.opts.check_alignment || off.size() != v.rank()) return;
  for (int64_t e : ext)
    if (e <= 0) return;
  int64_t e = v.offset - v.gm_base;
  for (size_t k = 0; k < off.size(); ++k) e += off[k] * v.strides[k];
  int64_t byte = e * DTypeBytes(v.dtype);
  if (byte % kGmTransferAlign == 0) return;
  std::string where = v.IsWindow() ? fmt::format("window '{}'", m.alloc(v.alloc).name)
                                   : fmt::format("tensor '{}'", v.name);
  Fail(
      fmt::format("misaligned GM transfer (--check-alignment): '{}' ('{}') starts at byte {} "
                  "of {} (element {} of a {} {} view), not a multiple of {}; MTE transfers "
                  "need {}-byte aligned GM starts",
                  role, v.name, byte, where, ShapeString(off), DTypeName(v.dtype),
                  ShapeString(v.shape), kGmTransferAlign, kGmTransferAlign));
}

void Exec::CheckRegion(const TensorVal& v, int dev, const std::vector<int64_t>& off,
                       const std::vector<int64_t>& ext, const char* role) const {
  if (off.size() != v.rank() || ext.size() != v.rank())
    Fail(fmt::format("'{}' region has rank {} but tensor '{}' has rank {}", role, off.size(),
                     v.name, v.rank()));
  std::string where =
      v.IsWindow() ? fmt::format(" of window '{}' on rank {}", m.alloc(v.alloc).name, dev) : "";
  for (size_t k = 0; k < v.rank(); ++k)
    if (ext[k] < 0 || off[k] < 0 || off[k] + ext[k] > v.shape[k])
      Fail(fmt::format(
          "out-of-bounds access: '{}' region offsets {} extents {} exceeds tensor "
          "'{}' shape {}{}",
          role, ShapeString(off), ShapeString(ext), v.name, ShapeString(v.shape), where));
  // The view itself must lie inside its storage.
  int64_t lo = v.offset, hi = v.offset;
  bool empty = false;
  for (size_t k = 0; k < v.rank(); ++k) {
    if (ext[k] == 0) empty = true;
    int64_t a = (off[k]) * v.strides[k], b = (off[k] + ext[k] - 1) * v.strides[k];
    lo += std::min(a, b);
    hi += std::max(a, b);
  }
  if (!empty && (lo < 0 || hi >= StorageElems(m, v)))
    Fail(
        fmt::format("out-of-bounds access: '{}' of tensor '{}' reaches element {} but its "
                    "storage{} holds {} elements",
                    role, v.name, hi, where, StorageElems(m, v)));
}

// Calls fn(element_offset, linear_index, count, stride) for every innermost row
// of the box: `count` elements starting at storage element `element_offset`,
// `stride` elements apart, that are elements [linear_index, linear_index+count)
// of the box in row-major order.
template <typename F>
static void ForRows(const TensorVal& v, const std::vector<int64_t>& off,
                    const std::vector<int64_t>& ext, F&& fn) {
  size_t r = v.rank();
  int64_t n = 1;
  for (int64_t e : ext) n *= e;
  if (n == 0) return;
  if (r == 0) {
    fn(v.offset, int64_t{0}, int64_t{1}, int64_t{1});
    return;
  }
  std::vector<int64_t> idx(r, 0);
  int64_t base = v.offset;
  for (size_t k = 0; k < r; ++k) base += off[k] * v.strides[k];
  int64_t inner = ext[r - 1], istride = v.strides[r - 1];
  for (int64_t lin = 0;; lin += inner) {
    int64_t row = base;
    for (size_t k = 0; k + 1 < r; ++k) row += idx[k] * v.strides[k];
    fn(row, lin, inner, istride);
    if (r == 1) return;
    size_t k = r - 2;
    while (true) {
      if (++idx[k] < ext[k]) break;
      idx[k] = 0;
      if (k == 0) return;
      --k;
    }
  }
}

// ForRows by contiguous runs: fn(element_offset, linear_index, count) once per
// row of stride 1, once per element of a strided row (the transport's unit).
template <typename F>
static void ForRuns(const TensorVal& v, const std::vector<int64_t>& off,
                    const std::vector<int64_t>& ext, F&& fn) {
  ForRows(v, off, ext, [&](int64_t e, int64_t lin, int64_t count, int64_t stride) {
    if (stride == 1) return fn(e, lin, count);
    for (int64_t j = 0; j < count; ++j) fn(e + j * stride, lin + j, int64_t{1});
  });
}

// The race-detector hook of one row: one call per contiguous row, one per
// element of a strided one.
void Exec::TrackRow(const TensorVal& v, int dev, int64_t e, int64_t count, int64_t stride,
                    bool write, bool atomic) {
  const std::string& op = OpNameOf(cur_call);
  Span sp = cur_call ? cur_call->span : Span{};
  int64_t eb = DTypeBytes(v.dtype);
  if (stride == 1) {
    races.Access(t, v.alloc, dev, e * eb, count * eb, write, atomic, op, sp);
    return;
  }
  for (int64_t j = 0; j < count; ++j)
    races.Access(t, v.alloc, dev, (e + j * stride) * eb, eb, write, atomic, op, sp);
}

void Exec::CountTraffic(const TensorVal& v, int dev, int64_t bytes, bool sent) {
  if (!v.IsWindow() || dev == device() || device() < 0) return;
  (sent ? m.stats()[device()].bytes_sent : m.stats()[device()].bytes_received) += bytes;
  if (note) note->bytes += bytes;
}

void Exec::JudgeDirections(const TensorVal& v, const std::vector<int64_t>& off,
                           const std::vector<int64_t>& ext, bool write, const char* role) {
  int64_t eb = DTypeBytes(v.dtype);
  const DirGuard* bad = nullptr;
  ForRuns(v, off, ext, [&](int64_t e, int64_t, int64_t count) {
    if (!bad) bad = JudgeAccess(v, e * eb, (e + count) * eb, write);
  });
  if (bad) FailDirection(*this, *bad, v, write, role, off, ext);
}

void Exec::ReadBytes(const TensorVal& v, int dev, const std::vector<int64_t>& off,
                     const std::vector<int64_t>& ext, uint8_t* out, const char* role) {
  CheckRegion(v, dev, off, ext, role);
  if (v.dir) JudgeDirections(v, off, ext, false, role);
  const uint8_t* base = Base(v, dev);
  int64_t eb = DTypeBytes(v.dtype), n = 0;
  bool track = races.enabled() && v.IsWindow();
  if (!base) {  // a rank another process holds: one get per contiguous run
    Transport& tp = *m.transport();
    ForRuns(v, off, ext, [&](int64_t e, int64_t lin, int64_t count) {
      tp.Get(v.alloc, dev, e * eb, out + lin * eb, static_cast<size_t>(count * eb));
      n += count;
    });
    tp.Complete(v.alloc, dev);
    CountTraffic(v, dev, n * eb, false);
    return;
  }
  ForRows(v, off, ext, [&](int64_t e, int64_t lin, int64_t count, int64_t stride) {
    if (stride == 1) {
      std::memcpy(out + lin * eb, base + e * eb, static_cast<size_t>(count * eb));
    } else {
      for (int64_t j = 0; j < count; ++j)
        std::memcpy(out + (lin + j) * eb, base + (e + j * stride) * eb, static_cast<size_t>(eb));
    }
    if (track) TrackRow(v, dev, e, count, stride, false, false);
    n += count;
  });
  CountTraffic(v, dev, n * eb, false);
}

std::vector<double> Exec::ReadRegion(const TensorVal& v, int dev, const std::vector<int64_t>& off,
                                     const std::vector<int64_t>& ext, const char* role) {
  CheckRegion(v, dev, off, ext, role);
  int64_t n = 1;
  for (int64_t e : ext) n *= e;
  std::vector<uint8_t> bytes(static_cast<size_t>(n * DTypeBytes(v.dtype)));
  ReadBytes(v, dev, off, ext, bytes.data(), role);
  std::vector<double> out(static_cast<size_t>(n));
  int eb = DTypeBytes(v.dtype);
  for (int64_t i = 0; i < n; ++i) out[i] = LoadElem(bytes.data() + i * eb, v.dtype);
  return out;
}

template <typename T>
static void AtomicAddT(uint8_t* p, double v) {
  std::atomic_ref<T>(*reinterpret_cast<T*>(p)).fetch_add(static_cast<T>(v));
}

static void AtomicAdd16(uint8_t* p, DataType dt, double v) {
  std::atomic_ref<uint16_t> a(*reinterpret_cast<uint16_t*>(p));
  uint16_t old = a.load();
  while (true) {
    uint8_t buf[2];
    std::memcpy(buf, &old, 2);
    AddElem(buf, dt, v);
    uint16_t nw;
    std::memcpy(&nw, buf, 2);
    if (a.compare_exchange_weak(old, nw)) return;
  }
}

static void AtomicAddElem(uint8_t* p, DataType dt, double v) {
  switch (dt) {
    case DataType::kFP32: {
      // Round the addend to FP32 first: hardware adds two FP32 values.
      std::atomic_ref<float>(*reinterpret_cast<float*>(p)).fetch_add(static_cast<float>(v));
      return;
    }
    case DataType::kInt32:
      AtomicAddT<int32_t>(p, v);
      return;
    case DataType::kInt16:
      AtomicAddT<int16_t>(p, v);
      return;
    case DataType::kInt8:
      AtomicAddT<int8_t>(p, v);
      return;
    case DataType::kFP16:
    case DataType::kBF16:
      AtomicAdd16(p, dt, v);
      return;
    default:
      AddElem(p, dt, v);
  }
}

// Writes the box row by row. Box element i is packed[i] (dtype bytes) when
// `packed` is set, else value(i) converted to the dtype; an atomic write adds
// value(i). Rows of a rank another process holds, and every atomic write when
// there is a transport (atomic against the other processes' adds too), go
// through the transport, staged one row at a time.
template <typename F>
void Exec::WriteRows(const TensorVal& v, int dev, const std::vector<int64_t>& off,
                     const std::vector<int64_t>& ext, bool atomic_add, const char* role,
                     const uint8_t* packed, F&& value) {
  CheckRegion(v, dev, off, ext, role);
  if (v.dir) JudgeDirections(v, off, ext, true, role);
  uint8_t* base = Base(v, dev);
  int64_t eb = DTypeBytes(v.dtype), n = 0;
  DataType dt = v.dtype;
  bool track = races.enabled() && v.IsWindow();
  Transport* tp = v.IsWindow() && (!base || atomic_add) ? m.transport() : nullptr;
  if (tp) {
    std::vector<uint8_t> row;
    std::vector<double> addends;
    ForRuns(v, off, ext, [&](int64_t e, int64_t lin, int64_t count) {
      if (atomic_add) {
        addends.resize(static_cast<size_t>(count));
        for (int64_t i = 0; i < count; ++i) addends[i] = value(lin + i);
        tp->AtomicAdd(v.alloc, dev, e * eb, dt, addends.data(), count);
      } else if (packed) {
        tp->Put(v.alloc, dev, e * eb, packed + lin * eb, static_cast<size_t>(count * eb));
      } else {
        row.resize(static_cast<size_t>(count * eb));
        for (int64_t i = 0; i < count; ++i) StoreElem(row.data() + i * eb, dt, value(lin + i));
        tp->Put(v.alloc, dev, e * eb, row.data(), row.size());
      }
      n += count;
    });
    tp->Complete(v.alloc, dev);
    CountTraffic(v, dev, n * eb, true);
    return;
  }
  ForRows(v, off, ext, [&](int64_t e, int64_t lin, int64_t count, int64_t stride) {
    if (packed && stride == 1) {
      std::memcpy(base + e * eb, packed + lin * eb, static_cast<size_t>(count * eb));
    } else {
      for (int64_t j = 0; j < count; ++j) {
        uint8_t* p = base + (e + j * stride) * eb;
        if (atomic_add)
          AtomicAddElem(p, dt, value(lin + j));
        else if (packed)
          std::memcpy(p, packed + (lin + j) * eb, static_cast<size_t>(eb));
        else
          StoreElem(p, dt, value(lin + j));
      }
    }
    if (track) TrackRow(v, dev, e, count, stride, true, atomic_add);
    n += count;
  });
  CountTraffic(v, dev, n * eb, true);
}

void Exec::WriteBytes(const TensorVal& v, int dev, const std::vector<int64_t>& off,
                      const std::vector<int64_t>& ext, const uint8_t* data, bool atomic_add,
                      const char* role) {
  int64_t eb = DTypeBytes(v.dtype);
  DataType dt = v.dtype;
  WriteRows(v, dev, off, ext, atomic_add, role, atomic_add ? nullptr : data,
            [&](int64_t i) { return LoadElem(data + i * eb, dt); });
}

void Exec::WriteRegion(const TensorVal& v, int dev, const std::vector<int64_t>& off,
                       const std::vector<int64_t>& ext, const double* data, bool atomic_add,
                       const char* role) {
  WriteRows(v, dev, off, ext, atomic_add, role, nullptr, [&](int64_t i) { return data[i]; });
}

int64_t Exec::CellByteOffset(const TensorVal& v, const std::vector<int64_t>& idx,
                             const char* role) const {
  if (idx.size() != v.rank())
    Fail(fmt::format("'{}' has {} indices but signal '{}' has rank {}", role, idx.size(), v.name,
                     v.rank()));
  int64_t e = v.offset;
  for (size_t k = 0; k < idx.size(); ++k) {
    if (idx[k] < 0 || idx[k] >= v.shape[k])
      Fail(fmt::format("out-of-bounds signal cell {} of '{}' with shape {}", ShapeString(idx),
                       v.name, ShapeString(v.shape)));
    e += idx[k] * v.strides[k];
  }
  int64_t b = e * DTypeBytes(v.dtype);
  if (b < 0 || b + 4 > m.alloc(v.alloc).bytes)
    Fail(fmt::format("out-of-bounds signal cell {} of '{}': byte {} of window '{}' ({} bytes)",
                     ShapeString(idx), v.name, b, m.alloc(v.alloc).name, m.alloc(v.alloc).bytes));
  return b;
}

int Exec::PeerDevice(const TensorVal& v, int64_t peer) const {
  const Domain& d = m.domain(m.DomainOf(v.alloc));
  if (peer < 0 || peer >= static_cast<int64_t>(d.devices.size()))
    Fail(
        fmt::format("out-of-bounds peer access: peer {} is not a rank of the comm domain {} of "
                    "window '{}' ({} ranks)",
                    peer, d.Describe(), m.alloc(v.alloc).name, d.devices.size()));
  return d.devices[peer];
}

int Exec::MyDomainRank(const TensorVal& v) const {
  const Domain& d = m.domain(m.DomainOf(v.alloc));
  int r = d.RankOf(device());
  if (r < 0)
    Fail(fmt::format("rank {} is not a member of the comm domain {} of window '{}'", device(),
                     d.Describe(), m.alloc(v.alloc).name));
  return r;
}

}  // namespace pypto::sim
