// The op registry: every registered op is fully described (doc, argument names,
// deducer, category); the core ops declare the affinity / effects / input-memory
// / placement facts passes rely on; and MakeOpCall's generic schema checks
// (arity, unknown kwarg, kwarg type, enum range, required kwarg) report the
// exact messages users see.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "pypto/ir/comm.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

const OpDef& Def(const std::string& name) {
  const OpDef* d = OpRegistry::Global().Find(name);
  INFO(name);
  REQUIRE(d != nullptr);
  return *d;
}

const std::vector<std::string> kCoreOps = {
    "tensor.create",
    "tensor.view",
    "tensor.read",
    "tensor.write",
    "tensor.add",
    "tensor.sub",
    "tensor.mul",
    "tensor.div",
    "tensor.maximum",
    "tensor.minimum",
    "tensor.cast",
    "tensor.slice",
    "tile.load",
    "tile.store",
    "tile.create",
    "tile.set_validshape",
    "tile.fillpad_inplace",
    "tile.add",
    "tile.sub",
    "tile.mul",
    "tile.div",
    "tile.maximum",
    "tile.minimum",
    "tile.cast",
    "tile.move",
    "tile.get_subblock_idx",
    "tile.read",
    "tile.write",
    "system.fence",
    "system.cacheinvalid",
};

struct Fx {
  Context ctx;
  DiagnosticEngine diag;
  const Call* Op(const std::string& name, std::vector<const Expr*> args, AttrList kw = {}) {
    diag.Clear();
    return MakeOpCall(ctx, Def(name), std::move(args), std::move(kw), {}, {}, diag);
  }
  std::string Err() {
    std::string out;
    for (const auto& d : diag.diagnostics()) out += (out.empty() ? "" : "\n") + d.message;
    return out;
  }
  const Expr* Tile() {
    return ctx.NewVar(
        "x", MakeTileType(ctx, {ctx.Int(16), ctx.Int(64)}, DataType::kFP32, MemorySpace::kVec));
  }
  const Expr* Tensor() {
    return ctx.NewVar("t", MakeTensorType(ctx, {ctx.Int(16), ctx.Int(64)}, DataType::kFP32));
  }
};

}  // namespace

TEST_CASE("every registered op is fully described", "[registry]") {
  std::set<std::string> names;
  for (const OpDef* d : OpRegistry::Global().All()) {
    INFO(d->name);
    names.insert(d->name);
    // Registered names are canonical: the printed `pl.` prefix is never part of
    // one, so the emitter's and the executor's tables use them as they are.
    CHECK(d->name.rfind("pl.", 0) != 0);
    CHECK_FALSE(d->doc.empty());
    CHECK_FALSE(d->category.empty());
    CHECK(static_cast<bool>(d->deduce));
    CHECK(d->min_args <= d->args.size());
    std::set<std::string> arg_names;
    for (const auto& a : d->args) {
      CHECK_FALSE(a.name.empty());
      CHECK(arg_names.insert(a.name).second);  // no duplicate argument names
    }
    std::set<std::string> kw_names;
    for (const auto& k : d->kwargs) {
      CHECK_FALSE(k.name.empty());
      CHECK(kw_names.insert(k.name).second);
      if (k.type == KwargType::kEnum) CHECK(k.enum_kind != EnumKind::kCount);
      CHECK(arg_names.count(k.name) == 0);  // a name is either positional or keyword
    }
    for (const auto& [i, spaces] : d->input_memory) {
      CHECK(i >= 0);
      CHECK(static_cast<size_t>(i) < d->args.size());
      CHECK_FALSE(spaces.empty());
    }
    for (const auto& [i, fn] : d->effects) {
      CHECK(i >= 0);
      CHECK(static_cast<size_t>(i) < d->args.size());
    }
  }
  for (const auto& n : kCoreOps) {
    INFO(n);
    CHECK(names.count(n) == 1);
  }
}

