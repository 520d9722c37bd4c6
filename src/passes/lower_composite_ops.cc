// lower-composite-ops: rewrites the composite collectives of kernels (InCore /
// AIC / AIV bodies) into communication primitives (notify / wait / remote_load /
// tile.load / tile.store), so the emitter only sees ops it has a recipe for.
//
// Every lowered call is replaced by a statement list that
//  * sets up the communicator: ctx = pld.system.get_comm_ctx(target),
//    nranks / my_rank (pld.system.nranks / rank) and their INDEX casts;
//  * synchronises with the SELF-CLEARING CREDIT BARRIER on the call's signal:
//    barrier(g): every rank adds 1 to its own cell [me, 0] on each peer, then
//    waits until every peer's cell [src, 0] on itself is >= g (g = 1, 2, ...
//    counts the barriers of this call); one epilogue at the very end subtracts
//    the call's total credits N from each peer cell (a self-notify of -N), so
//    the signal is all-zero again after the call and can be reused (inside
//    loops, by the next collective);
//  * re-binds the original result Var to the target (the collectives return it).
//
// Lowered today (the others stay as they are; the emitter reports them):
//  * pld.tensor.barrier(sig): barrier g=1; epilogue -1.
//  * pld.tensor.allreduce(target, sig, op=..., mode="mesh"): a fully valid
//    target is viewed as [1, N] (N a run-time expression for dynamic dims);
//    ready barrier g=1; chunks of C elements (C = 16 KiB / element size, shrunk
//    to the smallest 32-byte multiple >= N when N is static and smaller):
//    tile.load + fillpad of the own chunk, for each peer != me remote_load
//    (FP16: the tail's physical span rounded to 32 bytes, valid shape restored)
//    + fillpad + reduce (tile.add / maximum / minimum / mul), a per-chunk
//    barrier g = chunk + 2 (every peer has read my chunk) BEFORE tile.store of
//    the valid part; epilogue -(1 + nchunks). A partially valid target is one
//    [rows, cols] rectangle in one UB tile (allreduce_layout.h); epilogue -2.
//  * the data collectives (broadcast, allgather, all_to_all, reduce_scatter,
//    all_to_all_v) on packed, fully valid ND operands of any size, static or
//    with dynamic dims (bound at run time from the tensor parameter): rows move
//    through UB in column chunks of <= 16 KiB (collective_chunks.h); a ready
//    barrier g=1 precedes every write into a peer's window, so two calls on one
//    window back to back do not race; a done barrier g=2 follows; epilogue -2:
//    - broadcast(target, sig, root=R): target viewed as [1, N]; every rank but
//      R pld.tile.get's R's target chunk by chunk (R does not copy onto itself:
//      that would be a racy self-write of the data the others are reading);
//    - allgather / all_to_all: pld.tile.put of the input row (allgather) / row d
//      (all_to_all) into row my_rank of rank d's target for every d (own
//      included);
//    - reduce_scatter(target [NR, SIZE], sig, op): row my_rank reduced over every
//      rank (tile.load + remote_load + tile.add / maximum / minimum / mul,
//      tile.store of the chunk into row my_rank: no peer reads that row);
//    - all_to_all_v(input, target [NR*MAX_RECV, SIZE], sig, send_counts,
//      recv_counts): MAX_RECV = target.shape[0] // nranks; per dest, rows =
//      clamp(send_counts[dest], 0, MAX_RECV) is published into
//      recv_counts[my_rank, 0] of dest (notify Set) and exactly those rows are
//      pushed (pld.tile.put of runtime extent [rows, C]), skipped when rows ==
//      0. Rejected (error) inside a for/while loop: recv_counts is written with
//      Set, a single-use protocol a fast rank's next call would race with.
//    A strided, DN / NZ or partially valid data operand is an error at the call.
//  * pld.tensor.allreduce(..., mode="ring") with a [2*(NR-1), NR] signal (NR
//    static or dynamic; checked against the run's nranks at run time): TPUT push
//    model (see LowerRingAllreduce).
// An allreduce target the lowering cannot address (strided, not ND, a valid box
// the seed does not allow) or an InCore allreduce without a signal is an error
// at the call.
// Host orchestrators and chip orchestrations are left alone (their collectives
// are lowered by lower-host-tensor-collectives). Idempotent (lowered IR has no
// composite calls left that this pass knows how to lower).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "allreduce_layout.h"
#include "allreduce_signal_shape.h"
#include "collective_chunks.h"
#include "pass_util.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/ops.h"
#include "pypto/ops/reduce_combiner.h"
#include "pypto/passes/passes.h"

namespace pypto::passes {

using namespace ir;

namespace {

AttrList EnumKw(std::string name, EnumKind k, int v) {
  return AttrList{NamedAttr{std::move(name), Attr::Enum(k, v)}};
}

class CompositeLowerer : public util::LoopDepthMutator {
 public:
  CompositeLowerer(Context& ctx, DiagnosticEngine& diag)
      : LoopDepthMutator(ctx), b_(ctx), diag_(diag) {}

