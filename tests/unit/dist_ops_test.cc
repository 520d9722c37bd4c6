// The pld op family's registry declarations (ABI enum values, core affinity,
// no-duplicate, argument effects, input memory, placement, internal-only) and
// the verifier rules of the window / communicator / signal ops, each negative
// case asserting the exact diagnostic and the line it points at.
#include "dist_test_util.h"
#include "pypto/ir/comm.h"

using namespace dist_test;

static const OpDef& Def(const char* n) {
  const OpDef* d = OpRegistry::Global().Find(n);
  REQUIRE(d != nullptr);
  return *d;
}

static AttrList Kw(const char* k, int v) { return {{k, Attr::Int(v)}}; }

TEST_CASE("ABI enum values are the append-only payloads", "[dist][enums]") {
  CHECK(static_cast<int>(NotifyOp::kAtomicAdd) == 0);
  CHECK(static_cast<int>(NotifyOp::kSet) == 1);
  CHECK(static_cast<int>(WaitCmp::kEq) == 0);
  CHECK(static_cast<int>(WaitCmp::kGe) == 1);
  CHECK(static_cast<int>(AtomicType::kNone) == 0);
  CHECK(static_cast<int>(AtomicType::kAdd) == 1);
  CHECK(static_cast<int>(ReduceOp::kSum) == 0);
  CHECK(static_cast<int>(ReduceOp::kMax) == 1);
  CHECK(static_cast<int>(ReduceOp::kMin) == 2);
  CHECK(static_cast<int>(ReduceOp::kProd) == 3);
  CHECK(*EnumValueName(EnumKind::kNotifyOp, 0) == "pld.NotifyOp.AtomicAdd");
  CHECK(*EnumValueName(EnumKind::kAtomicType, 0) == "pld.AtomicType.None_");
  CHECK(*EnumValueName(EnumKind::kReduceOp, 3) == "pld.ReduceOp.Prod");
}

TEST_CASE("every pld op and builtin is registered with a deducer", "[dist][registry]") {
  for (const char* n : {"pld.tile.remote_load",
                        "pld.tile.remote_store",
                        "pld.tensor.remote_store",
                        "pld.tensor.get",
                        "pld.tensor.put",
                        "pld.tensor.allreduce",
                        "pld.tensor.barrier",
                        "pld.tensor.broadcast",
                        "pld.tensor.reduce_scatter",
                        "pld.tensor.allgather",
                        "pld.tensor.all_to_all",
                        "pld.tensor.all_to_all_v",
                        "pld.system.notify",
                        "pld.system.wait",
                        "pld.system.defer_wait",
                        "pld.tile.put",
                        "pld.tile.get",
                        "pld.tensor.alloc_window_buffer",
                        "pld.tensor.window",
                        "pld.system.world_size",
                        "pld.system.get_comm_ctx",
                        "pld.system.rank",
                        "pld.system.nranks",
                        "builtin.tensor.allreduce",
                        "builtin.tensor.allreduce_ring",
                        "builtin.tensor.barrier",
                        "builtin.tensor.broadcast",
                        "builtin.tensor.reduce_scatter",
                        "builtin.tensor.allgather",
                        "builtin.tensor.all_to_all",
                        "builtin.tensor.all_to_all_v"}) {
    INFO(n);
    CHECK(static_cast<bool>(Def(n).deduce));
  }
}

TEST_CASE("core affinity follows the seed's placement table", "[dist][registry]") {
  for (const char* n : {"pld.tensor.put", "pld.tensor.get", "pld.tile.put", "pld.tile.get"}) {
    INFO(n);
    CHECK(Def(n).affinity == CoreAffinity::kVector);
  }
  // Derived: remote_store inherits VECTOR from its tile; remote_load, notify and
  // wait are deliberately undeclared and reach the SHARED fallback.
  for (const char* n : {"pld.tile.remote_store", "pld.tensor.remote_store", "pld.tile.remote_load",
                        "pld.system.notify", "pld.system.wait"}) {
    INFO(n);
    CHECK(Def(n).affinity == CoreAffinity::kDerived);
  }
}

