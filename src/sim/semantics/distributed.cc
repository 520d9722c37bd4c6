// Semantics of the pld primitives: window allocation and views, comm context
// queries, notify/wait/defer_wait on INT32 signal cells, remote_load,
// remote_store, and put/get (whole slice or matching subregions; chunking and
// pipelining are staging details with no effect on the result). Peers are ranks
// of the window's comm domain; out-of-range peers and regions are errors.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

#include "pypto/core/checked_int.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/transfer_operands.h"
#include "pypto/sim/interpreter.h"
#include "pypto/sim/semantics_util.h"

namespace pypto::sim {

namespace {

std::vector<int64_t> Zeros(size_t n) { return std::vector<int64_t>(n, 0); }

// Copies box `ext` of (src, src_dev, soff) to (dst, dst_dev, doff): raw rows
// through one staging buffer when the dtypes match (the source is read whole
// first, so overlapping regions copy as a snapshot), else converted element by
// element to dst's dtype.
void CopyRegion(Exec& ex, const TensorVal& src, int src_dev, const std::vector<int64_t>& soff,
                const TensorVal& dst, int dst_dev, const std::vector<int64_t>& doff,
                const std::vector<int64_t>& sext, const std::vector<int64_t>& dext, bool atomic,
                const char* dst_role) {
  if (src.dtype != dst.dtype) {
    std::vector<double> v = ex.ReadRegion(src, src_dev, soff, sext, "src");
    ex.WriteRegion(dst, dst_dev, doff, dext, v.data(), atomic, dst_role);
    return;
  }
  ex.CheckRegion(src, src_dev, soff, sext, "src");
  int64_t n = 1;
  for (int64_t e : sext) n *= e;
  std::vector<uint8_t> v(static_cast<size_t>(n * DTypeBytes(src.dtype)));
  ex.ReadBytes(src, src_dev, soff, sext, v.data(), "src");
  ex.WriteBytes(dst, dst_dev, doff, dext, v.data(), atomic, dst_role);
}

// The atomic= kwarg of a store or put: accumulate rather than overwrite.
bool AtomicAdd(Exec& ex, const ir::Call& c) {
  return ex.KwEnum(c, "atomic", ir::AtomicType::kNone) == ir::AtomicType::kAdd;
}

Value AllocWindow(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  int64_t bytes;
  if (a[0].kind == Value::Kind::kTuple) {
    auto dt = Exec::KwDType(c, "dtype");
    if (!dt) ex.Fail("a shape size needs dtype=");
    std::vector<int64_t> shape = ex.Ints(a[0], "size");
    bool empty = std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d <= 0; });
    auto n = empty ? std::nullopt : CheckedProduct(shape, DTypeBytes(*dt));
    if (!n)
      ex.Fail(fmt::format("window shape {} {} is {}", ShapeString(shape), DTypeName(*dt),
                          empty ? "empty" : "larger than 2^63 bytes"));
    bytes = *n;
  } else {
    bytes = ex.Int(a[0], "size");
  }
  // The upper bound is the run's memory limit (Machine::NewAllocation).
  if (bytes <= 0) ex.Fail(fmt::format("window size {} bytes must be positive", bytes));
  std::string name = Exec::KwStr(c, "name", "");
  if (name.empty()) name = "window" + std::to_string(ex.m.NumAllocations());

  return Value::Ptr(ex.m.NewAllocation(name, bytes, c.span));
}