  const Stmt* Mutate_AssignStmt(const AssignStmt* s) override {
    if (auto* c = As<Call>(s->value))
      if (const Stmt* r = Lower(*c, s->var, s->span)) return r;
    return IRMutator::Mutate_AssignStmt(s);
  }
  const Stmt* Mutate_EvalStmt(const EvalStmt* s) override {
    if (auto* c = As<Call>(s->expr))
      if (const Stmt* r = Lower(*c, nullptr, s->span)) return r;
    return IRMutator::Mutate_EvalStmt(s);
  }

  int lowered = 0;

 private:
  // ---- shared pieces ----
  struct Comm {
    const Expr* sig = nullptr;
    size_t sig_rank = 2;
    const Var* ctx = nullptr;
    const Var* nranks_idx = nullptr;
    const Var* me = nullptr;  // INDEX
  };

  Comm Setup(const Expr* target, const Expr* sig) {
    Comm c;
    c.sig = sig;
    c.sig_rank = util::TensorTypeOf(sig)->rank();
    c.ctx = b_.Assign("comm_ctx", b_.Op(ops::kPldGetCommCtx, {target}));
    const Var* nr = b_.Assign("nranks", b_.Op(ops::kPldNranks, {c.ctx}));
    c.nranks_idx = b_.Assign("nranks_idx", b_.Cast(nr, DataType::kIndex));
    const Var* me = b_.Assign("my_rank", b_.Op(ops::kPldRank, {c.ctx}));
    c.me = b_.Assign("my_rank_idx", b_.Cast(me, DataType::kIndex));
    return c;
  }

  // The signal cell of rank r: [r, 0] (or [r] for a rank-1 signal).
  const Expr* Cell(const Comm& c, const Expr* r) {
    if (c.sig_rank == 1) return b_.Tuple({r});
    return b_.Tuple({r, b_.Int(0)});
  }

  // `for v in range(nranks): if v != me: body(v)`.
  void ForOthers(const Comm& c, const std::string& name,
                 const std::function<void(const Var*)>& body) {
    b_.For(name, b_.Int(0), c.nranks_idx, b_.Int(1), {},
           [&](const Var* v, const std::vector<const IterArg*>&) {
             b_.If(b_.Ne(v, c.me), [&] { body(v); });
           });
  }

  void Notify(const Comm& c, const Expr* peer, const Expr* cell, const Expr* value) {
    b_.Eval(b_.Op(ops::kPldNotify, {c.sig, peer, cell, value},
                  EnumKw("op", EnumKind::kNotifyOp, static_cast<int>(NotifyOp::kAtomicAdd))));
  }

  // Credit barrier generation g (an INT32 expression).
  void Barrier(const Comm& c, const Expr* g) {
    ForOthers(c, "peer", [&](const Var* peer) {
      Notify(c, peer, Cell(c, c.me), b_.Int(1, DataType::kInt32));
    });
    ForOthers(c, "src", [&](const Var* src) {
      b_.Eval(b_.Op(ops::kPldWait, {c.sig, Cell(c, src), g},
                    EnumKw("cmp", EnumKind::kWaitCmp, static_cast<int>(WaitCmp::kGe))));
    });
  }

  // Self-notify subtracting the call's `total` credits (an INDEX expression:
  // a run-time count when the call's size is dynamic) from every peer cell.
  void Epilogue(const Comm& c, const Expr* total) {
    const Expr* minus = b_.Cast(b_.Neg(total), DataType::kInt32);
    ForOthers(c, "reset_src", [&](const Var* src) { Notify(c, c.me, Cell(c, src), minus); });
  }
  void Epilogue(const Comm& c, int64_t total) { Epilogue(c, b_.Int(total)); }

  // ---- dispatch ----
  const Stmt* Lower(const Call& call, const Var* result, Span span) {
    if (!call.op || call.op->family != OpFamily::kCollective) return nullptr;
    b_.SetSpan(span);
    const Expr* value = nullptr;
    b_.Begin();
    if (call.Is(ops::kPldBarrier)) {
      value = LowerBarrier(call);
    } else if (call.Is(ops::kPldAllreduce)) {
      value = LowerAllreduce(call, span);
    } else if (call.Is(ops::kPldBroadcast)) {
      value = LowerBroadcast(call, span);
    } else if (call.Is(ops::kPldReduceScatter)) {
      value = LowerReduceScatter(call, span);
    } else if (call.Is(ops::kPldAllgather) || call.Is(ops::kPldAllToAll)) {
      value = LowerGatherLike(call, span, call.Is(ops::kPldAllToAll));
    } else if (call.Is(ops::kPldAllToAllV)) {
      value = LowerAllToAllV(call, span);
    }
    if (!value) {
      b_.End();
      return nullptr;
    }
    if (result && result != value) b_.AssignTo(result, value);
    ++lowered;
    return b_.End();
  }

  // The tile op that combines two partial results for the call's `op` kwarg.
  static OpHandle ReduceTileOp(const Call& call) {
    const Attr* opk = FindAttr(call.kwargs, "op");
    return ops::TileCombinerOf(static_cast<ReduceOp>(opk ? opk->i : 0));
  }

  const Expr* LowerBarrier(const Call& call) {
    const Expr* sig = call.args[0];
    Comm c = Setup(sig, sig);
    Barrier(c, b_.Int(1, DataType::kInt32));
    Epilogue(c, 1);
    return sig;
  }

