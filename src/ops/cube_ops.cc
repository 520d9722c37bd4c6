// The cube (AIC) ops and the tile fill: tile.matmul (lhs @ rhs into a fresh
// accumulator), tile.matmul_acc (acc + lhs @ rhs, in the accumulator's buffer)
// and tile.full (a tile of one value). Registered by RegisterCubeOps.
//
// Memory: matmul reads its lhs from pl.Mem.Left and its rhs from pl.Mem.Right
// and writes pl.Mem.Acc, as the cube unit does; tiles reach Left/Right through
// tile.move from pl.Mem.Mat. Dtypes: FP16, BF16 and FP32 operands accumulate in
// FP32, INT8 in INT32 (the result dtype; out_dtype may only restate it).
// a_trans / b_trans take the operand transposed ([K, M] / [N, K]).
#include <fmt/format.h>

#include "deduce_checks.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_utils.h"
#include "register_op.h"
#include "tile_ops_internal.h"

namespace pypto::ir {

namespace {

std::string DT(DataType t) { return fmt::format("pl.{}", DTypeName(t)); }

// The accumulator dtype of matmul operands of dtype `in`, or nullopt.
std::optional<DataType> AccumulatorDType(DataType in) {
  switch (in) {
    case DataType::kFP16:
    case DataType::kBF16:
    case DataType::kFP32:
      return DataType::kFP32;
    case DataType::kInt8:
      return DataType::kInt32;
    default:
      return std::nullopt;
  }
}

const TileType* Operand2D(DeduceContext& dc, int i, MemorySpace need, const char* space) {
  const TileType* t = ExpectTile(dc, i);
  if (!t) return nullptr;
  if (t->rank() != 2)
    return static_cast<const TileType*>(
        dc.ErrorAt(i, fmt::format("must be a 2-D tile, got rank {}", t->rank())));
  MemorySpace m = t->memory_space.value_or(MemorySpace::kVec);
  if (m != need)
    return static_cast<const TileType*>(dc.ErrorAt(
        i, fmt::format("must be in {} (the cube unit reads it there), got {}; move it there with "
                       "pl.move(t, target_memory={})",
                       space, MemStr(m), space)));
  return t;
}

// lhs (argument l) @ rhs (argument l + 1): the [M, N] shape and accumulator
// dtype, after checking spaces, dtypes and the shared K.
std::optional<std::pair<Shape, DataType>> MatmulShape(DeduceContext& dc, int l) {
  const TileType* a = Operand2D(dc, l, MemorySpace::kLeft, "pl.Mem.Left");
  if (!a) return std::nullopt;
  const TileType* b = Operand2D(dc, l + 1, MemorySpace::kRight, "pl.Mem.Right");
  if (!b) return std::nullopt;
  if (a->dtype != b->dtype) {
    dc.ErrorAt(l + 1, fmt::format("has dtype {} but the lhs has {}; matmul operands share one "
                                  "dtype",
                                  DT(b->dtype), DT(a->dtype)));
    return std::nullopt;
  }
  auto acc = AccumulatorDType(a->dtype);
  if (!acc) {
    dc.ErrorAt(
        l, fmt::format("has dtype {}; matmul takes pl.FP16, pl.BF16, pl.FP32 or pl.INT8 operands",
                       DT(a->dtype)));
    return std::nullopt;
  }
  bool at = dc.BoolKwarg("a_trans", false), bt = dc.BoolKwarg("b_trans", false);
  const Expr* m = a->shape[at ? 1 : 0];
  const Expr* ka = a->shape[at ? 0 : 1];
  const Expr* kb = b->shape[bt ? 1 : 0];
  const Expr* n = b->shape[bt ? 0 : 1];
  auto x = StaticInt(ka), y = StaticInt(kb);
  if (x && y && *x != *y) {
    dc.ErrorAt(l + 1, fmt::format("has K = {} but the lhs has K = {} (lhs {}{}, rhs {}{})", *y, *x,
                                  ShapeStr(a->shape), at ? " transposed" : "", ShapeStr(b->shape),
                                  bt ? " transposed" : ""));
    return std::nullopt;
  }
  if (const Attr* o = dc.Kwarg("out_dtype"); o && o->dtype != *acc) {
    dc.KwargError("out_dtype", fmt::format("is {}, but {} operands accumulate in {}", DT(o->dtype),
                                           DT(a->dtype), DT(*acc)));
    return std::nullopt;
  }
  return std::make_pair(Shape{m, n}, *acc);
}

const Type* DeduceMatmul(DeduceContext& dc) {
  auto r = MatmulShape(dc, 0);
  if (!r) return nullptr;
  return MakeTileType(dc.ctx, r->first, r->second, MemorySpace::kAcc);
}

const Type* DeduceMatmulAcc(DeduceContext& dc) {
  const TileType* acc = Operand2D(dc, 0, MemorySpace::kAcc, "pl.Mem.Acc");
  if (!acc) return nullptr;
  auto r = MatmulShape(dc, 1);
  if (!r) return nullptr;
  if (acc->dtype != r->second)
    return dc.ErrorAt(0, fmt::format("has dtype {} but the product accumulates in {}",
                                     DT(acc->dtype), DT(r->second)));
  if (!ExpectShapeCompatible(dc, 0, acc->shape, r->first, "the product's")) return nullptr;
  return acc;
}

const Type* DeduceFull(DeduceContext& dc) {
  if (const Attr* a = dc.Kwarg("target_memory"); a && a->i != static_cast<int>(MemorySpace::kVec))
    return dc.KwargError("target_memory",
                         fmt::format("is {}; tile.full fills a pl.Mem.Vec tile (the vector unit "
                                     "writes it); fill in Vec and move it",
                                     MemStr(static_cast<MemorySpace>(a->i))));
  const auto* t = As<TileType>(DeduceCreate(dc));
  if (!t) return nullptr;
  return MakeTileType(dc.ctx, t->shape, t->dtype, MemorySpace::kVec);
}

}  // namespace

void RegisterCubeOps(OpRegistry& r) {
  ops::RegisterOp(r, ops::kTileMatmul)
      .Doc("lhs @ rhs into a fresh accumulator tile (pl.Mem.Acc) of the accumulator dtype.")
      .Category("TileOp")
      .Arg("lhs", "2-D pl.Tile in pl.Mem.Left, [M, K] ([K, M] with a_trans)")
      .Arg("rhs", "2-D pl.Tile in pl.Mem.Right, [K, N] ([N, K] with b_trans)")
      .Kwarg("out_dtype", KwargType::kDType, "the accumulator dtype (FP32; INT32 for INT8)")
      .Kwarg("a_trans", KwargType::kBool, "lhs is given transposed", Attr::Bool(false))
      .Kwarg("b_trans", KwargType::kBool, "rhs is given transposed", Attr::Bool(false))
      .Affinity(CoreAffinity::kCube)
      .NoArgWrites()
      .InputMemory(0, {MemorySpace::kLeft})
      .InputMemory(1, {MemorySpace::kRight})
      .OutputMemory(MemorySpace::kAcc)
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceMatmul);

