// Core ops (pl.tensor.*, pl.tile.*, pl.system.*): for each op an accepted call
// with its exact result type, and each rejection rule with its exact diagnostic.
// Calls are built through MakeOpCall, exactly as the parser and passes do.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "pypto/ir/casting.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ops/affinity.h"
#include "pypto/ops/move_paths.h"
#include "pypto/ops/subscript_slice.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

struct Fx {
  Context ctx;
  DiagnosticEngine diag;

  Shape Sh(std::initializer_list<int64_t> dims) {
    Shape s;
    for (int64_t d : dims) s.push_back(ctx.Int(d));
    return s;
  }
  const Expr* Tensor(Shape s, DataType dt = DataType::kFP32) {
    return ctx.NewVar("t", MakeTensorType(ctx, std::move(s), dt));
  }
  const Expr* Dist(Shape s, DataType dt = DataType::kFP32) {
    return ctx.NewVar("d", ctx.Make<DistributedTensorType>(std::move(s), dt, std::nullopt, "buf"));
  }
  const Expr* Tile(Shape s, DataType dt = DataType::kFP32,
                   std::optional<MemorySpace> m = MemorySpace::kVec, Shape valid = {}) {
    return ctx.NewVar("x", MakeTileType(ctx, std::move(s), dt, m, std::move(valid)));
  }
  const Expr* Idx(std::initializer_list<int64_t> v) { return MakeIndexTuple(ctx, v); }
  const Expr* Tup(std::vector<const Expr*> v) { return MakeTupleOf(ctx, std::move(v)); }
  const Expr* SVar(const char* n, DataType dt = DataType::kIndex) {
    return ctx.NewVar(n, ctx.Scalar(dt));
  }
  const Call* Op(const std::string& name, std::vector<const Expr*> args, AttrList kw = {}) {
    diag.Clear();
    const OpDef* op = OpRegistry::Global().Find(name);
    REQUIRE(op != nullptr);
    return MakeOpCall(ctx, *op, std::move(args), std::move(kw), {}, {}, diag);
  }
  // The one diagnostic produced by the last Op() (exactly one is expected).
  std::string Err() {
    std::string out;
    for (const auto& d : diag.diagnostics()) out += (out.empty() ? "" : "\n") + d.message;
    return out;
  }
};

AttrList Kw(std::string k, Attr v) { return {{std::move(k), std::move(v)}}; }
Attr Mem(MemorySpace m) { return Attr::Int(static_cast<int>(m)); }

const TileType* TileOf(const Call* c) { return c ? As<TileType>(c->type) : nullptr; }
const TensorType* TensorOf(const Call* c) { return c ? AsTensorTypeLike(c->type) : nullptr; }
std::string Valid(const Type* t) { return ShapeStr(ValidShapeOf(t)); }

}  // namespace

// ---------------------------------------------------------------- tensor.*

TEST_CASE("tensor.create", "[ops][tensor]") {
  Fx f;
  const Call* c =
      f.Op("tensor.create", {f.Idx({16, 64})}, Kw("dtype", Attr::DType(DataType::kFP16)));
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tensor[[16, 64], pl.FP16]");
  CHECK_FALSE(TensorOf(c)->view.has_value());
  c = f.Op("tensor.create", {f.Idx({16, 64})},
           {{"dtype", Attr::DType(DataType::kFP16)}, {"layout", Attr::Int(1)}});
  REQUIRE(c);
  CHECK(TensorOf(c)->view->layout == TensorLayout::kDN);

  CHECK(!f.Op("tensor.create", {f.Idx({16, 0})}, Kw("dtype", Attr::DType(DataType::kFP16))));
  CHECK(f.Err() == "tensor.create: argument 'shape' dim 1 must be positive, got 0");
  CHECK(!f.Op("tensor.create", {f.Tup({})}, Kw("dtype", Attr::DType(DataType::kFP16))));
  CHECK(f.Err() == "tensor.create: argument 'shape' must have at least one dimension");
  CHECK(!f.Op("tensor.create", {f.SVar("n")}, Kw("dtype", Attr::DType(DataType::kFP16))));
  CHECK(f.Err() ==
        "tensor.create: argument 'shape' must be a tuple of index expressions "
        "([a, b, ...]), got pl.Scalar[pl.INDEX]");
  CHECK(!f.Op("tensor.create", {f.Idx({4})}, Kw("dtype", Attr::DType(DataType::kIndex))));
  CHECK(f.Err() == "tensor.create: keyword 'dtype' pl.INDEX is not a storage dtype; use pl.INT64");
  CHECK(!f.Op("tensor.create", {f.Idx({4})}));
  CHECK(f.Err() == "tensor.create: missing required keyword argument 'dtype'");
}

TEST_CASE("tensor.view", "[ops][tensor]") {
  Fx f;
  const Expr* t = f.Tensor(f.Sh({16, 64}));
  const Call* c = f.Op("tensor.view", {t, f.Idx({1, 1024})});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tensor[[1, 1024], pl.FP32]");
  CHECK_FALSE(TensorOf(c)->view.has_value());
  c = f.Op("tensor.view", {t, f.Idx({1, 1024}), f.Idx({1, 100})},
           Kw("layout", Attr::Int(static_cast<int>(TensorLayout::kDN))));
  REQUIRE(c);
  CHECK(Valid(c->type) == "[1, 100]");
  CHECK(TensorOf(c)->view->layout == TensorLayout::kDN);
  // Only input: same shape; a distributed input stays distributed (same window).
  const Expr* d = f.Dist(f.Sh({4, 8}));
  c = f.Op("tensor.view", {d});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pld.DistributedTensor[[4, 8], pl.FP32]");
  CHECK(As<DistributedTensorType>(c->type)->window_buffer == "buf");

  CHECK(!f.Op("tensor.view", {t, f.Idx({8, 64})}));
  CHECK(f.Err() ==
        "tensor.view: argument 'shape' shape [8, 64] has 512 elements but 'input' "
        "[16, 64] has 1024; a view must keep the element count");
  CHECK(!f.Op("tensor.view", {t, f.Idx({16, 64}), f.Idx({17, 1})}));
  CHECK(f.Err() == "tensor.view: argument 'valid_shape' dim 0 is 17, outside [0, 16]");
  CHECK(!f.Op("tensor.view", {t, f.Idx({16, 64}), f.Idx({1})}));
  CHECK(f.Err() ==
        "tensor.view: argument 'valid_shape' must have 2 elements (one per dimension "
        "of 'shape'), got 1");
  CHECK(!f.Op("tensor.view", {f.Tile(f.Sh({16, 64}))}));
  CHECK(f.Err() ==
        "tensor.view: argument 'input' must be a pl.Tensor or pld.DistributedTensor, "
        "got pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]");
}