  // Mesh allreduce; allreduce_layout.h decides how the target is addressed.
  // Ready barrier g=1; per chunk (a [1, C] column chunk of the [1, N] stream, or
  // the one [rows, cols] rectangle of a partially valid target): own tile.load
  // + fillpad, for every peer != me remote_load + fillpad + reduce, the chunk's
  // barrier g = chunk + 2 (every peer has read my chunk) BEFORE the store of
  // the valid part; epilogue -(1 + chunks), a run-time count when N is dynamic.
  const Expr* LowerAllreduce(const Call& call, Span span) {
    if (!CheckAllreduceSignalShape(call, span, diag_)) return nullptr;
    const Attr* mode = FindAttr(call.kwargs, "mode");
    if (mode && mode->s == "ring") return LowerRingAllreduce(call, span);
    if (call.args.size() < 2) {
      diag_.Error(span, call.op->name +
                            ": an InCore allreduce needs an explicit signal (only "
                            "host-orchestrator calls get one synthesized); pass an INT32 "
                            "[NR, 1] window as the second argument");
      return nullptr;
    }
    auto m = PlanMeshTarget(b_, call, span, diag_);
    if (!m) return nullptr;
    const Expr* target = call.args[0];
    const TensorType* tt = util::TensorTypeOf(target);
    OpHandle reduce = ReduceTileOp(call);
    Comm c = Setup(target, call.args[1]);
    const Expr* t2 = target;
    if (!SameShape(m->view, tt->shape))
      t2 = b_.Assign("target_2d", b_.Op(ops::kTensorView, {target, b_.Tuple(m->view)}));
    Barrier(c, b_.Int(1, DataType::kInt32));
    AttrList vec =
        EnumKw("target_memory", EnumKind::kMemorySpace, static_cast<int>(MemorySpace::kVec));
    // An FP16 stream's remote tail reads a physical span rounded up to 32
    // bytes (16 elements; C is a multiple of 16) and restores the logical
    // valid shape before the reduction.
    bool pad_tail = m->stream && tt->dtype == DataType::kFP16;
    auto reduce_chunk = [&](const Expr* off, const Expr* shape, const Expr* vrows,
                            const Expr* vcols, const Expr* g) {
      const Expr* vshape = b_.Tuple({vrows, vcols});
      const Var* own = b_.Assign("own", b_.Op(ops::kTileLoad, {t2, off, shape, vshape}, vec));
      const Var* acc0 = b_.Assign("acc", b_.Op(ops::kTileFillpadInplace, {own}));
      auto loop = b_.For(
          "peer", b_.Int(0), c.nranks_idx, b_.Int(1), {{"acc_it", acc0}},
          [&](const Var* peer, const std::vector<const IterArg*>& it) {
            auto r = b_.If(
                b_.Ne(peer, c.me),
                [&] {
                  const Var* recv;
                  if (pad_tail) {
                    const Expr* span16 =
                        b_.Mul(b_.FloorDiv(b_.Add(vcols, b_.Int(15)), b_.Int(16)), b_.Int(16));
                    recv = b_.Assign(
                        "recv_phys",
                        b_.Op(ops::kPldTileRemoteLoad,
                              {t2, peer, off, shape, b_.Tuple({vrows, span16})},
                              AttrList{{"allow_physical_tail_padding", Attr::Bool(true)}}));
                    recv = b_.Assign("recv", b_.Op(ops::kTileSetValidshape, {recv, vrows, vcols}));
                  } else {
                    recv = b_.Assign(
                        "recv", b_.Op(ops::kPldTileRemoteLoad, {t2, peer, off, shape, vshape}));
                  }
                  const Var* recvp = b_.Assign("recv_pad", b_.Op(ops::kTileFillpadInplace, {recv}));
                  b_.Yield({b_.Assign("acc_next", b_.Op(reduce, {it[0], recvp}))});
                },
                [&] { b_.Yield({it[0]}); }, {"acc_sel"});
            b_.Yield({r.results[0]});
          },
          ForKind::kRange, {"acc_all"});
      // Every peer has read my chunk before it is overwritten.
      Barrier(c, g);
      const Var* res =
          b_.Assign("acc_valid", b_.Op(ops::kTileSetValidshape, {loop.results[0], vrows, vcols}));
      b_.Assign("stored", b_.Op(ops::kTileStore, {res, off, t2}));
    };
    if (!m->stream) {
      reduce_chunk(b_.IndexTuple({0, 0}), b_.IndexTuple({m->tile_rows, m->tile_cols}),
                   m->valid_rows, m->valid_cols, b_.Int(2, DataType::kInt32));
      Epilogue(c, b_.Int(2));
      return target;
    }
    const Expr* n = m->total;
    const int64_t chunk = m->chunk;
    b_.For("col", b_.Int(0), n, b_.Int(chunk), {},
           [&](const Var* col, const std::vector<const IterArg*>&) {
             const Var* valid = b_.Assign("valid", b_.Min(b_.Int(chunk), b_.Sub(n, col)));
             reduce_chunk(
                 b_.Tuple({b_.Int(0), col}), b_.IndexTuple({1, chunk}), b_.Int(1), valid,
                 b_.Cast(b_.Add(b_.FloorDiv(col, b_.Int(chunk)), b_.Int(2)), DataType::kInt32));
           });
    Epilogue(c, b_.Add(b_.Int(1), b_.FloorDiv(b_.Add(n, b_.Int(chunk - 1)), b_.Int(chunk))));
    return target;
  }

