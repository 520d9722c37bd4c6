// PtoFunctionEmitter toolbox, part 2: GM tensor views, the inline CommContext
// peer-offset arithmetic, partition views and UB tile allocation.
//
// Peer addressing (CommContext ABI: the ctx is an i64 pointer; slot 2 packs
// rankId (low 32 bits) and rankNum (high 32 bits), windowsIn[] starts at slot 4):
// the peer's slice of a window tensor is `local ptr + (windowsIn[peer] -
// windowsIn[rank]) / elem_bytes`. It is emitted inline in the calling func.func —
// never as a module-level helper, which would carry no pto.kernel_kind and break
// mixed AIC+AIV modules — and feeds a make_tensor_view in the same function, as
// PTOAS requires for pto.addptr.
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/codegen/ub_allocator.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/op_utils.h"

namespace pypto::codegen {

using namespace pypto::ir;

static std::string ArgName(const Call* call, int arg) {
  if (call->op && arg >= 0 && static_cast<size_t>(arg) < call->op->args.size())
    return call->op->args[arg].name;
  return fmt::format("#{}", arg);
}

static Span ArgSpan(const Call* call, int arg) {
  if (arg >= 0 && static_cast<size_t>(arg) < call->args.size() && call->args[arg] &&
      call->args[arg]->span.IsKnown())
    return call->args[arg]->span;
  return call->span;
}

const PtoTensor* PtoFunctionEmitter::TensorArg(const Call* call, int arg) {
  if (arg < 0 || static_cast<size_t>(arg) >= call->args.size()) {
    Error(call->span, fmt::format("{}: missing argument #{}", OpName(call), arg));
    return nullptr;
  }
  const PtoBinding* b = Lookup(call->args[arg]);
  if (b && b->kind == PtoBinding::Kind::kTensor) return b->tensor;
  Error(ArgSpan(call, arg),
        fmt::format("{}: argument '{}' must be a tensor parameter of the kernel (or a "
                    "tensor.view / tensor.slice of one) for PTO emission",
                    OpName(call), ArgName(call, arg)));
  return nullptr;
}

const PtoBinding* PtoFunctionEmitter::TileArg(const Call* call, int arg) {
  if (arg < 0 || static_cast<size_t>(arg) >= call->args.size()) {
    Error(call->span, fmt::format("{}: missing argument #{}", OpName(call), arg));
    return nullptr;
  }
  const PtoBinding* b = Lookup(call->args[arg]);
  // Callers may Cast<TileType> the argument's type once this succeeds.
  if (b && b->kind == PtoBinding::Kind::kTile && Isa<TileType>(call->args[arg]->type)) return b;
  Error(ArgSpan(call, arg), fmt::format("{}: argument '{}' must be a tile defined in this kernel",
                                        OpName(call), ArgName(call, arg)));
  return nullptr;
}

std::string PtoFunctionEmitter::CtxArg(const Call* call, int arg) {
  const PtoBinding* b =
      static_cast<size_t>(arg) < call->args.size() ? Lookup(call->args[arg]) : nullptr;
  if (b && b->kind == PtoBinding::Kind::kCtx) return b->value.name;
  Error(ArgSpan(call, arg), fmt::format("{}: argument '{}' must be a CommCtx parameter or the "
                                        "result of pld.system.get_comm_ctx",
                                        OpName(call), ArgName(call, arg)));
  return {};
}

bool PtoFunctionEmitter::EmitTensorView(PtoTensor& t) {
  const TensorType* tt = t.type;
  size_t rank = tt->shape.size();
  for (const Expr* d : tt->shape) {
    t.shape.push_back(AsIndex(d));
    if (t.shape.back().empty()) return false;
  }
  TensorLayout layout = tt->view ? tt->view->layout : TensorLayout::kND;
  if (tt->view && !tt->view->stride.empty()) {
    for (const Expr* s : tt->view->stride) {
      t.strides.push_back(AsIndex(s));
      if (t.strides.back().empty()) return false;
    }
  } else {
    // Packed strides. An [M, 1] column vector without a view, and DN views, are
    // column-major in their last two dims.
    bool col_vec = !tt->view && rank == 2 && StaticInt(tt->shape[1]) == 1;
    if (col_vec) layout = TensorLayout::kDN;
    std::vector<size_t> order;  // innermost first
    if (layout == TensorLayout::kDN && rank >= 2) {
      order.push_back(rank - 2);
      order.push_back(rank - 1);
      for (size_t i = rank - 2; i-- > 0;) order.push_back(i);
    } else {
      for (size_t i = rank; i-- > 0;) order.push_back(i);
    }
    t.strides.assign(rank, "");
    std::optional<int64_t> acc = 1;
    std::string acc_ssa = ConstIndex(1);
    for (size_t k = 0; k < order.size(); ++k) {
      size_t i = order[k];
      t.strides[i] = acc ? ConstIndex(*acc) : acc_ssa;
      auto dim = StaticInt(tt->shape[i]);
      if (acc && dim) {
        acc = *acc * *dim;
        acc_ssa.clear();
      } else if (k + 1 < order.size()) {
        if (acc == 1) {  // 1 * dim: no multiply needed
          acc_ssa = t.shape[i];
        } else {
          std::string cur = acc ? ConstIndex(*acc) : acc_ssa;
          std::string n = Temp();
          Op(fmt::format("{} = arith.muli {}, {} : index", n, cur, t.shape[i]));
          acc_ssa = n;
        }
        acc.reset();
      }
    }
  }
  t.layout = layout == TensorLayout::kDN ? "dn" : layout == TensorLayout::kNZ ? "nz" : "nd";
  std::string dims;
  for (size_t i = 0; i < rank; ++i) dims += "?x";
  t.view_type = fmt::format("!pto.tensor_view<{}{}>", dims, MlirScalarType(tt->dtype));
  t.view = Named(t.name + "_view");
  Op(fmt::format(
      "{} = pto.make_tensor_view {}, shape = [{}], strides = [{}] {{layout = "
      "#pto.layout<{}>}} : {}",
      t.view, t.ptr, fmt::join(t.shape, ", "), fmt::join(t.strides, ", "), t.layout, t.view_type));
  return true;
}

std::string PtoFunctionEmitter::PeerView(const PtoTensor& t, const Expr* peer, const Call* call) {
  if (!t.distributed) {
    Error(call->span,
          fmt::format("{}: the remote operand must be a DistributedTensor", OpName(call)));
    return {};
  }
  if (t.ctx.empty()) {
    Error(call->span, fmt::format("{}: DistributedTensor '{}' has no paired CommCtx parameter; "
                                  "run materialize-dist-tensor-ctx before PTO emission",
                                  OpName(call), t.name));
    return {};
  }
  std::string peer_idx = AsIndex(peer);
  if (peer_idx.empty()) return {};
  std::string slot2 = ConstIndex(2), base = ConstIndex(4);
  std::string rk = Temp();
  Op(fmt::format("{} = pto.load_scalar {}[{}] : !pto.ptr<i64> -> i64", rk, t.ctx, slot2));
  std::string r32 = Temp();
  Op(fmt::format("{} = arith.trunci {} : i64 to i32", r32, rk));
  std::string ri = Temp();
  Op(fmt::format("{} = arith.index_cast {} : i32 to index", ri, r32));
  std::string lo = Temp();
  Op(fmt::format("{} = arith.addi {}, {} : index", lo, base, ri));
  std::string lb = Temp();
  Op(fmt::format("{} = pto.load_scalar {}[{}] : !pto.ptr<i64> -> i64", lb, t.ctx, lo));
  std::string po = Temp();
  Op(fmt::format("{} = arith.addi {}, {} : index", po, base, peer_idx));
  std::string pb = Temp();
  Op(fmt::format("{} = pto.load_scalar {}[{}] : !pto.ptr<i64> -> i64", pb, t.ctx, po));
  std::string db = Temp();
  Op(fmt::format("{} = arith.subi {}, {} : i64", db, pb, lb));
  std::string de = Temp();
  Op(fmt::format("{} = arith.divsi {}, {} : i64", de, db, Const(DTypeBytes(t.type->dtype), "i64")));
  std::string d = Temp();
  Op(fmt::format("{} = arith.index_cast {} : i64 to index", d, de));
  std::string pp = Temp();
  Op(fmt::format("{} = pto.addptr {}, {} : {} -> {}", pp, t.ptr, d, t.ptr_type, t.ptr_type));
  std::string pv = Temp();
  Op(fmt::format(
      "{} = pto.make_tensor_view {}, shape = [{}], strides = [{}] {{layout = "
      "#pto.layout<{}>}} : {}",
      pv, pp, fmt::join(t.shape, ", "), fmt::join(t.strides, ", "), t.layout, t.view_type));
  return pv;
}

std::string PtoFunctionEmitter::PartitionType(const std::vector<PtoDim>& sizes, DataType dt) {
  std::string s;
  for (const PtoDim& d : sizes) s += d.is_static() ? fmt::format("{}x", d.value) : "?x";
  return fmt::format("!pto.partition_tensor_view<{}{}>", s, MlirScalarType(dt));
}

PtoPartition PtoFunctionEmitter::PartitionView(const std::string& view,
                                               const std::string& view_type, DataType dt,
                                               const std::vector<std::string>& offsets,
                                               const std::vector<PtoDim>& sizes,
                                               std::string_view hint) {
  PtoPartition p;
  p.name = hint.empty() ? Temp() : Named(hint);
  p.type = PartitionType(sizes, dt);
  std::vector<std::string> sz;
  for (const PtoDim& d : sizes) sz.push_back(d.ssa);
  Op(fmt::format("{} = pto.partition_view {}, offsets = [{}], sizes = [{}] : {} -> {}", p.name,
                 view, fmt::join(offsets, ", "), fmt::join(sz, ", "), view_type, p.type));
  return p;
}

static std::string_view LocName(MemorySpace m) {
  switch (m) {
    case MemorySpace::kMat:
      return "mat";
    case MemorySpace::kLeft:
      return "left";
    case MemorySpace::kRight:
      return "right";
    case MemorySpace::kAcc:
      return "acc";
    case MemorySpace::kBias:
      return "bias";
    default:
      return "vec";
  }
}

static std::string_view LayoutName(TileLayout l) {
  switch (l) {
    case TileLayout::kNoneBox:
      return "none_box";
    case TileLayout::kRowMajor:
      return "row_major";
    case TileLayout::kColMajor:
      return "col_major";
  }
  return "row_major";
}

// rows = product of all but the last dim, cols = the last dim (1-D: [1, N]).
static std::optional<std::pair<int64_t, int64_t>> StaticRowsCols(
    const std::vector<const Expr*>& shape) {
  if (shape.empty()) return std::make_pair<int64_t, int64_t>(1, 1);
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) {
    auto v = StaticInt(shape[i]);
    if (!v) return std::nullopt;
    rows *= *v;
  }
  auto c = StaticInt(shape.back());
  if (!c) return std::nullopt;
  return std::make_pair(rows, *c);
}