TEST_CASE("core op registry facts", "[registry]") {
  for (const auto& n : kCoreOps) {
    INFO(n);
    const OpDef& d = Def(n);
    CHECK(d.effects_declared);  // every core op states its argument effects
    CHECK_FALSE(d.no_duplicate);
    CHECK_FALSE(d.internal_only);
    bool tile = n.rfind("tile.", 0) == 0, sys = n.rfind("system.", 0) == 0;
    CHECK(d.category == (tile ? "TileOp" : sys ? "SyncOp" : "TensorOp"));
    CHECK(d.placement == (tile || sys ? OpPlacement::kKernelOnly : OpPlacement::kAnywhere));
  }
  // Affinity.
  CHECK(Def("tile.get_subblock_idx").affinity == CoreAffinity::kVector);
  CHECK(Def("tile.create").affinity == CoreAffinity::kShared);
  CHECK(Def("tile.fillpad_inplace").affinity == CoreAffinity::kVector);
  for (const char* n :
       {"tile.add", "tile.sub", "tile.mul", "tile.div", "tile.maximum", "tile.minimum"}) {
    INFO(n);
    CHECK(Def(n).affinity == CoreAffinity::kVector);
    CHECK(Def(n).input_memory.at(0) == std::vector<MemorySpace>{MemorySpace::kVec});
    CHECK(Def(n).input_memory.at(1) == std::vector<MemorySpace>{MemorySpace::kVec});
    CHECK(Def(n).output_memory == MemorySpace::kVec);
    CHECK(Def(n).EffectOf(0, {}) == ArgEffect::kRead);
  }
  CHECK(Def("tile.move").affinity == CoreAffinity::kDerived);  // MIXED decided per call
  CHECK(Def("tile.load").affinity == CoreAffinity::kDerived);
  CHECK(Def("system.fence").affinity == CoreAffinity::kShared);
  CHECK(Def("system.cacheinvalid").affinity == CoreAffinity::kShared);

  // Effects.
  AttrList add = {{"atomic", Attr::Int(static_cast<int>(AtomicType::kAdd))}};
  AttrList none = {{"atomic", Attr::Int(static_cast<int>(AtomicType::kNone))}};
  CHECK(Def("tile.store").EffectOf(2, {}) == ArgEffect::kWrite);
  CHECK(Def("tile.store").EffectOf(2, none) == ArgEffect::kWrite);
  CHECK(Def("tile.store").EffectOf(2, add) == ArgEffect::kReadWrite);
  CHECK(Def("tile.store").EffectOf(0, add) == ArgEffect::kRead);
  CHECK(Def("tensor.write").EffectOf(0, {}) == ArgEffect::kWrite);
  CHECK(Def("tile.write").EffectOf(0, {}) == ArgEffect::kWrite);
  CHECK(Def("tile.fillpad_inplace").EffectOf(0, {}) == ArgEffect::kReadWrite);
  CHECK(Def("tile.load").EffectOf(0, {}) == ArgEffect::kRead);
  CHECK(Def("system.cacheinvalid").EffectOf(0, {}) == ArgEffect::kRead);

  // Input memory.
  CHECK(Def("tile.store").input_memory.at(0) ==
        std::vector<MemorySpace>{MemorySpace::kVec, MemorySpace::kAcc});
  CHECK(Def("tile.fillpad_inplace").input_memory.at(0) ==
        std::vector<MemorySpace>{MemorySpace::kVec});
  CHECK(Def("tile.load").input_memory.empty());

  // Argument names and optional arity.
  const OpDef& load = Def("tile.load");
  CHECK(load.args.size() == 4);
  CHECK(load.min_args == 3);
  CHECK(load.ArgIndex("valid_shape") == 3);
  CHECK(Def("tile.store").min_args == 3);
  CHECK(Def("tile.store").args.size() == 4);
  CHECK(Def("tensor.view").min_args == 1);
  CHECK(Def("tensor.view").args.size() == 3);
  CHECK(Def("tensor.slice").min_args == 3);
  CHECK(Def("tensor.slice").args.size() == 5);
  CHECK(Def("system.cacheinvalid").min_args == 0);
  CHECK(Def("system.cacheinvalid").args.size() == 3);
  CHECK(Def("tile.get_subblock_idx").args.empty());

  // Kwarg schema.
  const KwargSpec* tm = load.FindKwarg("target_memory");
  REQUIRE(tm);
  CHECK(tm->type == KwargType::kEnum);
  CHECK(tm->enum_kind == EnumKind::kMemorySpace);
  CHECK_FALSE(tm->required);
  CHECK(load.FindKwarg("clamp")->type == KwargType::kBool);
  CHECK(Def("tile.store").FindKwarg("atomic")->enum_kind == EnumKind::kAtomicType);
  CHECK(Def("tile.create").FindKwarg("dtype")->required);
  CHECK(Def("tensor.create").FindKwarg("dtype")->required);
  CHECK(Def("tensor.cast").FindKwarg("target_type")->type == KwargType::kDType);
  const KwargSpec* mv = Def("tile.move").FindKwarg("target_memory");
  REQUIRE(mv->default_value.has_value());
  CHECK(mv->default_value->i == static_cast<int>(MemorySpace::kVec));
  CHECK(Def("tile.move").FindKwarg("blayout")->enum_kind == EnumKind::kTileLayout);
  CHECK(Def("tile.fillpad_inplace").FindKwarg("pad_value")->enum_kind == EnumKind::kPadValue);
}