  // A ring lowered for the signal's NR columns is only right on NR ranks (its
  // segments, neighbours and rows are computed for NR, and a [2*(NR-1), NR]
  // signal has no cells for more ranks): checked at run time, at the call.
  void CheckRingRanks(const Call& call, const Comm& c) {
    const Expr* sig = call.args[1];
    const TensorType* st = util::TensorTypeOf(sig);
    const Expr* rows = st->shape[0];
    const Expr* cols = st->shape[1];
    const auto* named = AsVarLike(sig);
    std::string who = fmt::format("{}: mode=\"ring\" signal '{}' {}", call.op->name,
                                  named ? named->name_hint : "signal", ShapeStr(st->shape));
    const Expr* ok = b_.Eq(c.nranks_idx, cols);
    std::string msg;
    if (auto nr = StaticInt(cols)) {
      msg = fmt::format(
          "{}: the ring was lowered for NR = {} ranks but runs on {{}} ranks; its segments, "
          "neighbours and signal rows are computed for NR, so it would address ranks and "
          "cells that do not exist; run it on {} ranks, or declare the signal "
          "[2 * (NR - 1), NR] with NR = pl.dynamic(\"NR\") so that the ring follows the run's "
          "rank count",
          who, *nr, *nr);
    } else {
      ok = b_.And(ok, b_.Ge(rows, b_.Mul(b_.Int(2), b_.Sub(c.nranks_idx, b_.Int(1)))));
      msg = fmt::format(
          "{} is [{{}}, {{}}] at run time but the call runs on {{}} ranks; the ring needs one "
          "row per round and one cell per rank ([2 * (NR - 1), NR] for NR ranks); pass a "
          "signal window of the run's rank count",
          who);
    }
    std::vector<const Expr*> shown = {c.nranks_idx};
    if (!StaticInt(cols)) shown = {rows, cols, c.nranks_idx};
    b_.Eval(b_.Op(ops::kSystemCheck, {ok, b_.Tuple(shown)}, AttrList{{"msg", Attr::Str(msg)}}));
  }