TEST_CASE("tensor.read / tensor.write", "[ops][tensor]") {
  Fx f;
  const Expr* t = f.Tensor(f.Sh({4, 8}), DataType::kInt32);
  const Call* c = f.Op("tensor.read", {t, f.Tup({f.SVar("i"), f.ctx.Int(7)})});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Scalar[pl.INT32]");
  CHECK(!f.Op("tensor.read", {t, f.Idx({0, 8})}));
  CHECK(f.Err() ==
        "tensor.read: argument 'indices' region exceeds 'tensor' in dim 1: "
        "offset 8 + extent 1 > 8");
  CHECK(!f.Op("tensor.read", {t, f.Idx({-1, 0})}));
  CHECK(f.Err() == "tensor.read: argument 'indices' offset -1 in dim 0 is negative");
  CHECK(!f.Op("tensor.read", {t, f.Idx({0})}));
  CHECK(f.Err() ==
        "tensor.read: argument 'indices' must have 2 elements (one per dimension of "
        "'tensor'), got 1");
  CHECK(!f.Op("tensor.read", {t, f.Tup({f.ctx.Float(1.0)})}));
  CHECK(f.Err() ==
        "tensor.read: argument 'indices' must have 2 elements (one per dimension of "
        "'tensor'), got 1");
  CHECK(!f.Op("tensor.read", {t, f.Tup({f.ctx.Int(0), f.ctx.Float(1.0)})}));
  CHECK(f.Err() ==
        "tensor.read: argument 'indices' element 1 must be an integer scalar, got "
        "pl.Scalar[pl.FP32]");

  c = f.Op("tensor.write", {t, f.Idx({0, 0}), f.ctx.Int(5, DataType::kInt32)});
  REQUIRE(c);
  CHECK(c->type == t->type);
  CHECK(c->op->EffectOf(0, {}) == ArgEffect::kWrite);
  CHECK(f.Op("tensor.write", {t, f.Idx({0, 0}), f.ctx.Int(5)}));  // literal converts
  CHECK(!f.Op("tensor.write", {t, f.Idx({0, 0}), f.SVar("v", DataType::kInt64)}));
  CHECK(f.Err() ==
        "tensor.write: argument 'value' must be a pl.Scalar[pl.INT32] (the tensor's "
        "dtype), got pl.Scalar[pl.INT64]");
  CHECK(!f.Op("tensor.write", {t, f.Idx({0, 0}), f.ctx.Float(1.5)}));
  CHECK(f.Err() ==
        "tensor.write: argument 'value' must be a pl.Scalar[pl.INT32] (the tensor's "
        "dtype), got pl.Scalar[pl.FP32]");
  CHECK(!f.Op("tensor.write", {t, f.Idx({0, 0}), t}));
  CHECK(f.Err() ==
        "tensor.write: argument 'value' must be a scalar, got pl.Tensor[[4, 8], pl.INT32]");
  // A distributed tensor is written on this rank's own slice.
  CHECK(f.Op("tensor.write", {f.Dist(f.Sh({4})), f.Idx({1}), f.ctx.Float(2.0)}));
}

TEST_CASE("tensor element-wise ops", "[ops][tensor]") {
  Fx f;
  const Expr* n = f.SVar("N");
  const Expr* a = f.Tensor({n, f.ctx.Int(64)});
  const Expr* b = f.Tensor(f.Sh({16, 64}));
  for (const char* name : {"tensor.add", "tensor.sub", "tensor.mul", "tensor.div", "tensor.maximum",
                           "tensor.minimum"}) {
    INFO(name);
    const Call* c = f.Op(name, {a, b});
    REQUIRE(c);
    // The static dim wins over the symbolic one.
    CHECK(TypeStr(c->type) == "pl.Tensor[[16, 64], pl.FP32]");
    c = f.Op(name, {a, f.ctx.Float(2.0)});
    REQUIRE(c);
    CHECK(TypeStr(c->type) == "pl.Tensor[[N, 64], pl.FP32]");
  }
  // Distributed operands give a plain tensor.
  const Call* c = f.Op("tensor.add", {f.Dist(f.Sh({16, 64})), b});
  REQUIRE(c);
  CHECK(c->type->kind == NodeKind::kTensorType);
  // Valid regions intersect.
  TensorView v;
  v.valid_shape = f.Sh({10, 64});
  const Expr* pv = f.ctx.NewVar("p", MakeTensorType(f.ctx, f.Sh({16, 64}), DataType::kFP32, v));
  c = f.Op("tensor.mul", {b, pv});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[10, 64]");

  CHECK(!f.Op("tensor.add", {b, f.Tensor(f.Sh({16, 32}))}));
  CHECK(f.Err() ==
        "tensor.add: argument 'rhs' shape [16, 32] does not match 'lhs' shape "
        "[16, 64] (dim 1)");
  CHECK(!f.Op("tensor.add", {b, f.Tensor(f.Sh({16}))}));
  CHECK(f.Err() ==
        "tensor.add: argument 'rhs' shape [16] does not match 'lhs' shape [16, 64] "
        "(rank 1 vs 2)");
  CHECK(!f.Op("tensor.sub", {b, f.Tensor(f.Sh({16, 64}), DataType::kFP16)}));
  CHECK(f.Err() == "tensor.sub: argument 'rhs' dtype pl.FP16 does not match 'lhs' dtype pl.FP32");
  CHECK(!f.Op("tensor.mul", {b, f.SVar("s", DataType::kInt32)}));
  CHECK(f.Err() ==
        "tensor.mul: argument 'rhs' scalar dtype pl.Scalar[pl.INT32] does not match "
        "'lhs' dtype pl.FP32");
  CHECK(!f.Op("tensor.div", {f.ctx.Float(1.0), b}));
  CHECK(f.Err() ==
        "tensor.div: argument 'lhs' must be a pl.Tensor or pld.DistributedTensor, "
        "got pl.Scalar[pl.FP32]");
  CHECK(!f.Op("tensor.maximum", {b, f.Tile(f.Sh({16, 64}))}));
  CHECK(f.Err() ==
        "tensor.maximum: argument 'rhs' must be a pl.Tensor, pld.DistributedTensor or "
        "scalar, got pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]");
}