Value Window(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  if (a[0].kind != Value::Kind::kPtr) ex.Fail("'buf' must be a window buffer");
  auto dt = Exec::KwDType(c, "dtype");
  if (!dt) ex.Fail("missing dtype=");
  auto t = std::make_shared<TensorVal>();
  t->alloc = static_cast<int>(a[0].i);
  t->dtype = *dt;
  t->shape = ex.Ints(a[1], "shape");
  Allocation& al = ex.m.alloc(t->alloc);
  for (int64_t d : t->shape)
    if (d <= 0)
      ex.Fail(fmt::format("view {} {}: window dimensions must be positive", ShapeString(t->shape),
                          DTypeName(*dt)));
  // Checked before anything multiplies the dims (strides, element count): a
  // view [2^32, 2^32] of a 64-byte buffer must fail here, not wrap and pass.
  auto need = CheckedProduct(t->shape, DTypeBytes(*dt));
  if (!need || *need > al.bytes)
    ex.Fail(fmt::format("view {} {} needs {} bytes but window buffer '{}' has {}",
                        ShapeString(t->shape), DTypeName(*dt),
                        need ? std::to_string(*need) : std::string("more than 2^63"), al.name,
                        al.bytes));
  t->strides = PackedStrides(t->shape);
  t->valid = t->shape;
  if (ex.m.poison_nan() && IsFloat(*dt) && !al.poisoned && !al.signal) {
    al.poisoned = true;
    for (uint8_t* p : al.mem)
      if (p) std::memset(p, 0xff, static_cast<size_t>(al.bytes));  // NaN
  }
  return Value::Of(t);
}

Value WorldSize(Exec& ex, const ir::Call&, std::vector<Value>&) {
  return Value::Int(ex.m.ranks(), DataType::kInt64);
}

Value GetCommCtx(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  const TensorVal& t = ex.Tensor(a[0], "dist_tensor");
  if (!t.IsWindow()) ex.Fail("'dist_tensor' must be window-bound");
  // The context names the allocation; its domain is resolved when used on a
  // rank (after every dispatch of the host loop has been seen).
  return Value::Ctx(t.alloc);
}

Value RankOf(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  if (a[0].kind != Value::Kind::kCommCtx) ex.Fail("'ctx' must be a comm context");
  if (ex.is_host()) ex.Fail("is only meaningful on a rank (kernel code)");
  int r = ex.m.domain(ex.m.DomainOf(static_cast<int>(a[0].i))).RankOf(ex.device());
  if (r < 0) ex.Fail("this rank is not a member of the comm domain");
  return Value::Int(r, DataType::kInt32);
}

Value NRanks(Exec& ex, const ir::Call&, std::vector<Value>& a) {
  if (a[0].kind != Value::Kind::kCommCtx) ex.Fail("'ctx' must be a comm context");
  return Value::Int(
      static_cast<int64_t>(ex.m.domain(ex.m.DomainOf(static_cast<int>(a[0].i))).devices.size()),
      DataType::kInt32);
}

// `sync`: this use synchronizes (a wait or an AtomicAdd notify), see
// Allocation::sync_signal.
const TensorVal& SignalView(Exec& ex, const Value& v, const char* role, bool sync) {
  const TensorVal& t = ex.Tensor(v, role);
  if (!t.IsWindow()) ex.Fail(fmt::format("'{}' must be a window-bound DistributedTensor", role));
  if (t.dtype != DataType::kInt32)
    ex.Fail(fmt::format("'{}' must be an INT32 signal, got {}", role, DTypeName(t.dtype)));
  Allocation& al = ex.m.alloc(t.alloc);
  std::lock_guard<std::mutex> l(ex.m.mu);
  al.signal = true;
  al.sync_signal |= sync;
  al.signal_shape = t.shape;
  if (!t.name.empty()) al.signal_view = t.name;
  return t;
}

std::string CellName(Exec& ex, const TensorVal& t, const std::vector<int64_t>& idx) {
  return fmt::format("signal '{}' (window '{}') cell {}", t.name.empty() ? "?" : t.name,
                     ex.m.alloc(t.alloc).name, ShapeString(idx));
}