  // Ring allreduce, TPUT push model. Signal [2*(NR-1), NR] (NR static, or
  // dynamic and then the run's nranks; CheckRingRanks checks the two agree);
  // target viewed as [1, SIZE] (a partially valid one keeps its physical
  // [1, prod(shape)] view with valid_shape [1, SIZE], SIZE = prod(valid_shape)),
  // split into NR balanced segments [floor(i*SIZE/NR), floor((i+1)*SIZE/NR)).
  // Round row k (reduce-scatter k = 0..NR-2, allgather k = NR-1..2NR-3): rank r
  // pushes segment a to its right neighbour's target (pld.tile.put) and receives
  // segment b = a-1 from the left one, in K subchunks of <= C elements. Per
  // subchunk: (RS only) read the own value of b; ready barrier on the row
  // (>= 2j+1: the right neighbour has read its own value); push; push-done
  // barrier (>= 2j+2); (RS only) reduce the received value with the own one and
  // store it. Every row gets 2K credits per peer; the epilogue subtracts them
  // from every row. K and C are static when NR and SIZE are, run-time
  // expressions otherwise.
  const Expr* LowerRingAllreduce(const Call& call, Span span) {
    auto plan = PlanRingTarget(b_, call, span, diag_);
    if (!plan) return nullptr;
    const Expr* target = call.args[0];
    const Expr* sig = call.args[1];  // the deducer requires a ring signal
    const TensorType* tt = util::TensorTypeOf(target);
    const Expr* total = plan->valid;
    auto static_nr = StaticInt(util::TensorTypeOf(sig)->shape[1]);
    auto static_total = StaticInt(total);
    OpHandle reduce = ReduceTileOp(call);
    int64_t elem = DTypeBytes(tt->dtype);
    // A 2-byte (FP16) segment boundary rounds up to 16 elements (32 bytes),
    // capped at SIZE, so every non-empty segment starts MTE-aligned; FP32 keeps
    // the balanced floor(i * SIZE / NR).
    const int64_t align = elem == 2 ? 32 / elem : 1;

    Comm c = Setup(target, sig);
    CheckRingRanks(call, c);
    const Expr* NR = static_nr ? static_cast<const Expr*>(b_.Int(*static_nr)) : c.nranks_idx;
    int64_t chunk = kCollectiveChunkBytes / elem;
    const Expr* K = nullptr;
    if (static_nr && static_total) {
      auto lo_of = [&](int64_t i) {
        return std::min((i * *static_total / *static_nr + align - 1) / align * align,
                        *static_total);
      };
      int64_t maxlen = 0;
      for (int64_t i = 0; i < *static_nr; ++i) maxlen = std::max(maxlen, lo_of(i + 1) - lo_of(i));
      chunk = RowChunk(maxlen, tt->dtype);
      K = b_.Int((maxlen + chunk - 1) / chunk);
    } else {
      // A segment is at most ceil(SIZE / NR) + align - 1 elements (each
      // boundary moves up by < align), and never more than SIZE.
      if (static_total) chunk = RowChunk(*static_total, tt->dtype);
      const Expr* maxlen = b_.Min(
          b_.Add(b_.FloorDiv(b_.Add(total, b_.Sub(NR, b_.Int(1))), NR), b_.Int(align - 1)), total);
      K = b_.Assign("ring_subchunks",
                    b_.FloorDiv(b_.Add(maxlen, b_.Int(chunk - 1)), b_.Int(chunk)));
    }
    const Expr* t2 = target;
    Shape flat = {b_.Int(1), plan->size};
    if (!SameShape(flat, tt->shape)) {
      std::vector<const Expr*> args = {target, b_.Tuple(flat)};
      if (plan->partial) args.push_back(b_.Tuple({b_.Int(1), total}));
      t2 = b_.Assign("target_2d", b_.Op(ops::kTensorView, std::move(args)));
    }
    const Var* right = b_.Assign("right", b_.FloorMod(b_.Add(c.me, b_.Int(1)), NR));
    const Var* stage = StageTile("ring_stage", 1, chunk, tt->dtype);
    AttrList vec =
        EnumKw("target_memory", EnumKind::kMemorySpace, static_cast<int>(MemorySpace::kVec));
    auto lo = [&](const Expr* i) -> const Expr* {
      const Expr* b = b_.FloorDiv(b_.Mul(i, total), NR);
      if (align == 1) return b;
      return b_.Min(b_.Mul(b_.FloorDiv(b_.Add(b, b_.Int(align - 1)), b_.Int(align)), b_.Int(align)),
                    total);
    };
    // The own value of an inactive subchunk is read at an in-bounds offset.
    const Expr* last_start = b_.Max(
        b_.Mul(b_.FloorDiv(b_.Sub(total, b_.Int(1)), b_.Int(align)), b_.Int(align)), b_.Int(0));
    // Barrier g on round row `row`: cells [row, r].
    auto row_barrier = [&](const Expr* row, const Expr* g) {
      ForOthers(c, "peer", [&](const Var* peer) {
        Notify(c, peer, b_.Tuple({row, c.me}), b_.Int(1, DataType::kInt32));
      });
      ForOthers(c, "src", [&](const Var* src) {
        b_.Eval(b_.Op(ops::kPldWait, {sig, b_.Tuple({row, src}), g},
                      EnumKw("cmp", EnumKind::kWaitCmp, static_cast<int>(WaitCmp::kGe))));
      });
    };
    const Expr* steps = b_.Sub(NR, b_.Int(1));
    auto round = [&](bool rs) {
      b_.For(
          rs ? "rs_step" : "ag_step", b_.Int(0), steps, b_.Int(1), {},
          [&](const Var* step, const std::vector<const IterArg*>&) {
            const Expr* row = rs ? static_cast<const Expr*>(step) : b_.Add(step, steps);
            const Expr* a0 = rs ? b_.Sub(c.me, step) : b_.Sub(b_.Add(c.me, b_.Int(1)), step);
            const Var* a = b_.Assign("send_seg", b_.FloorMod(b_.Add(a0, NR), NR));
            const Var* a_lo = b_.Assign("send_lo", lo(a));
            const Var* a_len = b_.Assign("send_len", b_.Sub(lo(b_.Add(a, b_.Int(1))), a_lo));
            const Var* b_lo = nullptr;
            const Var* b_len = nullptr;
            if (rs) {  // allgather receives straight into place: nothing to do locally
              const Var* bseg = b_.Assign("recv_seg", b_.FloorMod(b_.Add(a, steps), NR));
              b_lo = b_.Assign("recv_lo", lo(bseg));
              b_len = b_.Assign("recv_len", b_.Sub(lo(b_.Add(bseg, b_.Int(1))), b_lo));
            }
            b_.For(
                "sub", b_.Int(0), K, b_.Int(1), {},
                [&](const Var* j, const std::vector<const IterArg*>&) {
                  const Expr* jc = b_.Mul(j, b_.Int(chunk));
                  const Var* a_off = b_.Assign("send_off", b_.Add(a_lo, jc));
                  const Var* a_valid = b_.Assign(
                      "send_valid", b_.Max(b_.Min(b_.Int(chunk), b_.Sub(a_len, jc)), b_.Int(0)));
                  const Var* b_off = nullptr;
                  const Var* b_valid = nullptr;
                  const Var* own = nullptr;
                  if (rs) {
                    b_off = b_.Assign("recv_off", b_.Add(b_lo, jc));
                    b_valid = b_.Assign(
                        "recv_valid", b_.Max(b_.Min(b_.Int(chunk), b_.Sub(b_len, jc)), b_.Int(0)));
                    // Read before the ready barrier (clamped in bounds when inactive).
                    own = b_.Assign("own",
                                    b_.Op(ops::kTileLoad,
                                          {t2, b_.Tuple({b_.Int(0), b_.Min(b_off, last_start)}),
                                           b_.IndexTuple({1, chunk}),
                                           b_.Tuple({b_.Int(1), b_.Max(b_valid, b_.Int(1))})},
                                          vec));
                  }
                  row_barrier(row,
                              b_.Cast(b_.Add(b_.Mul(j, b_.Int(2)), b_.Int(1)), DataType::kInt32));
                  b_.If(b_.Gt(a_valid, b_.Int(0)), [&] {
                    const Var* sv = b_.Assign(
                        "stage_v", b_.Op(ops::kTileSetValidshape, {stage, b_.Int(1), a_valid}));
                    const Expr* region = b_.Tuple({b_.Int(0), a_off});
                    b_.Eval(
                        b_.Op(ops::kPldTilePut,
                              {t2, right, t2, sv, region, region, b_.Tuple({b_.Int(1), a_valid})},
                              EnumKw("atomic", EnumKind::kAtomicType, 0)));
                  });
                  row_barrier(row,
                              b_.Cast(b_.Add(b_.Mul(j, b_.Int(2)), b_.Int(2)), DataType::kInt32));
                  if (rs) {
                    b_.If(b_.Gt(b_valid, b_.Int(0)), [&] {
                      const Expr* off = b_.Tuple({b_.Int(0), b_off});
                      const Var* recv = b_.Assign("recv", b_.Op(ops::kTileLoad,
                                                                {t2, off, b_.IndexTuple({1, chunk}),
                                                                 b_.Tuple({b_.Int(1), b_valid})},
                                                                vec));
                      const Var* rp =
                          b_.Assign("recv_pad", b_.Op(ops::kTileFillpadInplace, {recv}));
                      const Var* op = b_.Assign("own_pad", b_.Op(ops::kTileFillpadInplace, {own}));
                      const Var* red = b_.Assign("red", b_.Op(reduce, {op, rp}));
                      const Var* rv = b_.Assign(
                          "red_valid", b_.Op(ops::kTileSetValidshape, {red, b_.Int(1), b_valid}));
                      b_.Assign("red_stored", b_.Op(ops::kTileStore, {rv, off, t2}));
                    });
                  }
                });
          });
    };
    round(true);
    round(false);
    b_.For(
        "reset_row", b_.Int(0), b_.Mul(b_.Int(2), steps), b_.Int(1), {},
        [&](const Var* row, const std::vector<const IterArg*>&) {
          ForOthers(c, "reset_src", [&](const Var* src) {
            Notify(c, c.me, b_.Tuple({row, src}), b_.Cast(b_.Mul(K, b_.Int(-2)), DataType::kInt32));
          });
        });
    return target;
  }