TEST_CASE("tensor.cast", "[ops][tensor]") {
  Fx f;
  const Call* c =
      f.Op("tensor.cast", {f.Dist(f.Sh({8, 8}))}, Kw("target_type", Attr::DType(DataType::kBF16)));
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tensor[[8, 8], pl.BF16]");
  CHECK(!f.Op("tensor.cast", {f.Tensor(f.Sh({8}))}));
  CHECK(f.Err() == "tensor.cast: missing required keyword argument 'target_type'");
  CHECK(!f.Op("tensor.cast", {f.Tensor(f.Sh({8}))},
              Kw("target_type", Attr::DType(DataType::kIndex))));
  CHECK(f.Err() ==
        "tensor.cast: keyword 'target_type' pl.INDEX is not a storage dtype; use pl.INT64");
}

TEST_CASE("tensor.slice", "[ops][tensor]") {
  Fx f;
  const Expr* nr = f.SVar("NR");
  const Expr* r = f.SVar("r");
  const Expr* x = f.Tensor({nr, f.ctx.Int(16), f.ctx.Int(64)});
  // x[r] drops the rank dim; the result is packed, so no view.
  const Call* c = MakeSubscriptSlice(f.ctx, x, {r}, {}, f.diag);
  REQUIRE(c);
  CHECK(c->IsOp("tensor.slice"));
  CHECK(c->args.size() == 5);
  CHECK(TypeStr(c->type) == "pl.Tensor[[16, 64], pl.FP32]");
  CHECK_FALSE(TensorOf(c)->view.has_value());
  // A sub-rectangle keeps the parent strides and a valid region.
  const Expr* t = f.Tensor(f.Sh({16, 64}));
  c = f.Op("tensor.slice", {t, f.Idx({8, 32}), f.Idx({8, 0}), f.Idx({8, 10})});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tensor[[8, 32], pl.FP32]");
  CHECK(ShapeStr(TensorOf(c)->view->stride) == "[64, 1]");
  CHECK(Valid(c->type) == "[8, 10]");
  // Distributed stays distributed.
  c = f.Op("tensor.slice",
           {f.Dist(f.Sh({4, 8})), f.Idx({1, 8}), f.Idx({2, 0}), f.Tup({}), f.Idx({0})},
           Kw("pad_value", Attr::Int(1)));
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pld.DistributedTensor[[8], pl.FP32]");
  CHECK(TensorOf(c)->view->pad == PadValue::kZero);
  // The input's valid region narrows the slice's where provable.
  TensorView pv;
  pv.valid_shape = f.Sh({10, 64});
  const Expr* part = f.ctx.NewVar("p", MakeTensorType(f.ctx, f.Sh({16, 64}), DataType::kFP32, pv));
  c = f.Op("tensor.slice", {part, f.Idx({1, 64}), f.Idx({12, 0})});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[0, 64]");
  // A dropped dim carries no valid extent.
  c = f.Op("tensor.slice", {part, f.Idx({1, 64}), f.Idx({12, 0}), f.Tup({}), f.Idx({0})});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[64]");
  c = f.Op("tensor.slice", {part, f.Idx({8, 64}), f.Idx({4, 0}), f.Idx({8, 32})});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[6, 32]");
  c = f.Op("tensor.slice", {part, f.Idx({8, 64}), f.Idx({0, 0})});
  REQUIRE(c);
  CHECK_FALSE(TensorOf(c)->view.has_value());  // fully inside the valid rows: packed, full

  CHECK(!f.Op("tensor.slice", {t, f.Idx({8, 32}), f.Idx({12, 0})}));
  CHECK(f.Err() ==
        "tensor.slice: argument 'offset' region exceeds 'input' in dim 0: offset 12 + "
        "extent 8 > 16");
  CHECK(!f.Op("tensor.slice", {t, f.Idx({8, 32}), f.Idx({0, 0}), f.Tup({}), f.Idx({0})}));
  CHECK(f.Err() ==
        "tensor.slice: argument 'drop_dims' axis 0 must have extent 1 in 'shape', got 8");
  CHECK(!f.Op("tensor.slice", {t, f.Idx({1, 1}), f.Idx({0, 0}), f.Tup({}), f.Idx({0, 1})}));
  CHECK(f.Err() ==
        "tensor.slice: argument 'drop_dims' would drop every dimension; use "
        "pl.tensor.read for one element");
  CHECK(!f.Op("tensor.slice", {t, f.Idx({1, 1}), f.Idx({0, 0}), f.Tup({}), f.Idx({1, 0})}));
  CHECK(f.Err() == "tensor.slice: argument 'drop_dims' axes must be strictly ascending");
  CHECK(!f.Op("tensor.slice", {t, f.Idx({1, 1}), f.Idx({0, 0}), f.Tup({}), f.Idx({2})}));
  CHECK(f.Err() == "tensor.slice: argument 'drop_dims' axis 2 is out of range for rank 2");
  CHECK(!f.Op("tensor.slice", {t, f.Idx({1, 1}), f.Idx({0, 0}), f.Tup({}), f.Tup({r})}));
  CHECK(f.Err() == "tensor.slice: argument 'drop_dims' must list constant axes, got r");
  CHECK(!f.Op("tensor.slice", {t, f.Idx({8, 32}), f.Idx({0, 0}), f.Idx({8})}));
  CHECK(f.Err() ==
        "tensor.slice: argument 'valid_shape' must be empty or have 2 elements (one per "
        "dimension of 'input'), got 1");
  CHECK(!f.Op("tensor.slice", {t, f.Idx({8, 32}), f.Idx({0, 0}), f.Idx({8, 33})}));
  CHECK(f.Err() == "tensor.slice: argument 'valid_shape' dim 1 is 33, outside [0, 32]");

  // Subscript misuse.
  CHECK(!MakeSubscriptSlice(f.ctx, t, {r, r}, {}, f.diag));
  CHECK(f.diag.diagnostics().back().message ==
        "subscript: 2 indices on a rank-2 tensor; a view subscript takes 1 to 1 leading indices "
        "(use pl.read for an element)");
}

// ---------------------------------------------------------------- tile.*

