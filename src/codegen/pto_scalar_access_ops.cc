// PTO emission of single-element access: tensor.read / tensor.write (scalar GM
// load/store through the parameter pointer at the flattened element offset) and
// tile.read / tile.write (pto.tgetval / pto.tsetval at the flattened tile index).
// These carry the runtime counts and indices the distributed lowerings read
// (e.g. all_to_all_v's send_counts[dest]).
#include <fmt/format.h>

#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/op_utils.h"

namespace pypto::codegen {

using namespace pypto::ir;

namespace {

// sum(idx[i] * stride[i]) as an index value; constant-folded when possible.
std::string FlatOffset(PtoFunctionEmitter& fe, const std::vector<std::string>& idx,
                       const std::vector<std::string>& strides) {
  std::string acc;
  for (size_t i = 0; i < idx.size(); ++i) {
    std::string term;
    if (strides[i] == fe.ConstIndex(1)) {
      term = idx[i];
    } else {
      term = fe.Temp();
      fe.Op(fmt::format("{} = arith.muli {}, {} : index", term, idx[i], strides[i]));
    }
    if (acc.empty()) {
      acc = term;
    } else {
      std::string n = fe.Temp();
      fe.Op(fmt::format("{} = arith.addi {}, {} : index", n, acc, term));
      acc = n;
    }
  }
  return acc.empty() ? fe.ConstIndex(0) : acc;
}

std::string TensorOffset(PtoFunctionEmitter& fe, const PtoTensor& t, const Call* c) {
  const MakeTuple* idx = AsTuple(c->args[1]);
  if (!idx || idx->elements.size() != t.strides.size()) {
    fe.Error(c->span, fmt::format("{}: indices must be a tuple of {} indices",
                                  PtoFunctionEmitter::OpName(c), t.strides.size()));
    return {};
  }
  auto list = fe.IndexList(c->args[1], c->span);
  if (!list) return {};
  return FlatOffset(fe, *list, t.strides);
}

bool TensorRead(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  std::string off = TensorOffset(fe, *t, c);
  if (off.empty()) return false;
  std::string ty = PtoFunctionEmitter::MlirScalarType(t->type->dtype);
  std::string v = fe.Temp();
  fe.Op(fmt::format("{} = pto.load_scalar {}[{}] : {} -> {}", v, t->ptr, off, t->ptr_type, ty));
  if (result) {
    PtoBinding b;
    b.kind = PtoBinding::Kind::kScalar;
    b.value = {v, ty};
    fe.Bind(result, b);
  }
  return true;
}

bool TensorWrite(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoTensor* t = fe.TensorArg(c, 0);
  if (!t) return false;
  std::string off = TensorOffset(fe, *t, c);
  if (off.empty()) return false;
  std::string ty = PtoFunctionEmitter::MlirScalarType(t->type->dtype);
  PtoValue v = fe.CastTo(fe.Value(c->args[2]), ty);
  if (!v.ok()) return false;
  fe.Op(fmt::format("pto.store_scalar {}, {}[{}] : {}, {}", v.name, t->ptr, off, t->ptr_type, ty));
  if (result) {
    PtoBinding b;
    b.kind = PtoBinding::Kind::kTensor;
    b.tensor = t;
    fe.Bind(result, b);
  }
  return true;
}

// Row-major flattened index into a tile (physical extents).
std::string TileIndex(PtoFunctionEmitter& fe, const Call* c) {
  const TileType* tt = Cast<TileType>(c->args[0]->type);
  auto list = fe.IndexList(c->args[1], c->span);
  if (!list) return {};
  std::vector<std::string> strides(tt->shape.size());
  int64_t acc = 1;
  for (size_t i = tt->shape.size(); i-- > 0;) {
    strides[i] = fe.ConstIndex(acc);
    auto d = StaticInt(tt->shape[i]);
    if (!d) {
      fe.Error(c->span,
               fmt::format("{}: tile has a dynamic physical shape", PtoFunctionEmitter::OpName(c)));
      return {};
    }
    acc *= *d;
  }
  if (list->size() != strides.size()) {
    fe.Error(c->span,
             fmt::format("{}: expected {} indices", PtoFunctionEmitter::OpName(c), strides.size()));
    return {};
  }
  return FlatOffset(fe, *list, strides);
}

bool TileRead(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* tile = fe.TileArg(c, 0);
  if (!tile) return false;
  std::string i = TileIndex(fe, c);
  if (i.empty()) return false;
  std::string ty = PtoFunctionEmitter::MlirScalarType(Cast<TileType>(c->args[0]->type)->dtype);
  std::string v = fe.Temp();
  fe.Op(fmt::format("{} = pto.tgetval ins({}, {} : {}, index) outs : {}", v, tile->value.name, i,
                    tile->value.type, ty));
  if (result) {
    PtoBinding b;
    b.kind = PtoBinding::Kind::kScalar;
    b.value = {v, ty};
    fe.Bind(result, b);
  }
  return true;
}

bool TileWrite(PtoFunctionEmitter& fe, const Call* c, const Var* result) {
  const PtoBinding* tile = fe.TileArg(c, 0);
  if (!tile) return false;
  PtoBinding b = *tile;
  std::string i = TileIndex(fe, c);
  if (i.empty()) return false;
  std::string ty = PtoFunctionEmitter::MlirScalarType(Cast<TileType>(c->args[0]->type)->dtype);
  PtoValue v = fe.CastTo(fe.Value(c->args[2]), ty);
  if (!v.ok()) return false;
  fe.Op(fmt::format("pto.tsetval ins({}, {} : index, {}) outs({} : {})", i, v.name, ty,
                    b.value.name, b.value.type));
  if (result) fe.Bind(result, b);
  return true;
}

}  // namespace

void RegisterPtoScalarAccessOps(PtoOpTable& t) {
  t.Emit(ops::kTensorRead, TensorRead);
  t.Emit(ops::kTensorWrite, TensorWrite);
  t.Emit(ops::kTileRead, TileRead);
  t.Emit(ops::kTileWrite, TileWrite);
}

}  // namespace pypto::codegen
