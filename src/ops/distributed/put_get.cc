// Bulk GM-to-GM transfers of the pld family: pld.tensor.put (TPUT: local GM ->
// peer window) and pld.tensor.get (TGET: peer window -> local GM), plus their
// internal tile forms pld.tile.put / pld.tile.get that ConvertTensorToTileOps
// emits with explicit VEC staging tiles (one, or two for ping-pong pipelining).
//
// Kind rules: the window-bound side (put.dst, get.src) must be a
// DistributedTensor (As<DistributedTensorType>); the local side (put.src,
// get.dst) may also be a plain Tensor (AsTensorTypeLike), because TPUT/TGET only
// need a readable/writable local GM region there.
//
// Registry: all four are VECTOR (declared): the transfer streams through a Vec
// staging tile and ptoas requires it; the tensor forms have no tile operand and
// would otherwise be classified SHARED and duplicated onto the cube lane.
// put's dst is written (atomic=None_) or read-modify-written (atomic=Add); get's
// dst is written. The tile forms' first stage tile is scratch (ReadWrite).
// The tile forms are compiler output but NOT internal_only: printed IR after
// ConvertTensorToTileOps must parse back.
#include <fmt/format.h>

#include "../register_op.h"
#include "dist_common.h"
#include "pypto/ir/context.h"
#include "pypto/ir/transfer_operands.h"