TEST_CASE("tile.load", "[ops][tile]") {
  Fx f;
  const Expr* t = f.Tensor(f.Sh({16, 64}));
  const Call* c = f.Op("tile.load", {t, f.Idx({0, 0}), f.Idx({16, 64})},
                       Kw("target_memory", Mem(MemorySpace::kVec)));
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]");
  CHECK_FALSE(TileOf(c)->view.has_value());
  // No target_memory: space unset.
  c = f.Op("tile.load", {t, f.Idx({0, 0}), f.Idx({16, 64})});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tile[[16, 64], pl.FP32]");
  // valid_shape narrows; a symbolic valid dim is kept as given.
  const Expr* n = f.SVar("n");
  c = f.Op("tile.load", {t, f.Idx({0, 32}), f.Idx({1, 64}), f.Tup({f.ctx.Int(1), n})});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[1, n]");
  // The tile may exceed the tensor when its valid part does not.
  c = f.Op("tile.load", {t, f.Idx({0, 32}), f.Idx({16, 64}), f.Idx({16, 32})});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[16, 32]");
  // Intersected with the tensor's own valid region.
  TensorView v;
  v.valid_shape = f.Sh({10, 64});
  const Expr* pv = f.ctx.NewVar("p", MakeTensorType(f.ctx, f.Sh({16, 64}), DataType::kFP32, v));
  c = f.Op("tile.load", {pv, f.Idx({8, 0}), f.Idx({8, 64})});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[2, 64]");
  // clamp: out-of-range extents allowed and clamped.
  c = f.Op("tile.load", {t, f.Idx({8, 0}), f.Idx({16, 64})}, Kw("clamp", Attr::Bool(true)));
  REQUIRE(c);
  CHECK(Valid(c->type) == "[8, 64]");
  // DN tensors give column-major tiles; distributed sources are accepted.
  TensorView dn;
  dn.layout = TensorLayout::kDN;
  const Expr* td = f.ctx.NewVar("q", MakeTensorType(f.ctx, f.Sh({16, 64}), DataType::kFP32, dn));
  c = f.Op("tile.load", {td, f.Idx({0, 0}), f.Idx({16, 64})});
  REQUIRE(c);
  CHECK(TileOf(c)->view->blayout == TileLayout::kColMajor);
  CHECK(f.Op("tile.load", {f.Dist(f.Sh({16, 64})), f.Idx({0, 0}), f.Idx({16, 64})}));

  CHECK(!f.Op("tile.load", {t, f.Idx({8, 0}), f.Idx({16, 64})}));
  CHECK(f.Err() ==
        "tile.load: argument 'offsets' region exceeds 'tensor' in dim 0: offset 8 + "
        "extent 16 > 16");
  CHECK(!f.Op("tile.load", {t, f.Idx({0}), f.Idx({16, 64})}));
  CHECK(f.Err() ==
        "tile.load: argument 'offsets' must have 2 elements (one per dimension of "
        "'tensor'), got 1");
  CHECK(!f.Op("tile.load", {t, f.Idx({0, 0}), f.Idx({16, 64}), f.Idx({16, 65})}));
  CHECK(f.Err() == "tile.load: argument 'valid_shape' dim 1 is 65, outside [0, 64]");
  CHECK(!f.Op("tile.load", {t, f.Idx({0, 0}), f.Idx({0, 64})}));
  CHECK(f.Err() == "tile.load: argument 'shapes' dim 0 must be positive, got 0");
  CHECK(!f.Op("tile.load", {f.Tile(f.Sh({16, 64})), f.Idx({0, 0}), f.Idx({16, 64})}));
  CHECK(f.Err() ==
        "tile.load: argument 'tensor' must be a pl.Tensor or pld.DistributedTensor, "
        "got pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]");
  CHECK(!f.Op("tile.load", {t, f.Idx({0, 0}), f.Idx({16, 64})},
              Kw("target_memory", Mem(MemorySpace::kDDR))));
  CHECK(f.Err() ==
        "tile.load: keyword 'target_memory' pl.Mem.DDR is not an on-chip memory "
        "space; use pl.Mem.Vec, pl.Mem.Mat, pl.Mem.Left, pl.Mem.Right, pl.Mem.Acc or "
        "pl.Mem.Bias");
}