  const Var* StageTile(std::string name, int64_t rows, int64_t cols, DataType dt) {
    AttrList kw{
        {"dtype", Attr::DType(dt)},
        {"target_memory", Attr::Enum(EnumKind::kMemorySpace, static_cast<int>(MemorySpace::kVec))}};
    return b_.Assign(std::move(name), b_.Op(ops::kTileCreate, {b_.IndexTuple({rows, cols})}, kw));
  }

  // The data operands `args` of `call` are packed, fully valid ND views (else an
  // error at the call; see collective_chunks.h).
  bool RowOperands(const Call& call, std::initializer_list<size_t> args, Span span) {
    bool ok = true;
    for (size_t a : args) ok = CheckRowOperand(b_.ctx(), call, a, span, diag_) && ok;
    return ok;
  }

  // broadcast(target, sig, root=R): the target viewed as [1, N] (N = its element
  // count, a run-time expression for dynamic dims); barrier 1 (the root's data
  // is ready and every rank has finished with its previous contents); every rank
  // but the root copies the root's target into its own in chunks of <= 16 KiB
  // through a [1, C] staging tile (pld.tile.get); barrier 2 (every rank has read
  // the root's target, so the root may overwrite it after the call); epilogue
  // -2. (R does not copy onto itself: that would be a racy self-write of the data
  // the others are reading.)
  const Expr* LowerBroadcast(const Call& call, Span span) {
    const Expr* target = call.args[0];
    const Expr* sig = call.args[1];
    if (!RowOperands(call, {0}, span)) return nullptr;
    const TensorType* tt = util::TensorTypeOf(target);
    const Expr* total = ElemCount(b_, tt->shape);
    int64_t chunk = RowChunk(total, tt->dtype);
    const Attr* root = FindAttr(call.kwargs, "root");
    int64_t r = root ? root->i : 0;
    Comm c = Setup(target, sig);
    const Expr* flat = target;
    if (!(tt->rank() == 2 && StaticInt(tt->shape[0]) == std::optional<int64_t>(1)))
      flat = b_.Assign("bc_flat", b_.Op(ops::kTensorView, {target, b_.Tuple({b_.Int(1), total})}));
    Barrier(c, b_.Int(1, DataType::kInt32));
    const Var* stage = StageTile("bc_stage", 1, chunk, tt->dtype);
    b_.If(b_.Ne(c.me, b_.Int(r)), [&] {
      ForColumnChunks(b_, "bc", total, chunk, [&](const Var* col, const Var* valid) {
        const Var* sv =
            b_.Assign("bc_stage_v", b_.Op(ops::kTileSetValidshape, {stage, b_.Int(1), valid}));
        const Expr* region = b_.Tuple({b_.Int(0), col});
        b_.Eval(b_.Op(ops::kPldTileGet, {flat, b_.Int(r, DataType::kInt32), flat, sv, region,
                                         region, b_.Tuple({b_.Int(1), valid})}));
      });
    });
    Barrier(c, b_.Int(2, DataType::kInt32));
    Epilogue(c, 2);
    return target;
  }