std::optional<std::string> PtoFunctionEmitter::TileBufType(const TileType* t, Span at,
                                                           bool dynamic_valid) {
  auto rc = StaticRowsCols(t->shape);
  if (!rc) {
    Error(at, fmt::format("tile of shape {} has a dynamic physical shape; the PTO backend "
                          "needs static tile extents (use valid_shape for dynamic extents)",
                          ShapeStr(t->shape)));
    return std::nullopt;
  }
  std::string vr = std::to_string(rc->first), vc = std::to_string(rc->second);
  TileView view =
      CubeSpaceView(t->memory_space.value_or(MemorySpace::kVec), t->view.value_or(TileView{}));
  if (!view.valid_shape.empty()) {
    auto vrc = StaticRowsCols(view.valid_shape);
    if (vrc) {
      vr = std::to_string(vrc->first);
      vc = std::to_string(vrc->second);
    } else {
      const auto& vs = view.valid_shape;
      vc = StaticInt(vs.back()) ? std::to_string(*StaticInt(vs.back())) : "?";
      bool rows_static = true;
      int64_t rows = 1;
      for (size_t i = 0; i + 1 < vs.size(); ++i) {
        auto v = StaticInt(vs[i]);
        if (!v)
          rows_static = false;
        else
          rows *= *v;
      }
      vr = rows_static ? std::to_string(rows) : "?";
    }
  }
  if (dynamic_valid) vr = vc = "?";
  MemorySpace m = t->memory_space.value_or(MemorySpace::kVec);
  return fmt::format(
      "!pto.tile_buf<loc={}, dtype={}, rows={}, cols={}, v_row={}, v_col={}, blayout={}, "
      "slayout={}, fractal={}, pad={}>",
      LocName(m), MlirScalarType(t->dtype), rc->first, TilePhysicalCols(rc->second, t->dtype, view),
      vr, vc, LayoutName(view.blayout), LayoutName(view.slayout), view.fractal,
      static_cast<int>(view.pad));
}