Value Notify(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  ir::NotifyOp op = ex.KwEnum(c, "op", ir::NotifyOp::kAtomicAdd);
  const TensorVal& t = SignalView(ex, a[0], "target", op == ir::NotifyOp::kAtomicAdd);
  int dev = ex.PeerDevice(t, ex.Int(a[1], "peer"));
  std::vector<int64_t> idx = ex.Ints(a[2], "offsets");
  int64_t off = ex.CellByteOffset(t, idx, "offsets");
  int64_t v = ex.Int(a[3], "value");
  ex.races.Release(ex.t, t.alloc, dev, off);
  if (ex.note) {  // registered before the write, so a wait that sees the write finds it
    ex.note->id = ex.in.trace.NoteNotify(ex.m.WindowBytes(t.alloc, dev) + off);
    ex.note->cell = CellName(ex, t, idx) + fmt::format(" of rank {}", dev);
  }
  ex.m.CellNotify(t.alloc, dev, off, op == ir::NotifyOp::kSet, static_cast<int32_t>(v));
  ex.sched.Wake();
  if (ex.device() >= 0) ex.m.stats()[ex.device()].notifies++;
  return Value::None();
}

Value Wait(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TensorVal& t = SignalView(ex, a[0], "signal", true);
  if (ex.is_host()) ex.Fail("waits on this rank's own signal cell; call it in a kernel");
  ex.MyDomainRank(t);
  std::vector<int64_t> idx = ex.Ints(a[1], "offsets");
  int64_t off = ex.CellByteOffset(t, idx, "offsets");
  int64_t expected = ex.Int(a[2], "expected");
  bool eq = ex.KwEnum(c, "cmp", ir::WaitCmp::kEq) == ir::WaitCmp::kEq;
  Machine& m = ex.m;
  int alloc = t.alloc, me = ex.device();
  auto ready = [&m, alloc, me, off, expected, eq] {
    int32_t v = m.CellRead(alloc, me, off);
    return eq ? v == expected : v >= expected;
  };
  ex.m.stats()[ex.device()].waits++;
  if (!ready()) {
    BlockInfo bi;
    bi.what = c.op->name;
    bi.function = ex.FunctionName();
    bi.span = c.span;
    std::string name = CellName(ex, t, idx);
    bi.describe = [&m, alloc, me, off, expected, eq, name] {
      return fmt::format("{} expected {} {} ({}), actual {}", name, eq ? "==" : ">=", expected,
                         eq ? "Eq" : "Ge", m.CellRead(alloc, me, off));
    };
    int64_t t0 = ex.note ? ex.sched.Now(ex.t) : 0;
    ex.sched.Block(ex.t, ready, std::move(bi));
    if (ex.note) ex.note->blocked = ex.sched.Now(ex.t) - t0;
  }
  if (m.transport()) m.transport()->Acquire();
  if (ex.note) {
    ex.note->wait = true;
    ex.note->released_by = ex.in.trace.LastNotify(m.WindowBytes(alloc, me) + off);
    ex.note->cell = CellName(ex, t, idx) + fmt::format(" of rank {}", ex.device());
  }
  ex.races.Acquire(ex.t, t.alloc, ex.device(), off);
  return Value::None();
}

Value DeferWait(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TensorVal& t = SignalView(ex, a[0], "signal", true);
  if (ex.is_host())
    ex.Fail("registers a completion condition of a rank's task; call it in a kernel");
  std::vector<int64_t> idx = ex.Ints(a[1], "offsets");
  int64_t off = ex.CellByteOffset(t, idx, "offsets");
  if (ex.KwEnum(c, "cmp", ir::WaitCmp::kGe) != ir::WaitCmp::kGe)
    ex.Fail("supports only pld.WaitCmp.Ge");
  int64_t expected = ex.Int(a[2], "expected");
  if (expected < 0 || expected > INT32_MAX)
    ex.Fail(
        fmt::format("threshold {} is outside [0, 2147483647]; the counter is polled as an "
                    "unsigned 32-bit value",
                    expected));
  if (ex.deferred.size() >= static_cast<size_t>(ir::kMaxDeferredConditions))
    ex.Fail(fmt::format("the task registers more than {} conditions (defer_wait V1 limit)",
                        ir::kMaxDeferredConditions));
  ex.deferred.push_back({t.alloc, ex.device(), off, expected, CellName(ex, t, idx), c.span});
  return Value::None();
}