TEST_CASE("no_duplicate is set on pld.system.notify only", "[dist][registry]") {
  CHECK(Def("pld.system.notify").no_duplicate);
  for (const OpDef* d : OpRegistry::Global().All()) {
    if (d->name == "pld.system.notify") continue;
    INFO(d->name);
    CHECK_FALSE(d->no_duplicate);
  }
}

TEST_CASE("argument effects", "[dist][registry]") {
  const OpDef& notify = Def("pld.system.notify");
  CHECK(notify.EffectOf(0, Kw("op", 1)) == ArgEffect::kWrite);      // Set
  CHECK(notify.EffectOf(0, Kw("op", 0)) == ArgEffect::kReadWrite);  // AtomicAdd
  CHECK(notify.EffectOf(2, Kw("op", 1)) == ArgEffect::kRead);
  for (const char* n : {"pld.tensor.put", "pld.tile.put"}) {
    INFO(n);
    CHECK(Def(n).EffectOf(0, {}) == ArgEffect::kWrite);
    CHECK(Def(n).EffectOf(0, Kw("atomic", 0)) == ArgEffect::kWrite);
    CHECK(Def(n).EffectOf(0, Kw("atomic", 1)) == ArgEffect::kReadWrite);
    CHECK(Def(n).EffectOf(2, Kw("atomic", 1)) == ArgEffect::kRead);
  }
  for (const char* n : {"pld.tile.remote_store", "pld.tensor.remote_store"}) {
    INFO(n);
    CHECK(Def(n).EffectOf(1, Kw("atomic", 0)) == ArgEffect::kWrite);
    CHECK(Def(n).EffectOf(1, Kw("atomic", 1)) == ArgEffect::kReadWrite);
    CHECK(Def(n).EffectOf(0, Kw("atomic", 1)) == ArgEffect::kRead);
  }
  CHECK(Def("pld.tensor.get").EffectOf(0, {}) == ArgEffect::kWrite);
  CHECK(Def("pld.tile.get").EffectOf(0, {}) == ArgEffect::kWrite);
  CHECK(Def("pld.tensor.get").EffectOf(2, {}) == ArgEffect::kRead);
  // The tile forms' (first) staging tile is scratch.
  CHECK(Def("pld.tile.put").EffectOf(3, {}) == ArgEffect::kReadWrite);
  CHECK(Def("pld.tile.get").EffectOf(3, {}) == ArgEffect::kReadWrite);
  for (const char* n : {"pld.system.wait", "pld.system.defer_wait", "pld.tile.remote_load"}) {
    INFO(n);
    CHECK(Def(n).effects_declared);
    CHECK(Def(n).effects.empty());
  }
  for (const char* n : {"pld.tensor.allreduce", "pld.tensor.broadcast", "pld.tensor.reduce_scatter",
                        "builtin.tensor.allreduce"}) {
    INFO(n);
    CHECK(Def(n).EffectOf(0, {}) == ArgEffect::kReadWrite);
    CHECK(Def(n).EffectOf(1, {}) == ArgEffect::kReadWrite);
  }
  CHECK(Def("pld.tensor.barrier").EffectOf(0, {}) == ArgEffect::kReadWrite);
  for (const char* n : {"pld.tensor.allgather", "pld.tensor.all_to_all"}) {
    INFO(n);
    CHECK(Def(n).EffectOf(0, {}) == ArgEffect::kRead);
    CHECK(Def(n).EffectOf(1, {}) == ArgEffect::kWrite);
    CHECK(Def(n).EffectOf(2, {}) == ArgEffect::kReadWrite);
  }
  const OpDef& a2av = Def("pld.tensor.all_to_all_v");
  CHECK(a2av.EffectOf(0, {}) == ArgEffect::kRead);
  CHECK(a2av.EffectOf(1, {}) == ArgEffect::kWrite);
  CHECK(a2av.EffectOf(2, {}) == ArgEffect::kReadWrite);
  CHECK(a2av.EffectOf(3, {}) == ArgEffect::kRead);
  CHECK(a2av.EffectOf(4, {}) == ArgEffect::kWrite);
}