namespace pypto::ir {

using namespace dist;

static EffectFn PutDstEffect() {
  return [](const AttrList& kw) {
    const Attr* a = FindAttr(kw, "atomic");
    return a && a->i == static_cast<int>(AtomicType::kAdd) ? ArgEffect::kReadWrite
                                                           : ArgEffect::kWrite;
  };
}

// chunk_rows/chunk_cols >= 0; pipeline needs both chunks.
static bool CheckChunkKwargs(DeduceContext& dc, int64_t rows, int64_t cols) {
  bool ok = true;
  if (rows < 0) {
    dc.KwargError("chunk_rows", fmt::format("is {}; chunk sizes must be non-negative (0 = the "
                                            "full transfer extent)",
                                            rows));
    ok = false;
  }
  if (cols < 0) {
    dc.KwargError("chunk_cols", fmt::format("is {}; chunk sizes must be non-negative (0 = the "
                                            "full transfer extent)",
                                            cols));
    ok = false;
  }
  if (dc.BoolKwarg("pipeline", false) && (rows <= 0 || cols <= 0)) {
    dc.KwargError("pipeline",
                  "requires both chunk_rows and chunk_cols to be set (> 0); double-buffering only "
                  "helps a chunked transfer");
    ok = false;
  }
  return ok;
}

// The 3-or-6 argument tensor forms.
static const Type* DeduceTensorTransfer(DeduceContext& dc, bool is_put) {
  size_t n = dc.args.size();
  if (n != 3 && n != 6)
    return dc.Error(
        fmt::format("dst_offsets, src_offsets and shape must be given all together "
                    "(got {} of the 3); omit all three for a full-slice transfer",
                    n - 3));
  TransferArgs ta;
  ta.dst_is_window = is_put;
  if (n == 6) {
    ta.dst_offsets = 3;
    ta.src_offsets = 4;
    ta.shape = 5;
  }
  int64_t rows = IntKw(dc, "chunk_rows", 0), cols = IntKw(dc, "chunk_cols", 0);
  bool ok = CheckChunkKwargs(dc, rows, cols);
  std::optional<int> atomic = 0;
  if (is_put) atomic = EnumKw(dc, "atomic", EnumKind::kAtomicType, 0);
  auto tr = CheckTransfer(dc, ta);
  if (!tr || !ok || !atomic) return nullptr;
  // The VEC staging tile is static: dynamic flattened dims need a static chunk.
  Flat f = Flatten(tr->extent);
  int where = n == 6 ? 5 : 0;
  if (!f.cols && cols <= 0)
    return ArgError(dc, where, {},
                    fmt::format("gives a transfer extent {} whose innermost dim is dynamic; pass "
                                "chunk_cols= to bound the statically allocated staging tile",
                                ShapeStr(tr->extent)));
  if (!f.rows && rows <= 0)
    return ArgError(dc, where, {},
                    fmt::format("gives a transfer extent {} with a dynamic leading dim; pass "
                                "chunk_rows= to bound the statically allocated staging tile",
                                ShapeStr(tr->extent)));
  if (*atomic == static_cast<int>(AtomicType::kAdd) &&
      !CheckAtomicAddDtype(dc, 0, {}, tr->dst->dtype))
    return nullptr;
  return dc.ctx.Unknown();
}

// A staging tile: static 2-D Vec tile of the transfer dtype, within [rows, cols].
static const TileType* CheckStage(DeduceContext& dc, int idx, std::string_view name, DataType dt,
                                  const Flat& f) {
  const Type* t = dc.args[static_cast<size_t>(idx)]->type;
  const auto* tile = As<TileType>(t);
  if (!tile) {
    ArgError(dc, idx, name, fmt::format("must be a pl.Tile staging buffer, got {}", Ty(t)));
    return nullptr;
  }
  if (tile->memory_space && *tile->memory_space != MemorySpace::kVec) {
    ArgError(dc, idx, name,
             fmt::format("is in {}; TPUT/TGET stage through UB, so the staging tile must be in "
                         "pl.Mem.Vec",
                         EnumName(EnumKind::kMemorySpace, static_cast<int>(*tile->memory_space))));
    return nullptr;
  }
  if (tile->dtype != dt) {
    ArgError(dc, idx, name,
             fmt::format("has element type {} but the transfer moves {}", DTypeStr(tile->dtype),
                         DTypeStr(dt)));
    return nullptr;
  }
  if (tile->rank() != 2) {
    ArgError(dc, idx, name,
             fmt::format("has shape {}; a staging tile is 2-D [rows, cols] over the flattened "
                         "transfer",
                         ShapeStr(tile->shape)));
    return nullptr;
  }
  auto r = StaticInt(tile->shape[0]), c = StaticInt(tile->shape[1]);
  if (!r || !c || *r <= 0 || *c <= 0) {
    ArgError(dc, idx, name,
             fmt::format("has shape {}; a staging tile needs static positive dims",
                         ShapeStr(tile->shape)));
    return nullptr;
  }
  if ((f.rows && *r > *f.rows) || (f.cols && *c > *f.cols)) {
    ArgError(dc, idx, name,
             fmt::format("has shape {}, larger than the flattened transfer [{}, {}]; a stage may "
                         "be a chunk of the transfer but never larger",
                         ShapeStr(tile->shape), f.rows ? std::to_string(*f.rows) : "?",
                         f.cols ? std::to_string(*f.cols) : "?"));
    return nullptr;
  }
  return tile;
}

// The 4/5/7/8-argument tile forms: (dst, peer, src, stage[, stage2][, region]).
static const Type* DeduceTileTransfer(DeduceContext& dc, bool is_put) {
  size_t n = dc.args.size();
  if (n == 6)
    return dc.Error(
        "takes 4, 5, 7 or 8 arguments (dst, peer, src, stage[, stage2][, dst_offsets, "
        "src_offsets, shape]), got 6; the region tuples must be given all together");
  TransferOperands layout = DecodeTransferOperands(/*tile_form=*/true, n);
  bool has_stage2 = layout.stage2 >= 0;
  TransferArgs ta;
  ta.dst_is_window = is_put;
  if (layout.region >= 0) {
    ta.dst_offsets = layout.region;
    ta.src_offsets = layout.region + 1;
    ta.shape = layout.region + 2;
  }
  std::optional<int> atomic = 0;
  if (is_put) atomic = EnumKw(dc, "atomic", EnumKind::kAtomicType, 0);
  auto tr = CheckTransfer(dc, ta);
  if (!tr || !atomic) return nullptr;
  Flat f = Flatten(tr->extent);
  const TileType* stage = CheckStage(dc, 3, "stage", tr->dst->dtype, f);
  if (!stage) return nullptr;
  if (has_stage2) {
    const TileType* s2 = CheckStage(dc, 4, "stage2", tr->dst->dtype, f);
    if (!s2) return nullptr;
    if (!DimEqual(s2->shape[0], stage->shape[0]) || !DimEqual(s2->shape[1], stage->shape[1]))
      return ArgError(dc, 4, "stage2",
                      fmt::format("has shape {} but 'stage' has {}; ping/pong stages must have "
                                  "the same shape",
                                  ShapeStr(s2->shape), ShapeStr(stage->shape)));
  }
  if (*atomic == static_cast<int>(AtomicType::kAdd) &&
      !CheckAtomicAddDtype(dc, 0, {}, tr->dst->dtype))
    return nullptr;
  return dc.ctx.Unknown();
}

void RegisterPutGetOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kPldTensorPut)
      .TileTwin(ops::kPldTilePut)
      .Doc(
          "Writes local `src` into the peer's slice of window-bound `dst` (TPUT), the full slice "
          "or the region dst_offsets/src_offsets/shape; chunk_rows/chunk_cols shrink the VEC "
          "staging tile, pipeline=True double-buffers it.")
      .Category("DistributedOp")
      .Arg("dst", "window-bound DistributedTensor (peer side)")
      .Arg("peer", "destination rank (integer scalar)")
      .Arg("src", "local pl.Tensor or pld.DistributedTensor")
      .OptionalArg("dst_offsets", "region offsets in dst")
      .OptionalArg("src_offsets", "region offsets in src")
      .OptionalArg("shape", "region shape")
      .EnumKwarg("atomic", EnumKind::kAtomicType, "pld.AtomicType", 0)
      .Kwarg("chunk_rows", KwargType::kInt, "staging-tile rows (0 = full)", Attr::Int(0))
      .Kwarg("chunk_cols", KwargType::kInt, "staging-tile cols (0 = full)", Attr::Int(0))
      .Kwarg("pipeline", KwargType::kBool, "ping-pong staging (needs both chunks)",
             Attr::Bool(false))
      .Deduce([](DeduceContext& dc) { return DeduceTensorTransfer(dc, true); })
      .Affinity(CoreAffinity::kVector)
      .Effect(0, PutDstEffect());

  ops::RegisterOp(r, ops::kPldTensorGet)
      .TileTwin(ops::kPldTileGet)
      .Doc(
          "Reads the peer's slice of window-bound `src` into local `dst` (TGET), the full slice "
          "or a region; chunk_rows/chunk_cols/pipeline as for put.")
      .Category("DistributedOp")
      .Arg("dst", "local pl.Tensor or pld.DistributedTensor")
      .Arg("peer", "source rank (integer scalar)")
      .Arg("src", "window-bound DistributedTensor (peer side)")
      .OptionalArg("dst_offsets", "region offsets in dst")
      .OptionalArg("src_offsets", "region offsets in src")
      .OptionalArg("shape", "region shape")
      .Kwarg("chunk_rows", KwargType::kInt, "staging-tile rows (0 = full)", Attr::Int(0))
      .Kwarg("chunk_cols", KwargType::kInt, "staging-tile cols (0 = full)", Attr::Int(0))
      .Kwarg("pipeline", KwargType::kBool, "ping-pong staging (needs both chunks)",
             Attr::Bool(false))
      .Deduce([](DeduceContext& dc) { return DeduceTensorTransfer(dc, false); })
      .Affinity(CoreAffinity::kVector)
      .Effect(0, ArgEffect::kWrite);

  ops::RegisterOp(r, ops::kPldTilePut)
      .Doc(
          "Internal form of pld.tensor.put with explicit Vec staging tile(s): (dst, peer, src, "
          "stage[, stage2][, dst_offsets, src_offsets, shape]).")
      .Category("DistributedOp")
      .Arg("dst", "window-bound DistributedTensor (peer side)")
      .Arg("peer", "destination rank (integer scalar)")
      .Arg("src", "local pl.Tensor or pld.DistributedTensor")
      .Arg("stage", "Vec staging tile (ping)")
      .OptionalArg("stage2", "Vec staging tile (pong), same shape as stage")
      .OptionalArg("dst_offsets", "region offsets in dst")
      .OptionalArg("src_offsets", "region offsets in src")
      .OptionalArg("shape", "region shape")
      .EnumKwarg("atomic", EnumKind::kAtomicType, "pld.AtomicType", 0)
      .Deduce([](DeduceContext& dc) { return DeduceTileTransfer(dc, true); })
      .Affinity(CoreAffinity::kVector)
      .Effect(0, PutDstEffect())
      .Effect(3, ArgEffect::kReadWrite);

  ops::RegisterOp(r, ops::kPldTileGet)
      .Doc(
          "Internal form of pld.tensor.get with explicit Vec staging tile(s): (dst, peer, src, "
          "stage[, stage2][, dst_offsets, src_offsets, shape]).")
      .Category("DistributedOp")
      .Arg("dst", "local pl.Tensor or pld.DistributedTensor")
      .Arg("peer", "source rank (integer scalar)")
      .Arg("src", "window-bound DistributedTensor (peer side)")
      .Arg("stage", "Vec staging tile (ping)")
      .OptionalArg("stage2", "Vec staging tile (pong), same shape as stage")
      .OptionalArg("dst_offsets", "region offsets in dst")
      .OptionalArg("src_offsets", "region offsets in src")
      .OptionalArg("shape", "region shape")
      .Deduce([](DeduceContext& dc) { return DeduceTileTransfer(dc, false); })
      .Affinity(CoreAffinity::kVector)
      .Effect(0, ArgEffect::kWrite)
      .Effect(3, ArgEffect::kReadWrite);
}

}  // namespace pypto::ir