UbAllocator& PtoFunctionEmitter::Ub() {
  if (!ub_)
    ub_ = std::make_shared<UbAllocator>(fn_, OnChipCapacity(arch_, MemorySpace::kVec), arch_,
                                        resized_tiles_);
  return *ub_;
}

PtoBinding PtoFunctionEmitter::CarriedTile(const Var* ia, const std::string& name,
                                           const std::string& type, const PtoBinding* init) {
  PtoBinding b;
  b.kind = PtoBinding::Kind::kTile;
  b.value = {name, type};
  b.carried = true;
  if (init && !init->addr.empty() && Ub().OneBuffer(ia)) b.addr = init->addr;
  return b;
}

// The `key=N` field of a tile_buf type spelling ("?" when dynamic).
static std::string TileBufField(const std::string& type, std::string_view key) {
  std::string k = fmt::format(" {}=", key);
  size_t at = type.find(k);
  if (at == std::string::npos) return "";
  at += k.size();
  return type.substr(at, type.find_first_of(",>", at) - at);
}

const PtoBinding* PtoFunctionEmitter::AllocTile(const Var* v, const Call* call) {
  const TileType* tt = As<TileType>(call->type);
  if (!tt) {
    Error(call->span, fmt::format("{}: expected a tile result", OpName(call)));
    return nullptr;
  }
  bool resized = v && resized_tiles_.count(v);
  auto type = TileBufType(tt, call->span, resized);
  if (!type) return nullptr;
  MemorySpace m = tt->memory_space.value_or(MemorySpace::kVec);
  int64_t bytes = TileUbBytes(tt);
  UbPlacement place = Ub().Place(v, call, m, bytes);
  if (!place.ok) {
    Error(place.error_span.IsKnown() ? place.error_span : call->span, place.error);
    return nullptr;
  }
  int64_t addr = place.addr;
  std::string name = Named(v ? v->name_hint : "tile");
  // Dynamic valid extents are operands of alloc_tile: emit it at the definition
  // when they are, otherwise hoist it into the prologue.
  std::string valid_ops;
  bool dynamic = false;
  if (tt->view && !tt->view->valid_shape.empty() && !StaticRowsCols(tt->view->valid_shape)) {
    const auto& vs = tt->view->valid_shape;
    if (vs.size() > 2) {
      for (size_t i = 0; i + 2 < vs.size(); ++i)
        if (!StaticInt(vs[i])) {
          Error(call->span, fmt::format("{}: dynamic leading valid extents of an N-D tile are "
                                        "not supported by the PTO backend",
                                        OpName(call)));
          return nullptr;
        }
    }
    dynamic = true;
    // Every `?` extent of the type is an operand; a static one too (a tile that
    // tile.set_validshape resizes later is typed v_row=?, v_col=?).
    bool dyn_row = TileBufField(*type, "v_row") == "?";
    bool dyn_col = TileBufField(*type, "v_col") == "?";
    if (vs.size() >= 2 && !StaticInt(vs[vs.size() - 2])) {
      std::string r = AsIndex(vs[vs.size() - 2]);
      if (r.empty()) return nullptr;
      valid_ops += " valid_row = " + r;
    } else if (vs.size() >= 2 && dyn_row) {
      int64_t rows = 1;
      for (size_t i = 0; i + 1 < vs.size(); ++i) rows *= *StaticInt(vs[i]);
      valid_ops += " valid_row = " + ConstIndex(rows);
    }
    if (!StaticInt(vs.back())) {
      std::string c = AsIndex(vs.back());
      if (c.empty()) return nullptr;
      valid_ops += " valid_col = " + c;
    } else if (dyn_col) {
      valid_ops += " valid_col = " + ConstIndex(*StaticInt(vs.back()));
    }
  }
  if (resized && !dynamic) {
    // Starts with its static valid extent; tile.set_validshape changes it later.
    std::vector<const Expr*> vs =
        tt->view && !tt->view->valid_shape.empty() ? tt->view->valid_shape : tt->shape;
    auto vrc = StaticRowsCols(vs);
    if (vrc)
      valid_ops = fmt::format(" valid_row = {} valid_col = {}", ConstIndex(vrc->first),
                              ConstIndex(vrc->second));
  }
  PtoWriter* saved = cur_;
  if (!dynamic) cur_ = &allocs_;
  Span saved_span = cur_span_;
  if (!dynamic) cur_span_ = {};
  Op(fmt::format("{} = pto.alloc_tile addr = {}{} : {}", name, Const(addr, "i64"), valid_ops,
                 *type));
  cur_ = saved;
  cur_span_ = saved_span;
  PtoBinding b;
  b.kind = PtoBinding::Kind::kTile;
  b.value = {name, *type};
  b.addr = Const(addr, "i64");
  if (v) {
    Bind(v, b);
    return &bindings_[v];
  }
  anon_tiles_.push_back(std::make_unique<PtoBinding>(b));
  return anon_tiles_.back().get();
}