// allow_physical_tail_padding (FP16 allreduce tails): the hardware reads each
// row on past the valid region to the requested, 32-byte rounded span. That
// read must stay inside the window allocation; the over-read elements are
// don't-care (NaN here, so a lowering that does not restore the logical valid
// shape before using the tile shows in its results).
void PadPhysicalTail(Exec& ex, const TensorVal& t, const std::vector<int64_t>& off,
                     const std::vector<int64_t>& req, TileVal& tile) {
  if (tile.shape.size() != 2 || req.size() != 2 || tile.valid[0] == 0) return;
  int64_t want = std::min(req[1], tile.shape[1]);
  if (want <= tile.valid[1]) return;
  int64_t last =
      t.offset + (off[0] + tile.valid[0] - 1) * t.strides[0] + (off[1] + want - 1) * t.strides[1];
  // Memory is handed out in 32-byte granules: the rounded tail of a 32-byte
  // aligned view ends inside the granule holding its last element.
  const auto& alloc = ex.m.alloc(t.alloc);
  int64_t held = (alloc.bytes + 31) / 32 * 32 / DTypeBytes(t.dtype);
  if (last >= held)
    ex.Fail(
        fmt::format("the physical tail read (allow_physical_tail_padding) of '{}' runs to "
                    "element {} of window '{}', which holds {} elements (its {} bytes "
                    "rounded up to 32-byte granules); the rounded span must stay inside "
                    "the window allocation",
                    t.name, last, alloc.name, held, alloc.bytes));
  for (int64_t r = 0; r < tile.valid[0]; ++r)
    for (int64_t col = tile.valid[1]; col < want; ++col)
      tile.Set(r * tile.shape[1] + col, std::numeric_limits<double>::quiet_NaN());
  tile.valid[1] = want;
}

Value RemoteLoad(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TensorVal& t = ex.Tensor(a[0], "target");
  if (!t.IsWindow()) ex.Fail("'target' must be window-bound");
  int dev = ex.PeerDevice(t, ex.Int(a[1], "peer"));
  std::vector<int64_t> valid;
  if (const Value* v = Exec::Arg(c, a, "valid_shape")) valid = ex.Ints(*v, "valid_shape");
  std::vector<int64_t> off = ex.Ints(a[2], "offsets");
  auto tile = LoadTile(ex, t, dev, off, ex.Ints(a[3], "shape"), valid, "target");
  if (Exec::KwBool(c, "allow_physical_tail_padding", false) && !valid.empty())
    PadPhysicalTail(ex, t, off, valid, *tile);
  if (Exec::KwBool(c, "tile_2d", false)) FlattenTileTo2D(ex, *tile);
  return Value::Of(tile);
}

Value TileRemoteStore(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TileVal& src = ex.Tile(a[0], "src_tile");
  const TensorVal& t = ex.Tensor(a[1], "target");
  if (!t.IsWindow()) ex.Fail("'target' must be window-bound");
  int dev = ex.PeerDevice(t, ex.Int(a[2], "peer"));
  StoreTile(ex, src, t, dev, ex.Ints(a[3], "offsets"), {}, AtomicAdd(ex, c), "target");
  return Value::None();
}

Value TensorRemoteStore(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  const TensorVal& src = ex.Tensor(a[0], "src");
  const TensorVal& t = ex.Tensor(a[1], "target");
  if (!t.IsWindow()) ex.Fail("'target' must be window-bound");
  int dev = ex.PeerDevice(t, ex.Int(a[2], "peer"));
  ex.CheckTransferAlignment(src, Zeros(src.rank()), src.valid, "src");
  std::vector<int64_t> ext = src.valid;
  while (ext.size() < t.rank()) ext.insert(ext.begin(), 1);
  ex.CheckTransferAlignment(t, ex.Ints(a[3], "offsets"), ext, "target");
  CopyRegion(ex, src, ex.device(), Zeros(src.rank()), t, dev, ex.Ints(a[3], "offsets"), src.valid,
             ext, AtomicAdd(ex, c), "target");
  return Value::None();
}