TEST_CASE("MakeOpCall schema errors", "[registry]") {
  Fx f;
  const Expr* x = f.Tile();
  const Expr* t = f.Tensor();
  const Expr* offs = MakeIndexTuple(f.ctx, {0, 0});
  const Expr* shp = MakeIndexTuple(f.ctx, {16, 64});

  // Wrong arity: optional range and exact count.
  CHECK(!f.Op("tile.load", {t, offs}));
  CHECK(f.Err() ==
        "tile.load: expected 3 to 4 positional arguments (tensor, offsets, shapes, "
        "valid_shape), got 2");
  CHECK(!f.Op("tile.add", {x}));
  CHECK(f.Err() == "tile.add: expected 2 positional arguments (lhs, rhs), got 1");
  CHECK(!f.Op("tile.get_subblock_idx", {x}));
  CHECK(f.Err() == "tile.get_subblock_idx: expected 0 positional arguments (), got 1");

  // Unknown kwarg (with and without a schema).
  CHECK(!f.Op("tile.load", {t, offs, shp}, {{"memory", Attr::Int(1)}}));
  CHECK(f.Err() ==
        "tile.load: unknown keyword argument 'memory' (expected one of: "
        "target_memory, clamp, tile_2d)");
  CHECK(!f.Op("tile.add", {x, x}, {{"mode", Attr::Int(1)}}));
  CHECK(f.Err() == "tile.add: unknown keyword argument 'mode' (it takes none)");

  // Wrong kwarg type.
  CHECK(!f.Op("tile.load", {t, offs, shp}, {{"clamp", Attr::Int(1)}}));
  CHECK(f.Err() == "tile.load: keyword 'clamp' must be a bool");
  CHECK(!f.Op("tile.load", {t, offs, shp}, {{"target_memory", Attr::Str("Vec")}}));
  CHECK(f.Err() == "tile.load: keyword 'target_memory' must be pl.Mem");
  CHECK(!f.Op("tile.create", {shp}, {{"dtype", Attr::Int(3)}}));
  CHECK(f.Err() == "tile.create: keyword 'dtype' must be a dtype (pl.FP32, ...)");
  // An enum value of the wrong enum is a type error too.
  CHECK(!f.Op("tile.store", {x, offs, t}, {{"atomic", Attr::Enum(EnumKind::kMemorySpace, 1)}}));
  CHECK(f.Err() == "tile.store: keyword 'atomic' must be pld.AtomicType");
  // The right enum is accepted and stored as its int payload.
  const Call* c =
      f.Op("tile.store", {x, offs, t}, {{"atomic", Attr::Enum(EnumKind::kAtomicType, 1)}});
  REQUIRE(c);
  CHECK(c->kwargs[0].value.kind == Attr::Kind::kInt);
  CHECK(c->kwargs[0].value.i == 1);

  // Enum out of range.
  CHECK(!f.Op("tile.store", {x, offs, t}, {{"atomic", Attr::Int(2)}}));
  CHECK(f.Err() ==
        "tile.store: keyword 'atomic' value 2 is out of range for pld.AtomicType "
        "(pld.AtomicType.None_=0, pld.AtomicType.Add=1)");
  CHECK(!f.Op("tile.move", {x}, {{"target_memory", Attr::Int(9)}}));
  CHECK(f.Err() ==
        "tile.move: keyword 'target_memory' value 9 is out of range for pl.Mem "
        "(pl.Mem.DDR=0, pl.Mem.Vec=1, pl.Mem.Mat=2, pl.Mem.Left=3, pl.Mem.Right=4, "
        "pl.Mem.Acc=5, pl.Mem.Bias=6, pl.Mem.ScalarLocal=7)");

  // Missing required kwarg.
  CHECK(!f.Op("tile.create", {shp}));
  CHECK(f.Err() == "tile.create: missing required keyword argument 'dtype'");

  // Several schema errors are all reported, and the deducer does not run.
  CHECK(!f.Op("tile.create", {shp, shp}, {{"bogus", Attr::Int(1)}}));
  CHECK(f.diag.ErrorCount() == 3);
}

TEST_CASE("deducer diagnostics point at the offending argument", "[registry]") {
  Fx f;
  f.diag.set_sources(&f.ctx.sources());
  int32_t file = f.ctx.sources().AddFile("k.pir", "x = pl.tile.add(a, 1.5)\n");
  const Expr* a = f.Tile();
  Span lit{file, 1, 20, 3};
  const Expr* b = f.ctx.Float(1.5, DataType::kFP32, lit);
  Span call{file, 1, 5, 18};
  const Call* c = MakeOpCall(f.ctx, Def("tile.add"), {a, b}, {}, {}, call, f.diag);
  CHECK(c == nullptr);
  REQUIRE(f.diag.diagnostics().size() == 1);
  const Diagnostic& d = f.diag.diagnostics()[0];
  CHECK(d.span.line == 1);
  CHECK(d.span.col == 20);
  CHECK(d.message == "tile.add: argument 'rhs' must be a pl.Tile, got pl.Scalar[pl.FP32]");
  // A Var argument's own span is its definition, so errors about it point at the call.
  const Expr* v = f.ctx.NewVar("v", f.ctx.Scalar(DataType::kFP32), Span{file, 7, 3, 1});
  c = MakeOpCall(f.ctx, Def("tile.add"), {a, v}, {}, {}, call, f.diag);
  CHECK(c == nullptr);
  CHECK(f.diag.diagnostics().back().span.line == 1);
  CHECK(f.diag.diagnostics().back().span.col == 5);
  // Kwarg errors point at the call.
  c = MakeOpCall(f.ctx, Def("tile.move"), {a}, {{"target_memory", Attr::Int(0)}}, {}, call, f.diag);
  CHECK(c == nullptr);
  CHECK(f.diag.diagnostics().back().span.col == 5);
}