  // reduce_scatter(target [NR, SIZE], sig, op): barrier 1; row my_rank is
  // reduced in chunks of <= 16 KiB: acc = own chunk (op) the same chunk of row
  // my_rank of every peer's target (remote_load), stored back at once (no peer
  // reads row my_rank of my target: peer q reads row q); barrier 2 (every peer
  // has read my rows); epilogue -2. SIZE may be a dynamic dim.
  const Expr* LowerReduceScatter(const Call& call, Span span) {
    const Expr* target = call.args[0];
    const Expr* sig = call.args[1];
    const TensorType* tt = util::TensorTypeOf(target);
    if (tt->rank() != 2 || !RowOperands(call, {0}, span)) return nullptr;
    const Expr* size = tt->shape[1];
    OpHandle reduce = ReduceTileOp(call);
    int64_t chunk = RowChunk(size, tt->dtype);
    Comm c = Setup(target, sig);
    Barrier(c, b_.Int(1, DataType::kInt32));
    AttrList vec =
        EnumKw("target_memory", EnumKind::kMemorySpace, static_cast<int>(MemorySpace::kVec));
    ForColumnChunks(b_, "rs", size, chunk, [&](const Var* col, const Var* valid) {
      const Expr* off = b_.Tuple({c.me, col});
      const Expr* shape = b_.IndexTuple({1, chunk});
      const Expr* vshape = b_.Tuple({b_.Int(1), valid});
      const Var* own =
          b_.Assign("rs_own", b_.Op(ops::kTileLoad, {target, off, shape, vshape}, vec));
      own = b_.Assign("rs_acc", b_.Op(ops::kTileFillpadInplace, {own}));
      auto loop = b_.For(
          "peer", b_.Int(0), c.nranks_idx, b_.Int(1), {{"rs_acc_it", own}},
          [&](const Var* peer, const std::vector<const IterArg*>& it) {
            auto r = b_.If(
                b_.Ne(peer, c.me),
                [&] {
                  const Var* recv = b_.Assign("rs_recv", b_.Op(ops::kPldTileRemoteLoad,
                                                               {target, peer, off, shape, vshape}));
                  recv = b_.Assign("rs_recv_pad", b_.Op(ops::kTileFillpadInplace, {recv}));
                  b_.Yield({b_.Assign(reduce == ops::kTileAdd ? "rs_sum" : "rs_red",
                                      b_.Op(reduce, {it[0], recv}))});
                },
                [&] { b_.Yield({it[0]}); }, {"rs_sel"});
            b_.Yield({r.results[0]});
          },
          ForKind::kRange, {"rs_total"});
      const Var* res =
          b_.Assign("rs_res", b_.Op(ops::kTileSetValidshape, {loop.results[0], b_.Int(1), valid}));
      b_.Assign("rs_stored", b_.Op(ops::kTileStore, {res, off, target}));
    });
    Barrier(c, b_.Int(2, DataType::kInt32));
    Epilogue(c, 2);
    return target;
  }

  // allgather(input [1, SIZE] or pre-staged [NR, SIZE], target [NR, SIZE], sig):
  // barrier 1 (every rank has finished with its target's previous contents, so
  // two calls on one window back to back do not race); put the input (row
  // my_rank of a staged one) into row my_rank of every rank's target (own
  // included) in column chunks of <= 16 KiB through a [1, C] staging tile;
  // barrier 2 (every put has landed); epilogue -2.
  // all_to_all(input [NR, SIZE], ...): row d of the input goes to row my_rank of
  // rank d's target; same barriers. SIZE may be a dynamic dim.
  const Expr* LowerGatherLike(const Call& call, Span span, bool all_to_all) {
    const Expr* input = call.args[0];
    const Expr* target = call.args[1];
    const Expr* sig = call.args[2];
    const TensorType* tt = util::TensorTypeOf(target);
    if (tt->rank() != 2 || !RowOperands(call, {0, 1}, span)) return nullptr;
    const Expr* size = tt->shape[1];
    int64_t chunk = RowChunk(size, tt->dtype);
    Comm c = Setup(target, sig);
    const Var* stage = StageTile(all_to_all ? "aa_stage" : "ag_stage", 1, chunk, tt->dtype);
    // An allgather input pre-staged as [NR, SIZE] (the target itself when in
    // place) contributes its row my_rank; a [1, SIZE] chunk its only row.
    auto in_rows = StaticInt(util::TensorTypeOf(input)->shape[0]);
    bool staged = !all_to_all && !(in_rows && *in_rows == 1);
    Barrier(c, b_.Int(1, DataType::kInt32));
    b_.For("dest", b_.Int(0), c.nranks_idx, b_.Int(1), {},
           [&](const Var* dest, const std::vector<const IterArg*>&) {
             const Expr* src_row = all_to_all ? static_cast<const Expr*>(dest)
                                   : staged   ? static_cast<const Expr*>(c.me)
                                              : b_.Int(0);
             ForColumnChunks(b_, "put", size, chunk, [&](const Var* col, const Var* valid) {
               const Var* sv =
                   b_.Assign("stage_v", b_.Op(ops::kTileSetValidshape, {stage, b_.Int(1), valid}));
               b_.Eval(b_.Op(ops::kPldTilePut,
                             {target, dest, input, sv, b_.Tuple({c.me, col}),
                              b_.Tuple({src_row, col}), b_.Tuple({b_.Int(1), valid})},
                             EnumKw("atomic", EnumKind::kAtomicType, 0)));
             });
           });
    Barrier(c, b_.Int(2, DataType::kInt32));
    Epilogue(c, 2);
    return target;
  }