TEST_CASE("tile.store", "[ops][tile]") {
  Fx f;
  const Expr* out = f.Tensor(f.Sh({16, 64}));
  const Expr* tile = f.Tile(f.Sh({16, 32}));
  const Call* c = f.Op("tile.store", {tile, f.Idx({0, 32}), out});
  REQUIRE(c);
  CHECK(c->type == out->type);
  CHECK(c->op->EffectOf(2, c->kwargs) == ArgEffect::kWrite);
  c = f.Op("tile.store", {tile, f.Idx({0, 0}), out},
           Kw("atomic", Attr::Int(static_cast<int>(AtomicType::kAdd))));
  REQUIRE(c);
  CHECK(c->op->EffectOf(2, c->kwargs) == ArgEffect::kReadWrite);
  // Acc tiles, unset tiles and distributed outputs are accepted; the result is the output's type.
  CHECK(f.Op("tile.store",
             {f.Tile(f.Sh({16, 64}), DataType::kFP32, MemorySpace::kAcc), f.Idx({0, 0}), out}));
  CHECK(f.Op("tile.store",
             {f.Tile(f.Sh({16, 64}), DataType::kFP32, std::nullopt), f.Idx({0, 0}), out}));
  const Expr* d = f.Dist(f.Sh({1, 16, 64}));
  c = f.Op("tile.store", {f.Tile(f.Sh({16, 64})), f.Idx({0, 0, 0}), d, f.Idx({1, 16, 64})});
  REQUIRE(c);
  CHECK(c->type == d->type);
  // The tile's valid region is what must fit.
  CHECK(f.Op("tile.store",
             {f.Tile(f.Sh({16, 64}), DataType::kFP32, MemorySpace::kVec, f.Sh({16, 32})),
              f.Idx({0, 32}), out}));

  CHECK(!f.Op("tile.store",
              {f.Tile(f.Sh({16, 64}), DataType::kFP32, MemorySpace::kMat), f.Idx({0, 0}), out}));
  CHECK(f.Err() ==
        "tile.store: argument 'tile' must be in pl.Mem.Vec or pl.Mem.Acc, got pl.Mem.Mat");
  CHECK(!f.Op("tile.store", {tile, f.Idx({0, 48}), out}));
  CHECK(f.Err() ==
        "tile.store: argument 'offsets' region exceeds 'output_tensor' in dim 1: "
        "offset 48 + extent 32 > 64");
  CHECK(!f.Op("tile.store", {f.Tile(f.Sh({16, 32}), DataType::kFP16), f.Idx({0, 0}), out}));
  CHECK(f.Err() ==
        "tile.store: argument 'tile' dtype pl.FP16 does not match 'output_tensor' "
        "dtype pl.FP32");
  CHECK(!f.Op("tile.store", {f.Tile(f.Sh({16, 64})), f.Idx({0, 0, 0}), d}));
  CHECK(f.Err() ==
        "tile.store: argument 'tile' has rank 2 but 'output_tensor' has rank 3; pass "
        "'shapes' to map the tile onto a tensor region");
  CHECK(!f.Op("tile.store", {f.Tile(f.Sh({16, 64})), f.Idx({0, 0, 0}), d, f.Idx({1, 16, 32})}));
  CHECK(f.Err() ==
        "tile.store: argument 'shapes' region [1, 16, 32] has 512 elements but 'tile' "
        "[16, 64] has 1024");
  CHECK(!f.Op("tile.store", {tile, f.Idx({0, 0}), tile}));
  CHECK(f.Err() ==
        "tile.store: argument 'output_tensor' must be a pl.Tensor or "
        "pld.DistributedTensor, got pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec]");
  // Atomic add dtype allow-list and the BF16 profile rule.
  const Expr* i64 = f.Tensor(f.Sh({4, 4}), DataType::kInt64);
  CHECK(!f.Op("tile.store", {f.Tile(f.Sh({4, 4}), DataType::kInt64), f.Idx({0, 0}), i64},
              Kw("atomic", Attr::Int(1))));
  CHECK(f.Err() ==
        "tile.store: keyword 'atomic' pld.AtomicType.Add requires a FP32, BF16, FP16, "
        "INT32, INT16 or INT8 output, got pl.INT64");
  const Expr* bf = f.Tensor(f.Sh({4, 4}), DataType::kBF16);
  const Expr* bft = f.Tile(f.Sh({4, 4}), DataType::kBF16);
  CHECK(f.Op("tile.store", {bft, f.Idx({0, 0}), bf}, Kw("atomic", Attr::Int(1))));
  f.ctx.target_arch = "a5";
  CHECK(!f.Op("tile.store", {bft, f.Idx({0, 0}), bf}, Kw("atomic", Attr::Int(1))));
  CHECK(f.Err() ==
        "tile.store: keyword 'atomic' pld.AtomicType.Add on BF16 is only supported on "
        "the a2a3 target (Ascend910B), not a5");
  CHECK(f.Op("tile.store", {bft, f.Idx({0, 0}), bf}));  // plain store is fine on a5
}

TEST_CASE("tile.create / set_validshape / fillpad_inplace", "[ops][tile]") {
  Fx f;
  const Call* c =
      f.Op("tile.create", {f.Idx({16, 64})},
           {{"dtype", Attr::DType(DataType::kFP16)}, {"target_memory", Mem(MemorySpace::kVec)}});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec]");
  CHECK(!f.Op("tile.create", {f.Idx({16, -1})}, Kw("dtype", Attr::DType(DataType::kFP16))));
  CHECK(f.Err() == "tile.create: argument 'shape' dim 1 must be positive, got -1");
  CHECK(
      !f.Op("tile.create", {f.Idx({16})},
            {{"dtype", Attr::DType(DataType::kFP16)}, {"target_memory", Mem(MemorySpace::kDDR)}}));
  CHECK(f.Err() ==
        "tile.create: keyword 'target_memory' pl.Mem.DDR is not an on-chip memory "
        "space; use pl.Mem.Vec, pl.Mem.Mat, pl.Mem.Left, pl.Mem.Right, pl.Mem.Acc or "
        "pl.Mem.Bias");

  const Expr* tile = f.Tile(f.Sh({16, 64}));
  const Expr* n = f.SVar("n");
  c = f.Op("tile.set_validshape", {tile, f.ctx.Int(1), n});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]");
  CHECK(Valid(c->type) == "[1, n]");
  c = f.Op("tile.set_validshape", {tile, f.ctx.Int(16), f.ctx.Int(64)});
  REQUIRE(c);
  CHECK_FALSE(TileOf(c)->view.has_value());  // full valid region = canonical no view
  CHECK(!f.Op("tile.set_validshape", {tile, f.ctx.Int(17), n}));
  CHECK(f.Err() ==
        "tile.set_validshape: argument 'valid_rows' is 17, outside [0, 16] (the tile's rows)");
  CHECK(!f.Op("tile.set_validshape", {tile, f.ctx.Int(1), f.ctx.Float(2.0)}));
  CHECK(f.Err() ==
        "tile.set_validshape: argument 'valid_cols' must be an integer scalar, got "
        "pl.Scalar[pl.FP32]");
  CHECK(!f.Op("tile.set_validshape", {f.Tile(f.Sh({2, 4, 8})), f.ctx.Int(1), f.ctx.Int(1)}));
  CHECK(f.Err() == "tile.set_validshape: argument 'tile' must be a 2-D tile, got rank 3");

  const Expr* part = f.Tile(f.Sh({16, 64}), DataType::kFP32, MemorySpace::kVec, f.Sh({16, 10}));
  c = f.Op("tile.fillpad_inplace", {part},
           Kw("pad_value", Attr::Int(static_cast<int>(PadValue::kMin))));
  REQUIRE(c);
  CHECK(Valid(c->type) == "[16, 64]");
  CHECK(TileOf(c)->view->pad == PadValue::kMin);
  CHECK(c->op->EffectOf(0, c->kwargs) == ArgEffect::kReadWrite);
  c = f.Op("tile.fillpad_inplace", {part});
  REQUIRE(c);
  CHECK(TileOf(c)->view->pad == PadValue::kZero);
  CHECK(!f.Op("tile.fillpad_inplace", {part}, Kw("pad_value", Attr::Int(0))));
  CHECK(f.Err() ==
        "tile.fillpad_inplace: keyword 'pad_value' pl.PadValue.null fills nothing; use "
        "pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min");
  CHECK(
      !f.Op("tile.fillpad_inplace", {f.Tile(f.Sh({16, 16}), DataType::kFP32, MemorySpace::kAcc)}));
  CHECK(f.Err() == "tile.fillpad_inplace: argument 'tile' must be in pl.Mem.Vec, got pl.Mem.Acc");
}