std::optional<PtoBinding> PtoFunctionEmitter::RetypeTile(const PtoBinding& b,
                                                         const std::string& type, Span at) {
  if (b.value.type == type) return b;
  std::string vr = TileBufField(b.value.type, "v_row"), vc = TileBufField(b.value.type, "v_col");
  bool to_dynamic = TileBufField(type, "v_row") == "?";
  // A loop-carried tile (an iter arg or loop/if result) whose group is not one
  // buffer (UbAllocator::OneBuffer) may be a different buffer on each path: it
  // has no one address to alias, and keeps its own type.
  if (b.addr.empty()) return b;
  // A carried tile of one buffer whose extents are known only at run time: same.
  if (b.carried && to_dynamic && (vr == "?" || vc == "?")) return b;
  if (to_dynamic && (vr == "?" || vc == "?")) {
    Error(at, fmt::format("tile {} of type {} cannot be used where the PTO backend needs type {}",
                          b.value.name, b.value.type, type));
    return std::nullopt;
  }
  std::string valid_ops;
  if (to_dynamic)
    valid_ops = fmt::format(" valid_row = {} valid_col = {}", ConstIndex(std::stoll(vr)),
                            ConstIndex(std::stoll(vc)));
  PtoBinding r = b;
  r.value = {Named(b.value.name.substr(1) + "_as"), type};
  Op(fmt::format("{} = pto.alloc_tile addr = {}{} : {}", r.value.name, b.addr, valid_ops, type));
  return r;
}

std::string PtoFunctionEmitter::DeferredRawArgs() {
  uses_deferred_ = true;
  return "%__pypto_deferred_raw_args";
}

}  // namespace pypto::codegen

namespace pypto::codegen {

std::optional<std::vector<PtoDim>> PtoFunctionEmitter::TileExtent(const TileType* t, size_t rank,
                                                                  Span at) {
  std::vector<const Expr*> dims =
      t->view && !t->view->valid_shape.empty() ? t->view->valid_shape : t->shape;
  if (dims.size() > rank) {
    // Leading unit dims can be dropped; anything else does not fit the tensor.
    while (dims.size() > rank && StaticInt(dims.front()) == 1) dims.erase(dims.begin());
    if (dims.size() > rank) {
      Error(at,
            fmt::format("tile of rank {} does not fit a tensor of rank {}", t->shape.size(), rank));
      return std::nullopt;
    }
  }
  std::vector<PtoDim> out;
  for (size_t i = dims.size(); i < rank; ++i) out.push_back({1, ConstIndex(1)});
  auto rest = DimList(dims, at);
  if (!rest) return std::nullopt;
  out.insert(out.end(), rest->begin(), rest->end());
  return out;
}

}  // namespace pypto::codegen
