// PTO emission of the cube ops and the tile fill: tile.matmul as
// `pto.tmatmul ins(%lhs, %rhs : Tl, Tr) outs(%acc : Ta)` into a fresh Acc
// buffer, tile.matmul_acc as `pto.tmatmul.acc ins(%acc, %lhs, %rhs : ...)
// outs(%acc : Ta)` in the accumulator's own buffer (its result aliases it), and
// tile.full as `pto.texpands ins(%value : elem) outs(%t : T)`. The operands'
// fractal layouts are the cube spaces' fixed ones (CubeSpaceView).
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/ops.h"

namespace pypto::codegen {

using namespace pypto::ir;

namespace {

// Transposed operands need transposing layouts on the way into Left / Right,
// which the emitter does not produce yet.
bool RejectTranspose(PtoFunctionEmitter& fe, const Call* c) {
  for (const char* k : {"a_trans", "b_trans"})
    if (const Attr* a = FindAttr(c->kwargs, k); a && a->kind == Attr::Kind::kBool && a->b)
      return fe.Error(c->span, fmt::format("{}: {}=True is not supported by the PTO backend yet; "
                                           "pass the operand untransposed",
                                           PtoFunctionEmitter::OpName(c), k));
  return true;
}

bool TileMatmul(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  if (!RejectTranspose(fe, c)) return false;
  const PtoBinding* a = fe.TileArg(c, 0);
  const PtoBinding* b = fe.TileArg(c, 1);
  if (!a || !b) return false;
  const PtoBinding* r = fe.AllocTile(result, c);
  if (!r) return false;
  fe.Op(fmt::format("pto.tmatmul ins({}, {} : {}, {}) outs({} : {})", a->value.name, b->value.name,
                    a->value.type, b->value.type, r->value.name, r->value.type));
  return true;
}

bool TileMatmulAcc(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  if (!RejectTranspose(fe, c)) return false;
  const PtoBinding* acc = fe.TileArg(c, 0);
  const PtoBinding* a = fe.TileArg(c, 1);
  const PtoBinding* b = fe.TileArg(c, 2);
  if (!acc || !a || !b) return false;
  fe.Op(fmt::format("pto.tmatmul.acc ins({}, {}, {} : {}, {}, {}) outs({} : {})", acc->value.name,
                    a->value.name, b->value.name, acc->value.type, a->value.type, b->value.type,
                    acc->value.name, acc->value.type));
  if (result) fe.Bind(result, *acc);
  return true;
}

bool TileFull(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const TileType* tt = Cast<TileType>(c->type);
  double v = 0;
  if (const Attr* k = FindAttr(c->kwargs, "value"))
    v = k->kind == Attr::Kind::kFloat ? k->f : static_cast<double>(k->i);
  const PtoBinding* r = fe.AllocTile(result, c);
  if (!r) return false;
  std::string elem = PtoFunctionEmitter::MlirScalarType(tt->dtype);
  std::string s =
      IsFloat(tt->dtype) ? fe.ConstFloat(v, elem) : fe.Const(static_cast<int64_t>(v), elem);
  fe.Op(fmt::format("pto.texpands ins({} : {}) outs({} : {})", s, elem, r->value.name,
                    r->value.type));
  return true;
}

}  // namespace

void RegisterPtoCubeOps(PtoOpTable& t) {
  t.Emit(ops::kTileMatmul, TileMatmul);
  t.Emit(ops::kTileMatmulAcc, TileMatmulAcc);
  t.Emit(ops::kTileFull, TileFull);
}

}  // namespace pypto::codegen