TEST_CASE("tile element-wise ops", "[ops][tile]") {
  Fx f;
  const Expr* a = f.Tile(f.Sh({16, 64}), DataType::kFP32, MemorySpace::kVec, f.Sh({16, 10}));
  const Expr* b = f.Tile(f.Sh({16, 64}), DataType::kFP32, std::nullopt, f.Sh({8, 64}));
  for (const char* name :
       {"tile.add", "tile.sub", "tile.mul", "tile.div", "tile.maximum", "tile.minimum"}) {
    INFO(name);
    const Call* c = f.Op(name, {a, b});
    REQUIRE(c);
    CHECK(TypeStr(c->type) == "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]");
    CHECK(Valid(c->type) == "[8, 10]");
  }
  // Symbolic valid dims intersect to min(...).
  const Expr* n = f.SVar("n");
  const Expr* m = f.SVar("m");
  const Expr* sa = f.Tile(f.Sh({1, 64}), DataType::kFP32, MemorySpace::kVec, {f.ctx.Int(1), n});
  const Expr* sb = f.Tile(f.Sh({1, 64}), DataType::kFP32, MemorySpace::kVec, {f.ctx.Int(1), m});
  const Call* c = f.Op("tile.add", {sa, sb});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[1, min(n, m)]");
  c = f.Op("tile.add", {sa, sa});
  REQUIRE(c);
  CHECK(Valid(c->type) == "[1, n]");

  CHECK(!f.Op("tile.add", {a, f.Tile(f.Sh({16, 32}))}));
  CHECK(f.Err() ==
        "tile.add: argument 'rhs' shape [16, 32] does not match 'lhs' shape [16, 64] (dim 1)");
  CHECK(!f.Op("tile.mul", {a, f.Tile(f.Sh({16, 64}), DataType::kFP16)}));
  CHECK(f.Err() == "tile.mul: argument 'rhs' dtype pl.FP16 does not match 'lhs' dtype pl.FP32");
  CHECK(!f.Op("tile.sub", {f.Tile(f.Sh({16, 64}), DataType::kFP32, MemorySpace::kAcc), b}));
  CHECK(f.Err() == "tile.sub: argument 'lhs' must be in pl.Mem.Vec, got pl.Mem.Acc");
  CHECK(!f.Op("tile.maximum", {a, f.ctx.Float(1.0)}));
  CHECK(f.Err() == "tile.maximum: argument 'rhs' must be a pl.Tile, got pl.Scalar[pl.FP32]");
  CHECK(!f.Op("tile.add", {a, MakeIndexTuple(f.ctx, {1, 2})}));
  CHECK(f.Err() ==
        "tile.add: argument 'rhs' must be a pl.Tile, got pl.Tuple[pl.Scalar[pl.INDEX], "
        "pl.Scalar[pl.INDEX]]");

  // tile.cast keeps shape and valid region, lands in Vec.
  c = f.Op("tile.cast", {b}, Kw("target_type", Attr::DType(DataType::kFP16)));
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec]");
  CHECK(Valid(c->type) == "[8, 64]");
  CHECK(!f.Op("tile.cast", {f.Tile(f.Sh({4, 4}), DataType::kFP32, MemorySpace::kMat)},
              Kw("target_type", Attr::DType(DataType::kFP16))));
  CHECK(f.Err() == "tile.cast: argument 'tile' must be in pl.Mem.Vec, got pl.Mem.Mat");
}

TEST_CASE("tile.move / get_subblock_idx / read / write", "[ops][tile]") {
  Fx f;
  const Expr* acc = f.Tile(f.Sh({16, 16}), DataType::kFP32, MemorySpace::kAcc, f.Sh({16, 8}));
  const Call* c = f.Op("tile.move", {acc});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]");
  CHECK(Valid(c->type) == "[16, 8]");
  CHECK(ClassifyCallAffinity(c) == CoreAffinity::kMixed);
  c = f.Op("tile.move", {acc},
           {{"target_memory", Mem(MemorySpace::kMat)},
            {"blayout", Attr::Int(static_cast<int>(TileLayout::kColMajor))}});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat]");
  CHECK(TileOf(c)->view->blayout == TileLayout::kColMajor);
  CHECK(ClassifyCallAffinity(c) == CoreAffinity::kCube);
  c = f.Op("tile.move", {f.Tile(f.Sh({4, 4}))});
  REQUIRE(c);
  CHECK(ClassifyCallAffinity(c) == CoreAffinity::kVector);
  CHECK(!f.Op("tile.move", {acc}, Kw("target_memory", Mem(MemorySpace::kDDR))));
  CHECK(f.Err() ==
        "tile.move: keyword 'target_memory' pl.Mem.DDR is not an on-chip memory "
        "space; use pl.Mem.Vec, pl.Mem.Mat, pl.Mem.Left, pl.Mem.Right, pl.Mem.Acc or "
        "pl.Mem.Bias");

  c = f.Op("tile.get_subblock_idx", {});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Scalar[pl.INDEX]");
  CHECK(ClassifyCallAffinity(c) == CoreAffinity::kVector);

  const Expr* t = f.Tile(f.Sh({4, 8}), DataType::kFP16);
  c = f.Op("tile.read", {t, f.Idx({3, 7})});
  REQUIRE(c);
  CHECK(TypeStr(c->type) == "pl.Scalar[pl.FP16]");
  CHECK(!f.Op("tile.read", {t, f.Idx({4, 0})}));
  CHECK(f.Err() ==
        "tile.read: argument 'indices' region exceeds 'tile' in dim 0: offset 4 + "
        "extent 1 > 4");
  c = f.Op("tile.write", {t, f.Idx({0, 1}), f.ctx.Float(0.5, DataType::kFP16)});
  REQUIRE(c);
  CHECK(c->type == t->type);
  CHECK(!f.Op("tile.write", {t, f.Idx({0, 1}), f.SVar("v", DataType::kFP32)}));
  CHECK(f.Err() ==
        "tile.write: argument 'value' must be a pl.Scalar[pl.FP16] (the tile's dtype), "
        "got pl.Scalar[pl.FP32]");
  CHECK(!f.Op("tile.read", {f.Tensor(f.Sh({4})), f.Idx({0})}));
  CHECK(f.Err() == "tile.read: argument 'tile' must be a pl.Tile, got pl.Tensor[[4], pl.FP32]");
}

// ---------------------------------------------------------------- system.*