  ops::RegisterOp(r, ops::kTileMatmulAcc)
      .Doc("acc + lhs @ rhs, accumulated in the accumulator's buffer.")
      .Category("TileOp")
      .Arg("acc", "2-D pl.Tile in pl.Mem.Acc, [M, N] (read and written)")
      .Arg("lhs", "2-D pl.Tile in pl.Mem.Left, [M, K] ([K, M] with a_trans)")
      .Arg("rhs", "2-D pl.Tile in pl.Mem.Right, [K, N] ([N, K] with b_trans)")
      .Kwarg("a_trans", KwargType::kBool, "lhs is given transposed", Attr::Bool(false))
      .Kwarg("b_trans", KwargType::kBool, "rhs is given transposed", Attr::Bool(false))
      .Affinity(CoreAffinity::kCube)
      .Effect(0, ArgEffect::kReadWrite)
      .InputMemory(0, {MemorySpace::kAcc})
      .InputMemory(1, {MemorySpace::kLeft})
      .InputMemory(2, {MemorySpace::kRight})
      .OutputMemory(MemorySpace::kAcc)
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceMatmulAcc);

  ops::RegisterOp(r, ops::kTileFull)
      .Doc("A pl.Mem.Vec tile of the given shape and dtype with every element `value`.")
      .Category("TileOp")
      .Arg("shape", "tuple of positive dims")
      .RequiredKwarg("dtype", KwargType::kDType, "element dtype")
      .Kwarg("value", KwargType::kFloat, "the fill value (rounded to dtype)", Attr::Float(0))
      .EnumKwarg("target_memory", EnumKind::kMemorySpace, "pl.Mem.Vec (the only space allowed)")
      .Affinity(CoreAffinity::kVector)
      .NoArgWrites()
      .OutputMemory(MemorySpace::kVec)
      .Placement(OpPlacement::kKernelOnly)
      .Deduce(DeduceFull);
}

}  // namespace pypto::ir