  // all_to_all_v(input [NR*MAX_RECV, SIZE], target, sig [NR, 1], send_counts
  // [NR] / [NR, 1], recv_counts [NR, 1]): MAX_RECV = target.shape[0] // nranks
  // (the runtime comm-domain size, as the HOST builtin derives it). Barrier 1
  // (every rank has finished with its target and recv_counts of a previous
  // call). For every dest (own included): rows = clamp(send_counts[dest], 0,
  // MAX_RECV); notify (Set) rows into recv_counts[my_rank, 0] of dest; if rows >
  // 0 push input rows [dest*MAX_RECV, +rows) into target rows
  // [my_rank*MAX_RECV, +rows) of dest, in column chunks of <= 16 KiB (runtime
  // extent [rows, C'] through a [1, C] stage that the TPUT engine slides down
  // the rows, so padding rows never cross the wire). Barrier 2 (every push and
  // count has landed); epilogue -2. SIZE and the row count may be dynamic dims.
  const Expr* LowerAllToAllV(const Call& call, Span span) {
    std::string_view op = call.op->name;
    if (loop_depth_ > 0) {
      diag_.Error(span, fmt::format("{}: not supported inside a for/while loop (recv_counts is "
                                    "published with Set, a single-use protocol that a fast "
                                    "rank's next call would race with); call it once, outside "
                                    "loops",
                                    op));
      return nullptr;
    }
    const Expr* input = call.args[0];
    const Expr* target = call.args[1];
    const Expr* sig = call.args[2];
    const Expr* send = call.args[3];
    const Expr* recv = call.args[4];
    if (!RowOperands(call, {0, 1}, span)) return nullptr;
    const TensorType* tt = util::TensorTypeOf(target);
    const Expr* size = tt->shape[1];
    int64_t chunk = RowChunk(size, tt->dtype);
    Comm c = Setup(target, sig);
    const Var* max_recv = b_.Assign("max_recv", b_.FloorDiv(tt->shape[0], c.nranks_idx));
    const Var* stage = StageTile("aav_stage", 1, chunk, tt->dtype);
    size_t send_rank = util::TensorTypeOf(send)->rank();
    size_t recv_rank = util::TensorTypeOf(recv)->rank();
    Barrier(c, b_.Int(1, DataType::kInt32));
    b_.For("dest", b_.Int(0), c.nranks_idx, b_.Int(1), {},
           [&](const Var* dest, const std::vector<const IterArg*>&) {
             const Expr* idx = send_rank == 1 ? b_.Tuple({dest}) : b_.Tuple({dest, b_.Int(0)});
             const Var* want = b_.Assign("send_count", b_.Op(ops::kTensorRead, {send, idx}));
             const Var* rows = b_.Assign(
                 "send_rows", b_.Min(b_.Max(b_.Cast(want, DataType::kIndex), b_.Int(0)), max_recv));
             const Expr* cell = recv_rank == 1 ? b_.Tuple({c.me}) : b_.Tuple({c.me, b_.Int(0)});
             b_.Eval(b_.Op(ops::kPldNotify, {recv, dest, cell, b_.Cast(rows, DataType::kInt32)},
                           EnumKw("op", EnumKind::kNotifyOp, static_cast<int>(NotifyOp::kSet))));
             b_.If(b_.Gt(rows, b_.Int(0)), [&] {
               ForColumnChunks(b_, "aav", size, chunk, [&](const Var* col, const Var* valid) {
                 const Var* sv = b_.Assign(
                     "aav_stage_v", b_.Op(ops::kTileSetValidshape, {stage, b_.Int(1), valid}));
                 b_.Eval(b_.Op(ops::kPldTilePut,
                               {target, dest, input, sv, b_.Tuple({b_.Mul(c.me, max_recv), col}),
                                b_.Tuple({b_.Mul(dest, max_recv), col}), b_.Tuple({rows, valid})},
                               EnumKw("atomic", EnumKind::kAtomicType, 0)));
               });
             });
           });
    Barrier(c, b_.Int(2, DataType::kInt32));
    Epilogue(c, 2);
    return target;
  }
  IRBuilder b_;
  DiagnosticEngine& diag_;
};

class LowerCompositeOpsPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine& diag) override {
    return util::RewriteBodies(
        ctx, prog, [](const Function& f) { return f.IsKernel(); },
        [&](const Function& f) { return CompositeLowerer(ctx, diag).MutateStmt(f.body); });
  }
};

}  // namespace

std::unique_ptr<Pass> CreateLowerCompositeOpsPass() {
  return std::make_unique<LowerCompositeOpsPass>();
}

}  // namespace pypto::passes