// put/get: copies `shape` elements from (src, src_dev, src_off) to (dst,
// dst_dev, dst_off). `tile`: the pld.tile.* form (its operand layout differs).
void Copy(Exec& ex, const ir::Call& c, std::vector<Value>& a, bool put, bool tile) {
  const TensorVal& dst = ex.Tensor(*Exec::Arg(c, a, "dst"), "dst");
  const TensorVal& src = ex.Tensor(*Exec::Arg(c, a, "src"), "src");
  const TensorVal& win = put ? dst : src;
  if (!win.IsWindow()) ex.Fail(fmt::format("'{}' must be window-bound", put ? "dst" : "src"));
  int peer = ex.PeerDevice(win, ex.Int(*Exec::Arg(c, a, "peer"), "peer"));
  int dst_dev = put ? peer : ex.device(), src_dev = put ? ex.device() : peer;
  ir::TransferOperands ops = ir::DecodeTransferOperands(tile, a.size());
  const Value* dofs = ops.region >= 0 ? &a[ops.region] : nullptr;
  const Value* sofs = ops.region >= 0 ? &a[ops.region + 1] : nullptr;
  const Value* shp = ops.region >= 0 ? &a[ops.region + 2] : nullptr;
  std::vector<int64_t> doff, soff, ext;
  if (dofs || sofs || shp) {
    if (!(dofs && sofs && shp)) ex.Fail("dst_offsets, src_offsets and shape go together");
    doff = ex.Ints(*dofs, "dst_offsets");
    soff = ex.Ints(*sofs, "src_offsets");
    ext = ex.Ints(*shp, "shape");
  } else {
    if (dst.shape != src.shape)
      ex.Fail(fmt::format("full-slice transfer needs equal shapes, got dst {} and src {}",
                          ShapeString(dst.shape), ShapeString(src.shape)));
    doff = Zeros(dst.rank());
    soff = Zeros(src.rank());
    ext = src.shape;
  }
  ex.CheckTransferAlignment(src, soff, ext, "src");
  ex.CheckTransferAlignment(dst, doff, ext, "dst");
  CopyRegion(ex, src, src_dev, soff, dst, dst_dev, doff, ext, ext, put && AtomicAdd(ex, c), "dst");
}

template <bool kPut, bool kTile>
Value Transfer(Exec& ex, const ir::Call& c, std::vector<Value>& a) {
  Copy(ex, c, a, kPut, kTile);
  return Value::None();
}

}  // namespace

void RegisterDistributedSemantics(OpTable& t) {
  const OpKind k = OpKind::kComm;
  t.Set(ops::kPldAllocWindowBuffer, AllocWindow, k);
  t.Set(ops::kPldWindow, Window, k);
  t.Set(ops::kPldWorldSize, WorldSize, k);
  t.Set(ops::kPldGetCommCtx, GetCommCtx, k);
  t.Set(ops::kPldRank, RankOf, k);
  t.Set(ops::kPldNranks, NRanks, k);
  t.Set(ops::kPldNotify, Notify, k);
  t.Set(ops::kPldWait, Wait, k);
  t.Set(ops::kPldDeferWait, DeferWait, k);
  t.Set(ops::kPldTileRemoteLoad, RemoteLoad, k);
  t.Set(ops::kPldTileRemoteStore, TileRemoteStore, k);
  t.Set(ops::kPldTensorRemoteStore, TensorRemoteStore, k);
  t.Set(ops::kPldTensorPut, Transfer<true, false>, k);
  t.Set(ops::kPldTensorGet, Transfer<false, false>, k);
  t.Set(ops::kPldTilePut, Transfer<true, true>, k);
  t.Set(ops::kPldTileGet, Transfer<false, true>, k);
}

}  // namespace pypto::sim