TEST_CASE("system.fence / system.cacheinvalid", "[ops][system]") {
  Fx f;
  const Call* c = f.Op("system.fence", {});
  REQUIRE(c);
  CHECK(c->type->kind == NodeKind::kUnknownType);
  c = f.Op("system.cacheinvalid", {});
  REQUIRE(c);
  CHECK(c->type->kind == NodeKind::kUnknownType);
  const Expr* w = f.Dist(f.Sh({1, 128}));
  c = f.Op("system.cacheinvalid", {w, f.Idx({1, 128}), f.Idx({0, 0})});
  REQUIRE(c);
  CHECK(c->type->kind == NodeKind::kUnknownType);

  CHECK(!f.Op("system.cacheinvalid", {w}));
  CHECK(f.Err() ==
        "system.cacheinvalid: expects no arguments (whole GM) or (tensor, shapes, "
        "offsets) for one region, got 1 arguments");
  CHECK(!f.Op("system.cacheinvalid", {w, f.Idx({1, 128}), f.Idx({0, 1})}));
  CHECK(f.Err() ==
        "system.cacheinvalid: argument 'offsets' region exceeds 'tensor' in dim 1: "
        "offset 1 + extent 128 > 128");
  CHECK(!f.Op("system.cacheinvalid", {w, f.Idx({128}), f.Idx({0, 0})}));
  CHECK(f.Err() ==
        "system.cacheinvalid: argument 'shapes' must have 2 elements (one per "
        "dimension of 'tensor'), got 1");
  CHECK(!f.Op("system.fence", {w}));
  CHECK(f.Err() == "system.fence: expected 0 positional arguments (), got 1");
}

// ---------------------------------------------------------------- op_utils helpers

TEST_CASE("op_utils: dims, shapes, spellings", "[ops][utils]") {
  Fx f;
  const Expr* n = f.SVar("N");
  const Expr* m = f.SVar("M");
  auto* np1 =
      f.ctx.Make<BinaryExpr>(BinaryOp::kAdd, n, f.ctx.Int(1), f.ctx.Scalar(DataType::kIndex));
  auto* np1b =
      f.ctx.Make<BinaryExpr>(BinaryOp::kAdd, n, f.ctx.Int(1), f.ctx.Scalar(DataType::kIndex));
  CHECK(StaticInt(f.ctx.Int(7, DataType::kInt32)) == 7);
  CHECK_FALSE(StaticInt(n).has_value());
  CHECK(DimEqual(f.ctx.Int(4), f.ctx.Int(4)));
  CHECK(DimEqual(n, n));
  CHECK_FALSE(DimEqual(n, m));
  CHECK(DimEqual(np1, np1b));
  CHECK_FALSE(DimEqual(n, f.ctx.Int(4)));
  CHECK(DimConflict(f.ctx.Int(4), f.ctx.Int(5)));
  CHECK_FALSE(DimConflict(n, f.ctx.Int(5)));
  CHECK(ShapesCompatible({n, f.ctx.Int(4)}, f.Sh({16, 4})));
  CHECK_FALSE(SameShape({n, f.ctx.Int(4)}, f.Sh({16, 4})));
  CHECK(FirstShapeConflict(f.Sh({1, 2, 3}), f.Sh({1, 2})) == size_t{2});
  CHECK(FirstShapeConflict(f.Sh({1, 5}), f.Sh({1, 2})) == size_t{1});
  CHECK(StaticNumel(f.Sh({16, 64})) == 1024);
  CHECK_FALSE(StaticNumel({n, f.ctx.Int(2)}).has_value());
  auto* mn = f.ctx.Make<BinaryExpr>(BinaryOp::kMin, n, m, f.ctx.Scalar(DataType::kIndex));
  auto* nested =
      f.ctx.Make<BinaryExpr>(BinaryOp::kMul, np1, f.ctx.Int(2), f.ctx.Scalar(DataType::kIndex));
  CHECK(ShapeStr({n, np1, mn, nested, f.ctx.Int(3)}) == "[N, N + 1, min(N, M), (N + 1) * 2, 3]");
  CHECK(TypeStr(f.ctx.Ptr()) == "pl.Ptr");
  CHECK(TypeStr(f.ctx.Unknown()) == "pl.UnknownType");
  CHECK(TypeStr(f.ctx.Make<TupleType>(std::vector<const Type*>{})) == "pl.Tuple[()]");
  CHECK(MemStr(MemorySpace::kAcc) == "pl.Mem.Acc");
  CHECK(DTypeStr(DataType::kBF16) == "pl.BF16");

  CHECK(ScalarAssignable(f.SVar("a", DataType::kFP16), DataType::kFP16));
  CHECK_FALSE(ScalarAssignable(f.SVar("a", DataType::kFP32), DataType::kFP16));
  CHECK(ScalarAssignable(f.ctx.Int(3), DataType::kFP16));
  CHECK(ScalarAssignable(f.ctx.Int(3), DataType::kInt8));
  CHECK_FALSE(ScalarAssignable(f.ctx.Int(3), DataType::kBool));
  CHECK(ScalarAssignable(f.ctx.Float(1.0), DataType::kBF16));
  CHECK_FALSE(ScalarAssignable(f.ctx.Float(1.0), DataType::kInt32));

  CHECK(ShapeStr(PackedStrides(f.ctx, f.Sh({4, 16, 64}))) == "[1024, 64, 1]");
  CHECK(ShapeStr(PackedStrides(f.ctx, {m, n, f.ctx.Int(64)})) == "[N * 64, 64, 1]");
  CHECK(ShapeStr(PackedStrides(f.ctx, {m, f.ctx.Int(8), n})) == "[8 * N, N, 1]");

  // Valid-region intersection.
  CHECK(ShapeStr(IntersectValid(f.ctx, {f.ctx.Int(8), n}, {f.ctx.Int(4), n})) == "[4, N]");
  CHECK(ShapeStr(IntersectValid(f.ctx, {n}, {m})) == "[min(N, M)]");
  CHECK(ShapeStr(IntersectValid(f.ctx, f.Sh({64}), f.Sh({64}), {n}, f.Sh({64}))) == "[N]");
}