TEST_CASE("input memory, placement and internal-only flags", "[dist][registry]") {
  auto mem = Def("pld.tile.remote_store").input_memory;
  REQUIRE(mem.count(0) == 1);
  CHECK(mem[0] == std::vector<MemorySpace>{MemorySpace::kVec, MemorySpace::kAcc});
  CHECK(Def("pld.system.world_size").placement == OpPlacement::kHostOnly);
  CHECK(Def("pld.tensor.alloc_window_buffer").placement == OpPlacement::kHostOnly);
  CHECK(Def("pld.system.rank").placement == OpPlacement::kKernelOnly);
  CHECK(Def("pld.system.nranks").placement == OpPlacement::kKernelOnly);
  CHECK(Def("pld.system.notify").placement == OpPlacement::kAnywhere);
  for (const OpDef* d : OpRegistry::Global().All()) {
    if (d->name.rfind("builtin.tensor.", 0) == 0) {
      INFO(d->name);
      CHECK(d->internal_only);
    }
  }
  CHECK_FALSE(Def("pld.tile.put").internal_only);  // printed IR must parse back
  CHECK_FALSE(Def("pld.tile.get").internal_only);
  CHECK_FALSE(Def("pld.tensor.allreduce").internal_only);
}

TEST_CASE("kind matching: plain Tensor rejected where a window is required", "[dist][kinds]") {
  Fx f;
  const Var* plain = f.V("t", f.Tensor({16, 16}, DataType::kInt32));
  const Var* peer = f.V("peer", f.Sc());
  const Expr* one = f.I(1, DataType::kInt32);
  const Call* c = f.Mk("pld.system.notify", {plain, peer, f.T({0, 0}), one},
                       {Fx::KEnum("op", EnumKind::kNotifyOp, 0)});
  RejectsAt(f, c, plain,
            "pld.system.notify: argument 'target' must be a pld.DistributedTensor (window-bound), "
            "got pl.Tensor[[16, 16], pl.INT32]");
  CHECK(f.diag.diagnostics()[0].span.col == 5);

  c = f.Mk("pld.system.wait", {plain, f.T({0, 0}), one}, {Fx::KInt("cmp", 1)});
  RejectsAt(f, c, plain,
            "pld.system.wait: argument 'signal' must be a pld.DistributedTensor (window-bound), "
            "got pl.Tensor[[16, 16], pl.INT32]");
  c = f.Mk("pld.system.get_comm_ctx", {plain});
  RejectsAt(f, c, plain,
            "pld.system.get_comm_ctx: argument 'dist_tensor' must be a pld.DistributedTensor "
            "(window-bound), got pl.Tensor[[16, 16], pl.INT32]");
  c = f.Mk("pld.tile.remote_load", {plain, peer, f.T({0, 0}), f.T({16, 16})});
  RejectsAt(f, c, plain,
            "pld.tile.remote_load: argument 'target' must be a pld.DistributedTensor "
            "(window-bound), got pl.Tensor[[16, 16], pl.INT32]");
  const Var* src = f.V("s", f.Tensor({16, 16}, DataType::kInt32));
  c = f.Mk("pld.tensor.put", {plain, peer, src});
  RejectsAt(f, c, plain,
            "pld.tensor.put: argument 'dst' must be a pld.DistributedTensor (window-bound), got "
            "pl.Tensor[[16, 16], pl.INT32]");
  c = f.Mk("pld.tensor.get", {src, peer, plain});
  RejectsAt(f, c, plain,
            "pld.tensor.get: argument 'src' must be a pld.DistributedTensor (window-bound), got "
            "pl.Tensor[[16, 16], pl.INT32]");
  const Var* tile = f.V("tl", f.Tile({16, 16}, DataType::kInt32));
  c = f.Mk("pld.tile.remote_store", {tile, plain, peer, f.T({0, 0})});
  RejectsAt(f, c, plain,
            "pld.tile.remote_store: argument 'target' must be a pld.DistributedTensor "
            "(window-bound), got pl.Tensor[[16, 16], pl.INT32]");
  c = f.Mk("pld.tensor.barrier", {plain});
  RejectsAt(f, c, plain,
            "pld.tensor.barrier: argument 'signal' must be a pld.DistributedTensor (window-bound), "
            "got pl.Tensor[[16, 16], pl.INT32]");
}

