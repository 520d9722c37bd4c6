// PTO emission of the distributed (pld) kernel ops: remote_load / remote_store
// (TLOAD / TSTORE through a peer view), tile.put / tile.get (TPUT / TGET through
// a VEC staging tile, one or two stages), notify / wait (TNOTIFY / TWAIT),
// defer_wait (counter-completion adapter call, no twait), and the CommContext
// accessors rank / nranks / get_comm_ctx.
//
// Remote operands go through PtoFunctionEmitter::PeerView (inline CommContext
// arithmetic); local operands reuse the parameter's tensor view. Memory-ordering
// markers are part of each op's contract: PIPE_ALL barriers around TPUT/TGET and
// before TNOTIFY, and a single-line cache invalidation of the written peer region
// after TSTORE / TPUT.
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/transfer_operands.h"

namespace pypto::codegen {

using namespace pypto::ir;

namespace {

int64_t IntKwarg(const Call* c, std::string_view name, int64_t def) {
  const Attr* a = FindAttr(c->kwargs, name);
  return a && (a->kind == Attr::Kind::kInt || a->kind == Attr::Kind::kEnum) ? a->i : def;
}

std::vector<PtoDim> Ones(PtoFunctionEmitter& fe, size_t rank) {
  return std::vector<PtoDim>(rank, PtoDim{1, fe.ConstIndex(1)});
}

std::vector<std::string> Zeros(PtoFunctionEmitter& fe, size_t rank) {
  return std::vector<std::string>(rank, fe.ConstIndex(0));
}

bool CheckArgs(PtoFunctionEmitter& fe, const Call* c, size_t min) {
  if (c->args.size() >= min) return true;
  return fe.Error(c->span, fmt::format("{}: expected at least {} arguments, got {}",
                                       PtoFunctionEmitter::OpName(c), min, c->args.size()));
}

bool RemoteLoad(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  if (!CheckArgs(fe, c, 4)) return false;
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  const PtoBinding* tile = fe.AllocTile(result, c);
  if (!tile) return false;
  std::string pv = fe.PeerView(*t, c->args[1], c);
  if (pv.empty()) return false;
  auto offs = fe.IndexList(c->args[2], c->span);
  if (!offs) return false;
  // Effective valid extent: the deduced tile valid shape when it is in target
  // coordinates, else the requested valid_shape / shape. A flattened read (tile_2d=True) of an N-D
  // window loads the N-D partition into the 2-D tile; its deduced valid shape is 2-D, so the
  // per-dim extents are recomputed as the deducer does: the requested window clipped to what
  // target's valid region holds past the offsets.
  std::optional<std::vector<PtoDim>> sizes;
  const TileType* rt = As<TileType>(c->type);
  const Expr* req = c->args.size() > 4 && c->args[4] ? c->args[4] : c->args[3];
  size_t rank = t->type->shape.size();
  if (rt && rt->rank() != rank && t->type->view && !t->type->view->valid_shape.empty()) {
    const MakeTuple* rq = AsTuple(req);
    const MakeTuple* off = AsTuple(c->args[2]);
    if (!rq || !off || rq->elements.size() != rank || off->elements.size() != rank)
      return fe.Error(c->span, fmt::format("{}: offsets and shape must be tuples of {} indices",
                                           PtoFunctionEmitter::OpName(c), rank));
    IRBuilder b(fe.ctx());
    std::vector<const Expr*> eff;
    for (size_t k = 0; k < rank; ++k) {
      const Expr* left =
          b.Max(b.Sub(t->type->view->valid_shape[k], off->elements[k]), fe.ctx().Int(0));
      eff.push_back(b.Min(rq->elements[k], left));
    }
    sizes = fe.DimList(eff, c->span);
  } else if (rt && rt->view && !rt->view->valid_shape.empty() &&
             rt->view->valid_shape.size() == rank) {
    sizes = fe.DimList(rt->view->valid_shape, c->span);
  } else {
    sizes = fe.DimList(req, c->span);
  }
  if (!sizes) return false;
  std::string hint = (result ? result->name_hint : std::string("remote")) + "_peer_pview";
  auto part = fe.PartitionView(pv, t->view_type, t->type->dtype, *offs, *sizes, hint);
  fe.Op(fmt::format("pto.tload ins({} : {}) outs({} : {})", part.name, part.type, tile->value.name,
                    tile->value.type));
  return true;
}

bool RemoteStore(PtoFunctionEmitter& fe, const Call* c, const Var*) {
  if (!CheckArgs(fe, c, 4)) return false;
  const PtoBinding* tile = fe.TileArg(c, 0);
  const PtoTensor* t = fe.TensorArg(c, 1);
  if (!tile || !t) return false;
  bool atomic = IntKwarg(c, "atomic", 0) == static_cast<int>(AtomicType::kAdd);
  if (atomic && t->type->dtype == DataType::kBF16 && fe.target_arch() != "a2a3")
    return fe.Error(c->span, fmt::format("{}: atomic add on BF16 is only supported on the a2a3 "
                                         "(Ascend910B) target, not {}",
                                         PtoFunctionEmitter::OpName(c), fe.target_arch()));
  std::string pv = fe.PeerView(*t, c->args[2], c);
  if (pv.empty()) return false;
  auto offs = fe.IndexList(c->args[3], c->span);
  if (!offs) return false;
  auto sizes = fe.TileExtent(Cast<TileType>(c->args[0]->type), t->type->shape.size(), c->span);
  if (!sizes) return false;
  auto part =
      fe.PartitionView(pv, t->view_type, t->type->dtype, *offs, *sizes, t->name + "_peer_pview");
  fe.Op(fmt::format("pto.tstore ins({} : {}) outs({} : {}){}", tile->value.name, tile->value.type,
                    part.name, part.type,
                    atomic ? " {atomicType = #pto<atomic_type atomic_add>}" : ""));
  fe.Op(fmt::format("pto.cmo.cacheinvalid {} single_cache_line : {}", part.name, part.type));
  return true;
}

bool Notify(PtoFunctionEmitter& fe, const Call* c, const Var*) {
  if (!CheckArgs(fe, c, 4)) return false;
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  std::string pv = fe.PeerView(*t, c->args[1], c);
  if (pv.empty()) return false;
  auto offs = fe.IndexList(c->args[2], c->span);
  if (!offs) return false;
  auto part = fe.PartitionView(pv, t->view_type, t->type->dtype, *offs,
                               Ones(fe, t->type->shape.size()), t->name + "_peer_pview");
  PtoValue v = fe.CastTo(fe.Value(c->args[3]), "i32");
  if (!v.ok()) return false;
  bool set = IntKwarg(c, "op", 0) == static_cast<int>(NotifyOp::kSet);
  fe.Op("pto.barrier <PIPE_ALL>");
  fe.Op(fmt::format("pto.comm.tnotify({}, {} : {}, i32) {{notifyOp = #pto<notify_op {}>}}",
                    part.name, v.name, part.type, set ? "set" : "atomic_add"));
  return true;
}

bool Wait(PtoFunctionEmitter& fe, const Call* c, const Var*) {
  if (!CheckArgs(fe, c, 3)) return false;
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  auto offs = fe.IndexList(c->args[1], c->span);
  if (!offs) return false;
  auto part = fe.PartitionView(t->view, t->view_type, t->type->dtype, *offs,
                               Ones(fe, t->type->shape.size()), t->name + "_local_pview");
  PtoValue e = fe.CastTo(fe.Value(c->args[2]), "i32");
  if (!e.ok()) return false;
  bool ge = IntKwarg(c, "cmp", 0) == static_cast<int>(WaitCmp::kGe);
  fe.Op(fmt::format("pto.comm.twait({}, {} : {}, i32) {{cmp = #pto<wait_cmp {}>}}", part.name,
                    e.name, part.type, ge ? "ge" : "eq"));
  return true;
}

// Static packed strides of `t` (nullopt when any dim or stride is dynamic).
std::optional<std::vector<int64_t>> StaticStrides(const PtoTensor& t) {
  const TensorType* tt = t.type;
  size_t rank = tt->shape.size();
  std::vector<int64_t> out(rank, 0);
  if (tt->view && !tt->view->stride.empty()) {
    for (size_t i = 0; i < rank; ++i) {
      auto v = StaticInt(tt->view->stride[i]);
      if (!v) return std::nullopt;
      out[i] = *v;
    }
    return out;
  }
  std::vector<size_t> order;
  if (t.layout == "dn" && rank >= 2) {
    order = {rank - 2, rank - 1};
    for (size_t i = rank - 2; i-- > 0;) order.push_back(i);
  } else {
    for (size_t i = rank; i-- > 0;) order.push_back(i);
  }
  int64_t acc = 1;
  for (size_t i : order) {
    out[i] = acc;
    auto d = StaticInt(tt->shape[i]);
    if (!d) return std::nullopt;
    acc *= *d;
  }
  return out;
}

bool DeferWait(PtoFunctionEmitter& fe, const Call* c, const Var*) {
  if (!CheckArgs(fe, c, 3)) return false;
  const std::string op = PtoFunctionEmitter::OpName(c);
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  if (!t->distributed || t->type->dtype != DataType::kInt32)
    return fe.Error(c->span, fmt::format("{}: the signal must be an INT32 DistributedTensor "
                                         "parameter",
                                         op));
  if (t->layout == "nz")
    return fe.Error(c->span,
                    fmt::format("{}: NZ-layout signals are not supported; use ND or DN", op));
  if (IntKwarg(c, "cmp", 0) != static_cast<int>(WaitCmp::kGe))
    return fe.Error(c->span, fmt::format("{}: only cmp=pld.WaitCmp.Ge is supported", op));
  const MakeTuple* offs = AsTuple(c->args[1]);
  size_t rank = t->type->shape.size();
  if (!offs || offs->elements.size() != rank)
    return fe.Error(c->span, fmt::format("{}: offsets must be a tuple of {} indices", op, rank));
  // Checked flattened element offset: -1 when any index is out of bounds.
  std::string off64;
  auto strides = StaticStrides(*t);
  bool all_static = strides.has_value();
  for (size_t i = 0; i < rank && all_static; ++i)
    all_static = StaticInt(offs->elements[i]) && StaticInt(t->type->shape[i]);
  if (all_static) {
    int64_t flat = 0;
    bool inb = true;
    for (size_t i = 0; i < rank; ++i) {
      int64_t o = *StaticInt(offs->elements[i]), d = *StaticInt(t->type->shape[i]);
      inb = inb && o >= 0 && o < d;
      flat += o * (*strides)[i];
    }
    off64 = fe.Const(inb ? flat : -1, "i64");
  } else {
    // Per dim: a static in-bounds index needs no check; a static out-of-bounds
    // one makes the whole offset -1; zero indices contribute no term.
    std::string ok, flat;
    bool never = false;
    for (size_t i = 0; i < rank; ++i) {
      auto so = StaticInt(offs->elements[i]);
      auto sd = StaticInt(t->type->shape[i]);
      if (so && sd && (*so < 0 || *so >= *sd)) never = true;
      std::string o = fe.AsIndex(offs->elements[i]);
      if (o.empty()) return false;
      if (!(so && sd)) {
        std::string ge = fe.Temp(), lt = fe.Temp(), both = fe.Temp();
        fe.Op(fmt::format("{} = arith.cmpi sge, {}, {} : index", ge, o, fe.ConstIndex(0)));
        fe.Op(fmt::format("{} = arith.cmpi slt, {}, {} : index", lt, o, t->shape[i]));
        fe.Op(fmt::format("{} = arith.andi {}, {} : i1", both, ge, lt));
        if (ok.empty()) {
          ok = both;
        } else {
          std::string n = fe.Temp();
          fe.Op(fmt::format("{} = arith.andi {}, {} : i1", n, ok, both));
          ok = n;
        }
      }
      if (so == 0) continue;
      std::string m = o;
      if (t->strides[i] != fe.ConstIndex(1)) {
        m = fe.Temp();
        fe.Op(fmt::format("{} = arith.muli {}, {} : index", m, o, t->strides[i]));
      }
      if (flat.empty()) {
        flat = m;
      } else {
        std::string n = fe.Temp();
        fe.Op(fmt::format("{} = arith.addi {}, {} : index", n, flat, m));
        flat = n;
      }
    }
    if (flat.empty()) flat = fe.ConstIndex(0);
    if (never) ok = fe.ConstBool(false);
    std::string sel = fe.Temp();
    fe.Op(fmt::format("{} = arith.select {}, {}, {} : index", sel, ok, flat, fe.ConstIndex(-1)));
    off64 = fe.CastTo({sel, "index"}, "i64").name;
  }
  PtoValue expected = fe.CastTo(fe.Value(c->args[2]), "i64");
  if (!expected.ok()) return false;
  std::string raw = fe.DeferredRawArgs();
  fe.Op(
      fmt::format("func.call @{}({}, {}, {}, {}) : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) "
                  "-> ()",
                  kDeferredAdapterName, raw, t->ptr, off64, expected.name));
  return true;
}

// pld.tile.put / pld.tile.get share their operand layout:
// (dst, peer, src, stage[, stage2][, dst_offsets, src_offsets, shape]).
bool PutGet(PtoFunctionEmitter& fe, const Call* c, bool is_put) {
  const std::string op = PtoFunctionEmitter::OpName(c);
  size_t n = c->args.size();
  TransferOperands layout = DecodeTransferOperands(/*tile_form=*/true, n);
  if (!layout.valid)
    return fe.Error(c->span, fmt::format("{}: expected 4, 5, 7 or 8 arguments, got {}", op, n));
  bool two_stages = layout.stage2 >= 0;
  size_t region = static_cast<size_t>(layout.region);
  const PtoTensor* dst = fe.TensorArg(c, 0);
  const PtoTensor* src = fe.TensorArg(c, 2);
  const PtoBinding* stage = fe.TileArg(c, 3);
  const PtoBinding* stage2 = two_stages ? fe.TileArg(c, 4) : nullptr;
  if (!dst || !src || !stage || (two_stages && !stage2)) return false;
  const PtoTensor& remote = is_put ? *dst : *src;
  std::string pv = fe.PeerView(remote, c->args[1], c);
  if (pv.empty()) return false;
  size_t rank = dst->type->shape.size();
  std::optional<std::vector<std::string>> doffs, soffs;
  std::optional<std::vector<PtoDim>> sizes;
  if (layout.region >= 0) {
    doffs = fe.IndexList(c->args[region], c->span);
    soffs = fe.IndexList(c->args[region + 1], c->span);
    sizes = fe.DimList(c->args[region + 2], c->span);
  } else {
    sizes = fe.DimList(remote.type->shape, c->span);
    doffs = Zeros(fe, rank);
    soffs = Zeros(fe, src->type->shape.size());
  }
  if (!doffs || !soffs || !sizes) return false;
  DataType dt = dst->type->dtype;
  PtoPartition dpart, spart;
  if (is_put) {
    dpart = fe.PartitionView(pv, dst->view_type, dt, *doffs, *sizes, dst->name + "_peer_pview");
    spart =
        fe.PartitionView(src->view, src->view_type, dt, *soffs, *sizes, src->name + "_local_pview");
  } else {
    dpart =
        fe.PartitionView(dst->view, dst->view_type, dt, *doffs, *sizes, dst->name + "_local_pview");
    spart = fe.PartitionView(pv, src->view_type, dt, *soffs, *sizes, src->name + "_peer_pview");
  }
  std::string bufs = stage->value.name, btypes = stage->value.type;
  if (two_stages) {
    bufs += ", " + stage2->value.name;
    btypes += ", " + stage2->value.type;
  }
  std::string attr;
  if (is_put) {
    bool add = IntKwarg(c, "atomic", 0) == static_cast<int>(AtomicType::kAdd);
    attr =
        fmt::format(" {{atomicType = #pto<atomic_type {}>}}", add ? "atomic_add" : "atomic_none");
  }
  fe.Op("pto.barrier <PIPE_ALL>");
  fe.Op(fmt::format("pto.comm.{}({}, {}, buf({}) : {}, {}, {}){}", is_put ? "tput" : "tget",
                    dpart.name, spart.name, bufs, dpart.type, spart.type, btypes, attr));
  fe.Op("pto.barrier <PIPE_ALL>");
  if (is_put)
    fe.Op(fmt::format("pto.cmo.cacheinvalid {} single_cache_line : {}", dpart.name, dpart.type));
  return true;
}

bool Put(PtoFunctionEmitter& fe, const Call* c, const Var*) { return PutGet(fe, c, true); }
bool Get(PtoFunctionEmitter& fe, const Call* c, const Var*) { return PutGet(fe, c, false); }

std::string LoadRankSlot(PtoFunctionEmitter& fe, const std::string& ctx) {
  std::string v = fe.Temp();
  fe.Op(
      fmt::format("{} = pto.load_scalar {}[{}] : !pto.ptr<i64> -> i64", v, ctx, fe.ConstIndex(2)));
  return v;
}

bool Rank(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  std::string ctx = fe.CtxArg(c, 0);
  if (ctx.empty()) return false;
  std::string slot = LoadRankSlot(fe, ctx);
  std::string r = fe.Temp();
  fe.Op(fmt::format("{} = arith.trunci {} : i64 to i32", r, slot));
  fe.BindScalar(result, {r, "i32"});
  return true;
}

bool NRanks(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  std::string ctx = fe.CtxArg(c, 0);
  if (ctx.empty()) return false;
  std::string slot = LoadRankSlot(fe, ctx);
  std::string hi = fe.Temp();
  fe.Op(fmt::format("{} = arith.shrui {}, {} : i64", hi, slot, fe.Const(32, "i64")));
  std::string r = fe.Temp();
  fe.Op(fmt::format("{} = arith.trunci {} : i64 to i32", r, hi));
  fe.BindScalar(result, {r, "i32"});
  return true;
}

bool GetCommCtx(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  if (t->ctx.empty())
    return fe.Error(c->span, fmt::format("{}: DistributedTensor '{}' has no paired CommCtx "
                                         "parameter; run materialize-dist-tensor-ctx before PTO "
                                         "emission",
                                         PtoFunctionEmitter::OpName(c), t->name));
  if (result) {
    PtoBinding b;
    b.kind = PtoBinding::Kind::kCtx;
    b.value = {t->ctx, "!pto.ptr<i64>"};
    fe.Bind(result, b);
  }
  return true;
}

}  // namespace

void RegisterPtoDistributedOps(PtoOpTable& t) {
  t.Emit(ops::kPldTileRemoteLoad, RemoteLoad);
  t.Emit(ops::kPldTileRemoteStore, RemoteStore);
  t.Emit(ops::kPldTilePut, Put);
  t.Emit(ops::kPldTileGet, Get);
  t.Emit(ops::kPldNotify, Notify);
  t.Emit(ops::kPldWait, Wait);
  t.Emit(ops::kPldDeferWait, DeferWait);
  t.Emit(ops::kPldRank, Rank);
  t.Emit(ops::kPldNranks, NRanks);
  t.Emit(ops::kPldGetCommCtx, GetCommCtx);
}

}  // namespace pypto::codegen