TEST_CASE("op_utils: canonical type builders", "[ops][utils]") {
  Fx f;
  // A view equal to the default is dropped; a non-default field keeps it.
  const TileType* t =
      MakeTileType(f.ctx, f.Sh({16, 64}), DataType::kFP32, MemorySpace::kVec, f.Sh({16, 64}));
  CHECK_FALSE(t->view.has_value());
  TileView v;
  v.blayout = TileLayout::kColMajor;
  t = MakeTileType(f.ctx, f.Sh({16, 64}), DataType::kFP32, std::nullopt, v);
  REQUIRE(t->view.has_value());
  CHECK(t->view->valid_shape.empty());
  TensorView tv;
  tv.valid_shape = f.Sh({16, 64});
  CHECK_FALSE(MakeTensorType(f.ctx, f.Sh({16, 64}), DataType::kFP32, tv)->view.has_value());
  tv.valid_shape = f.Sh({8, 64});
  CHECK(MakeTensorType(f.ctx, f.Sh({16, 64}), DataType::kFP32, tv)->view.has_value());
  // MakeTensorTypeLike keeps the distributed kind and the window binding.
  const auto* d = f.ctx.Make<DistributedTensorType>(f.Sh({4}), DataType::kFP32, std::nullopt, "w0");
  const TensorType* like =
      MakeTensorTypeLike(f.ctx, d, f.Sh({2, 2}), DataType::kFP32, std::nullopt);
  REQUIRE(As<DistributedTensorType>(static_cast<const Type*>(like)));
  CHECK(As<DistributedTensorType>(static_cast<const Type*>(like))->window_buffer == "w0");
  // Tuples.
  const MakeTuple* mt = MakeIndexTuple(f.ctx, {1, 2});
  CHECK(TypeStr(mt->type) == "pl.Tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]]");
  CHECK(AsTuple(mt) == mt);
  CHECK(AsTuple(f.ctx.Int(1)) == nullptr);
}

TEST_CASE("tile.move: exactly the on-chip data paths are legal", "[ops][tile]") {
  // ptoas (a3) accepts pto.tmov on Vec->Vec, Mat->Left|Right|Bias, Acc->Mat|Vec
  // (a5 adds Vec->Mat, the vector-to-cube hand-over the op also allows).
  using M = MemorySpace;
  const M spaces[] = {M::kVec, M::kMat, M::kLeft, M::kRight, M::kAcc, M::kBias};
  std::vector<std::string> legal;
  Fx f;
  for (M from : spaces)
    for (M to : spaces) {
      const Call* c = f.Op("tile.move", {f.Tile(f.Sh({16, 16}), DataType::kFP32, from)},
                           Kw("target_memory", Mem(to)));
      CHECK((c != nullptr) == ops::IsMovePath(from, to));
      if (c) legal.push_back(MemStr(from) + "->" + MemStr(to));
    }
  CHECK(legal == std::vector<std::string>{"pl.Mem.Vec->pl.Mem.Vec", "pl.Mem.Vec->pl.Mem.Mat",
                                          "pl.Mem.Mat->pl.Mem.Left", "pl.Mem.Mat->pl.Mem.Right",
                                          "pl.Mem.Mat->pl.Mem.Bias", "pl.Mem.Acc->pl.Mem.Vec",
                                          "pl.Mem.Acc->pl.Mem.Mat"});
  CHECK(ops::MoveSourceFor(M::kLeft) == M::kMat);
  CHECK(ops::MoveSourceFor(M::kVec) == M::kVec);
  CHECK(ops::MoveSourceFor(M::kAcc) == std::nullopt);
}

TEST_CASE("op_utils: affinity classification", "[ops][utils]") {
  Fx f;
  const Expr* vec = f.Tile(f.Sh({16, 16}));
  const Expr* mat = f.Tile(f.Sh({16, 16}), DataType::kFP32, MemorySpace::kMat);
  const Expr* left = f.Tile(f.Sh({16, 16}), DataType::kFP32, MemorySpace::kLeft);
  CHECK(
      ClassifyCallAffinity(f.Op("tile.move", {vec}, Kw("target_memory", Mem(MemorySpace::kMat)))) ==
      CoreAffinity::kMixed);
  CHECK(ClassifyCallAffinity(
            f.Op("tile.move", {mat}, Kw("target_memory", Mem(MemorySpace::kLeft)))) ==
        CoreAffinity::kCube);
  const Expr* acc0 = f.Tile(f.Sh({16, 16}), DataType::kFP32, MemorySpace::kAcc);
  CHECK(ClassifyCallAffinity(f.Op("tile.move", {acc0})) == CoreAffinity::kMixed);
  CHECK(!f.Op("tile.move", {left}));  // nothing moves out of Left
  CHECK(ClassifyCallAffinity(f.Op("tile.add", {vec, vec})) == CoreAffinity::kVector);
  CHECK(ClassifyCallAffinity(
            f.Op("tile.create", {f.Idx({4})}, Kw("dtype", Attr::DType(DataType::kFP32)))) ==
        CoreAffinity::kShared);
  // Derived from the result's memory space, then the first tile argument.
  const Expr* t = f.Tensor(f.Sh({16, 16}));
  CHECK(ClassifyCallAffinity(f.Op("tile.load", {t, f.Idx({0, 0}), f.Idx({16, 16})},
                                  Kw("target_memory", Mem(MemorySpace::kMat)))) ==
        CoreAffinity::kCube);
  CHECK(ClassifyCallAffinity(f.Op("tile.load", {t, f.Idx({0, 0}), f.Idx({16, 16})})) ==
        CoreAffinity::kShared);
  const Expr* acc = f.Tile(f.Sh({16, 16}), DataType::kFP32, MemorySpace::kAcc);
  CHECK(ClassifyCallAffinity(f.Op("tile.store", {acc, f.Idx({0, 0}), t})) == CoreAffinity::kCube);
  CHECK(ClassifyCallAffinity(f.Op("tensor.read", {t, f.Idx({0, 0})})) == CoreAffinity::kShared);
  CHECK(ClassifyCallAffinity(f.Op("system.fence", {})) == CoreAffinity::kShared);
}

TEST_CASE("hostile sizes do not overflow", "[ops][utils]") {
  Fx f;
  const int64_t big = int64_t{1} << 62;
  CHECK_FALSE(StaticNumel(f.Sh({big, 8})).has_value());
  const Expr* t = f.Tensor(f.Sh({big, 4}));
  CHECK(!f.Op("tile.load", {t, f.Idx({big, 0}), f.Idx({big, 4})}));
  CHECK(f.Err() ==
        "tile.load: argument 'offsets' region exceeds 'tensor' in dim 0: offset "
        "4611686018427387904 + extent 4611686018427387904 > 4611686018427387904");
  // A view over a huge tensor cannot prove the element count differs: accepted.
  CHECK(f.Op("tensor.view", {f.Tensor(f.Sh({big, big})), f.Idx({4})}));
}