TEST_CASE("kind matching: plain Tensor accepted as put.src and get.dst", "[dist][kinds]") {
  Fx f;
  const Var* win = f.V("w", f.Dist({16, 64}, DataType::kFP32));
  const Var* local = f.V("x", f.Tensor({16, 64}, DataType::kFP32));
  const Var* peer = f.V("peer", f.Sc());
  const Call* c = f.Mk("pld.tensor.put", {win, peer, local});
  Accepts(f, c);
  CHECK(Isa<UnknownType>(c->type));
  Accepts(f, f.Mk("pld.tensor.get", {local, peer, win}));
  const Var* stage = f.V("st", f.Tile({16, 64}, DataType::kFP32));
  Accepts(f, f.Mk("pld.tile.put", {win, peer, local, stage}));
  Accepts(f, f.Mk("pld.tile.get", {local, peer, win, stage}));
  // A window is also a local GM region.
  const Var* win2 = f.V("w2", f.Dist({16, 64}, DataType::kFP32));
  Accepts(f, f.Mk("pld.tensor.put", {win, peer, win2}));
}

TEST_CASE("alloc_window_buffer and window", "[dist][window]") {
  Fx f;
  const Expr* bytes = f.I(4096);
  const Call* c = f.Mk("pld.tensor.alloc_window_buffer", {bytes}, {Fx::KStr("name", "buf")});
  Accepts(f, c);
  CHECK(Isa<PtrType>(c->type));
  Accepts(f, f.Mk("pld.tensor.alloc_window_buffer", {f.T({16, 64})},
                  {Fx::KDt("dtype", DataType::kFP32), Fx::KStr("name", "b")}));
  Rejects(f, f.Mk("pld.tensor.alloc_window_buffer", {bytes}),
          "pld.tensor.alloc_window_buffer: missing required keyword argument 'name'");
  Rejects(f, f.Mk("pld.tensor.alloc_window_buffer", {bytes}, {Fx::KStr("name", "")}),
          "pld.tensor.alloc_window_buffer: keyword 'name' must be a non-empty string (the parser "
          "takes it from the assignment's left-hand side: `buf = "
          "pld.tensor.alloc_window_buffer(...)`)");
  const MakeTuple* shp = f.T({16, 64});
  RejectsAt(f, f.Mk("pld.tensor.alloc_window_buffer", {shp}, {Fx::KStr("name", "b")}), shp,
            "pld.tensor.alloc_window_buffer: argument 'size' is a shape, which needs an element "
            "type: pass dtype=pl.FP32 (or give the size in bytes)");
  Rejects(f,
          f.Mk("pld.tensor.alloc_window_buffer", {bytes},
               {Fx::KDt("dtype", DataType::kFP32), Fx::KStr("name", "b")}),
          "pld.tensor.alloc_window_buffer: keyword 'dtype' is only meaningful with a shape "
          "argument; with a byte count omit it");
  const Expr* zero = f.I(0);
  RejectsAt(f, f.Mk("pld.tensor.alloc_window_buffer", {zero}, {Fx::KStr("name", "b")}), zero,
            "pld.tensor.alloc_window_buffer: argument 'size' is 0 bytes; a window buffer needs a "
            "positive size");
  const Var* fl = f.V("fl", f.Sc(DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.alloc_window_buffer", {fl}, {Fx::KStr("name", "b")}), fl,
            "pld.tensor.alloc_window_buffer: argument 'size' must be an integer byte count or a "
            "shape tuple [d0, d1, ...], got pl.Scalar[pl.FP32]");

  const Var* buf = f.V("buf", f.ctx.Ptr());
  c = f.Mk("pld.tensor.window", {buf, f.T({16, 64})}, {Fx::KDt("dtype", DataType::kFP16)});
  Accepts(f, c);
  const auto* dt = As<DistributedTensorType>(c->type);
  REQUIRE(dt != nullptr);
  CHECK(dt->dtype == DataType::kFP16);
  CHECK(ShapeStr(dt->shape) == "[16, 64]");
  CHECK(dt->window_buffer.empty());
  const Var* n = f.V("n", f.Sc(DataType::kInt64));
  RejectsAt(f, f.Mk("pld.tensor.window", {n, f.T({16})}, {Fx::KDt("dtype", DataType::kFP16)}), n,
            "pld.tensor.window: argument 'buf' must be a pl.Ptr returned by "
            "pld.tensor.alloc_window_buffer, got pl.Scalar[pl.INT64]");
  const MakeTuple* bad = f.T({16, 0});
  RejectsAt(f, f.Mk("pld.tensor.window", {buf, bad}, {Fx::KDt("dtype", DataType::kFP16)}), bad,
            "pld.tensor.window: argument 'shape' element 1 is 0; window dimensions must be "
            "positive");
  Rejects(f, f.Mk("pld.tensor.window", {buf, f.T({4})}),
          "pld.tensor.window: missing required keyword argument 'dtype'");
}

TEST_CASE("world_size, get_comm_ctx, rank, nranks", "[dist][window]") {
  Fx f;
  const Call* c = f.Mk("pld.system.world_size", {});
  Accepts(f, c);
  CHECK(c->type == f.ctx.Scalar(DataType::kInt64));
  Rejects(f, f.Mk("pld.system.world_size", {f.I(1)}),
          "pld.system.world_size: expected 0 positional arguments (), got 1");
  const Var* win = f.V("w", f.Dist({4}, DataType::kFP32));
  c = f.Mk("pld.system.get_comm_ctx", {win});
  Accepts(f, c);
  CHECK(c->type == f.ctx.CommCtx());
  const Var* ctxv = f.V("ctx", f.ctx.CommCtx());
  for (const char* n : {"pld.system.rank", "pld.system.nranks"}) {
    c = f.Mk(n, {ctxv});
    Accepts(f, c);
    CHECK(c->type == f.ctx.Scalar(DataType::kInt32));
  }
  const Var* i = f.V("i", f.Sc());
  RejectsAt(f, f.Mk("pld.system.rank", {i}), i,
            "pld.system.rank: argument 'ctx' must be a pld.CommCtx (from pld.system.get_comm_ctx), "
            "got pl.Scalar[pl.INT32]");
}

TEST_CASE("notify verifier", "[dist][signal]") {
  Fx f;
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  const Var* peer = f.V("peer", f.Sc());
  const Expr* one = f.I(1, DataType::kInt32);
  AttrList set = {Fx::KEnum("op", EnumKind::kNotifyOp, 1)};
  const Call* c = f.Mk("pld.system.notify", {sig, peer, f.T({0, 0}), one}, set);
  Accepts(f, c);
  CHECK(Isa<UnknownType>(c->type));
  CHECK(FindAttr(c->kwargs, "op")->kind == Attr::Kind::kInt);  // canonical ABI payload
  const Var* fpeer = f.V("fp", f.Sc(DataType::kFP32));
  RejectsAt(f, f.Mk("pld.system.notify", {sig, fpeer, f.T({0, 0}), one}, set), fpeer,
            "pld.system.notify: argument 'peer' must be an integer pl.Scalar rank index (e.g. "
            "pl.Scalar[pl.INT32]), got pl.Scalar[pl.FP32]");
  const MakeTuple* off1 = f.T({0});
  RejectsAt(f, f.Mk("pld.system.notify", {sig, peer, off1, one}, set), off1,
            "pld.system.notify: argument 'offsets' must have 2 elements (one per dimension of "
            "'target'), got 1");
  const Expr* notup = f.I(0);
  RejectsAt(f, f.Mk("pld.system.notify", {sig, peer, notup, one}, set), notup,
            "pld.system.notify: argument 'offsets' must be a tuple [i, j, ...] with one index per "
            "dimension of 'target' (rank 2), got pl.Scalar[pl.INDEX]");
  const MakeTuple* foff = f.TE({f.ctx.Int(0), f.ctx.Float(1.0)});
  RejectsAt(f, f.Mk("pld.system.notify", {sig, peer, foff, one}, set), foff,
            "pld.system.notify: argument 'offsets' element 1 must be an integer scalar index, got "
            "pl.Scalar[pl.FP32]");
  const Var* tv = f.V("tv", f.Tensor({1}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.system.notify", {sig, peer, f.T({0, 0}), tv}, set), tv,
            "pld.system.notify: argument 'value' must be a pl.Scalar, got pl.Tensor[[1], "
            "pl.INT32]");
  Rejects(f, f.Mk("pld.system.notify", {sig, peer, f.T({0, 0}), one}),
          "pld.system.notify: missing required keyword argument 'op'");
  Rejects(f, f.Mk("pld.system.notify", {sig, peer, f.T({0, 0}), one}, {Fx::KInt("op", 5)}),
          "pld.system.notify: keyword 'op' value 5 is out of range for pld.NotifyOp "
          "(pld.NotifyOp.AtomicAdd=0, pld.NotifyOp.Set=1)");
  Rejects(f,
          f.Mk("pld.system.notify", {sig, peer, f.T({0, 0}), one},
               {Fx::KEnum("op", EnumKind::kWaitCmp, 1)}),
          "pld.system.notify: keyword 'op' must be pld.NotifyOp");
}

TEST_CASE("wait verifier", "[dist][signal]") {
  Fx f;
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  AttrList ge = {Fx::KEnum("cmp", EnumKind::kWaitCmp, 1)};
  Accepts(f, f.Mk("pld.system.wait", {sig, f.T({0, 0}), f.I(1, DataType::kInt32)}, ge));
  const MakeTuple* off3 = f.T({0, 0, 0});
  RejectsAt(f, f.Mk("pld.system.wait", {sig, off3, f.I(1)}, ge), off3,
            "pld.system.wait: argument 'offsets' must have 2 elements (one per dimension of "
            "'signal'), got 3");
  const Var* tv = f.V("tv", f.Tile({1, 8}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.system.wait", {sig, f.T({0, 0}), tv}, ge), tv,
            "pld.system.wait: argument 'expected' must be a pl.Scalar, got pl.Tile[[1, 8], "
            "pl.INT32, pl.Mem.Vec]");
  Rejects(f, f.Mk("pld.system.wait", {sig, f.T({0, 0}), f.I(1)}),
          "pld.system.wait: missing required keyword argument 'cmp'");
  Rejects(f, f.Mk("pld.system.wait", {sig, f.T({0, 0}), f.I(1)}, {Fx::KInt("cmp", 2)}),
          "pld.system.wait: keyword 'cmp' value 2 is out of range for pld.WaitCmp "
          "(pld.WaitCmp.Eq=0, pld.WaitCmp.Ge=1)");
}

TEST_CASE("defer_wait V1 restrictions", "[dist][signal]") {
  Fx f;
  AttrList ge = {Fx::KEnum("cmp", EnumKind::kWaitCmp, 1)};
  const Var* sig = f.V("sig", f.Dist({8}, DataType::kInt32));
  Accepts(f, f.Mk("pld.system.defer_wait", {sig, f.T({3}), f.I(2147483647, DataType::kInt64)}, ge));
  const Var* thr = f.V("thr", f.Sc(DataType::kIndex));
  Accepts(f, f.Mk("pld.system.defer_wait", {sig, f.T({0}), thr}, ge));
  TensorView dn;
  dn.layout = TensorLayout::kDN;
  const Var* dsig = f.V("dsig", f.Dist({8, 2}, DataType::kInt32, dn));
  Accepts(f, f.Mk("pld.system.defer_wait", {dsig, f.T({0, 1}), f.I(1)}, ge));

  const Var* fsig = f.V("fsig", f.Dist({8}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.system.defer_wait", {fsig, f.T({0}), f.I(1)}, ge), fsig,
            "pld.system.defer_wait: argument 'signal' must have element type pl.INT32 (a "
            "deferred-completion counter), got pl.FP32");
  const Var* r0 = f.V("r0", f.Dist({}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.system.defer_wait", {r0, f.T({}), f.I(1)}, ge), r0,
            "pld.system.defer_wait: argument 'signal' has rank 0; defer_wait needs a signal of "
            "rank >= 1");
  TensorView nz;
  nz.layout = TensorLayout::kNZ;
  const Var* nsig = f.V("nsig", f.Dist({16, 16}, DataType::kInt32, nz));
  RejectsAt(f, f.Mk("pld.system.defer_wait", {nsig, f.T({0, 0}), f.I(1)}, ge), nsig,
            "pld.system.defer_wait: argument 'signal' has layout pl.TensorLayout.NZ; defer_wait "
            "addresses its counter with ND or DN layouts only");
  Rejects(f,
          f.Mk("pld.system.defer_wait", {sig, f.T({0}), f.I(1)},
               {Fx::KEnum("cmp", EnumKind::kWaitCmp, 0)}),
          "pld.system.defer_wait: keyword 'cmp' is pld.WaitCmp.Eq; defer_wait supports only "
          "pld.WaitCmp.Ge (use pld.system.wait for an equality wait)");
  const Var* fthr = f.V("fthr", f.Sc(DataType::kFP32));
  RejectsAt(f, f.Mk("pld.system.defer_wait", {sig, f.T({0}), fthr}, ge), fthr,
            "pld.system.defer_wait: argument 'expected' must be an integer scalar threshold, got "
            "pl.Scalar[pl.FP32]");
  const Expr* neg = f.I(-1, DataType::kInt32);
  RejectsAt(f, f.Mk("pld.system.defer_wait", {sig, f.T({0}), neg}, ge), neg,
            "pld.system.defer_wait: argument 'expected' is -1; a defer_wait threshold must lie in "
            "[0, 2147483647] because the counter is polled as unsigned >=");
  const Expr* big = f.I(2147483648LL, DataType::kInt64);
  RejectsAt(f, f.Mk("pld.system.defer_wait", {sig, f.T({0}), big}, ge), big,
            "pld.system.defer_wait: argument 'expected' is 2147483648; a defer_wait threshold "
            "must lie in [0, 2147483647] because the counter is polled as unsigned >=");
  const MakeTuple* foff = f.TE({f.ctx.Float(0.0)});
  RejectsAt(f, f.Mk("pld.system.defer_wait", {sig, foff, f.I(1)}, ge), foff,
            "pld.system.defer_wait: argument 'offsets' element 0 must be an integer scalar index, "
            "got pl.Scalar[pl.FP32]");
  const IterArg* alias = f.ctx.NewIterArg("acc", sig->type, sig, f.Next());
  RejectsAt(f, f.Mk("pld.system.defer_wait", {alias, f.T({0}), f.I(1)}, ge), alias,
            "pld.system.defer_wait: argument 'signal' must be the window-bound signal parameter "
            "itself; defer_wait does not support slices, views or loop-carried aliases of it");
  const Var* plain = f.V("p", f.Tensor({8}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.system.defer_wait", {plain, f.T({0}), f.I(1)}, ge), plain,
            "pld.system.defer_wait: argument 'signal' must be a pld.DistributedTensor "
            "(window-bound), got pl.Tensor[[8], pl.INT32]");
}
