// ClassifyCallAffinity against the seed's "Core placement in a mixed kernel"
// table, one case per row (put/get VECTOR declared; remote_store derived VECTOR;
// remote_load, notify and wait SHARED; core_placement="aiv" makes a call VECTOR),
// and the precedence explicit -> move crossing -> memory spaces -> first tile
// argument -> SHARED. Every call is built through the registry as a program would.
#include "pypto/ops/affinity.h"

#include "dist_test_util.h"

using namespace dist_test;

namespace {

// The call with core_placement="aiv" added (as lower-auto-vector-split stamps it).
const Call* AivPlaced(Fx& f, const Call* c) {
  AttrList attrs = c->attrs;
  attrs.push_back({kCorePlacementAttr, Attr::Str("aiv")});
  return f.ctx.Make<Call>(c->op, std::string(), c->args, c->kwargs, std::move(attrs), c->type,
                          c->span);
}

CoreAffinity Of(const Call* c) {
  REQUIRE(c != nullptr);
  return ClassifyCallAffinity(c);
}

}  // namespace

TEST_CASE("row: put / get are VECTOR (declared)", "[affinity]") {
  Fx f;
  const Var* win = f.V("w", f.Dist({16, 64}, DataType::kFP32));
  const Var* local = f.V("x", f.Tensor({16, 64}, DataType::kFP32));
  const Var* peer = f.V("peer", f.Sc());
  const Var* stage = f.V("st", f.Tile({16, 64}, DataType::kFP32));
  for (const char* n : {"pld.tensor.put", "pld.tensor.get", "pld.tile.put", "pld.tile.get"})
    CHECK(f.Op(n).affinity == CoreAffinity::kVector);
  // The tensor forms have no tile operand: only the declaration keeps them off the cube lane.
  CHECK(Of(f.Mk("pld.tensor.put", {win, peer, local})) == CoreAffinity::kVector);
  CHECK(Of(f.Mk("pld.tensor.get", {local, peer, win})) == CoreAffinity::kVector);
  CHECK(Of(f.Mk("pld.tile.put", {win, peer, local, stage})) == CoreAffinity::kVector);
  CHECK(Of(f.Mk("pld.tile.get", {local, peer, win, stage})) == CoreAffinity::kVector);
}

TEST_CASE("row: remote_store is derived VECTOR from its source tile", "[affinity]") {
  Fx f;
  const Var* win = f.V("w", f.Dist({16, 16}, DataType::kFP32));
  const Var* peer = f.V("peer", f.Sc());
  const Var* vec = f.V("v", f.Tile({16, 16}, DataType::kFP32));
  CHECK(f.Op("pld.tile.remote_store").affinity == CoreAffinity::kDerived);
  CHECK(Of(f.Mk("pld.tile.remote_store", {vec, win, peer, f.T({0, 0})})) == CoreAffinity::kVector);
}

TEST_CASE("row: remote_load is SHARED (the known gap), even into a Vec tile", "[affinity]") {
  Fx f;
  const Var* win = f.V("w", f.Dist({16, 16}, DataType::kFP32));
  const Var* peer = f.V("peer", f.Sc());
  CHECK(f.Op("pld.tile.remote_load").affinity == CoreAffinity::kDerived);
  CHECK_FALSE(f.Op("pld.tile.remote_load").memory_spec);
  const Call* c = f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), f.T({16, 16})});
  CHECK(Of(c) == CoreAffinity::kShared);
  // After infer-tile-memory-space gave its result pl.Mem.Vec: still SHARED.
  c = f.Mk("pld.tile.remote_load", {win, peer, f.T({0, 0}), f.T({16, 16})},
           {Fx::KInt("target_memory", static_cast<int>(MemorySpace::kVec))});
  REQUIRE(c != nullptr);
  CHECK(MemOf(c->type) == MemorySpace::kVec);
  CHECK(Of(c) == CoreAffinity::kShared);
}

TEST_CASE("row: notify / wait are SHARED (undeclared), notify alone is no-duplicate",
          "[affinity]") {
  Fx f;
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  const Var* peer = f.V("peer", f.Sc());
  const Var* one = f.V("one", f.Sc());
  for (int op : {0, 1}) {  // AtomicAdd and Set alike
    const Call* n = f.Mk("pld.system.notify", {sig, peer, f.T({0, 0}), one}, {Fx::KInt("op", op)});
    CHECK(Of(n) == CoreAffinity::kShared);
    CHECK(n->op->no_duplicate);
  }
  const Call* w = f.Mk("pld.system.wait", {sig, f.T({0, 0}), one}, {Fx::KInt("cmp", 1)});
  CHECK(Of(w) == CoreAffinity::kShared);
  CHECK_FALSE(w->op->no_duplicate);
  CHECK(f.Op("pld.system.notify").affinity == CoreAffinity::kDerived);
  CHECK(f.Op("pld.system.wait").affinity == CoreAffinity::kDerived);
}

TEST_CASE("row: core_placement=\"aiv\" makes a call VECTOR", "[affinity]") {
  Fx f;
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  const Var* peer = f.V("peer", f.Sc());
  const Var* one = f.V("one", f.Sc());
  const Call* n = f.Mk("pld.system.notify", {sig, peer, f.T({0, 0}), one}, {Fx::KInt("op", 0)});
  REQUIRE(n != nullptr);
  CHECK_FALSE(IsAivPlaced(n));
  const Call* placed = AivPlaced(f, n);
  CHECK(IsAivPlaced(placed));
  CHECK(Of(placed) == CoreAffinity::kVector);
  // A declared-SHARED op too; a CUBE or MIXED call keeps its affinity.
  CHECK(Of(AivPlaced(f, f.Mk("system.fence", {}))) == CoreAffinity::kVector);
  const Var* l = f.V("l", f.Tile({16, 16}, DataType::kFP16, MemorySpace::kLeft));
  const Var* r = f.V("r", f.Tile({16, 16}, DataType::kFP16, MemorySpace::kRight));
  CHECK(Of(AivPlaced(f, f.Mk("tile.matmul", {l, r}))) == CoreAffinity::kCube);
  const Var* acc = f.V("acc", f.Tile({16, 16}, DataType::kFP32, MemorySpace::kAcc));
  CHECK(Of(AivPlaced(f, f.Mk("tile.move", {acc}))) == CoreAffinity::kMixed);
  // Any other value is not a placement.
  AttrList other = n->attrs;
  other.push_back({kCorePlacementAttr, Attr::Str("aic")});
  CHECK(Of(f.ctx.Make<Call>(n->op, std::string(), n->args, n->kwargs, other, n->type, n->span)) ==
        CoreAffinity::kShared);
}

TEST_CASE("precedence: explicit, move crossing, memory spaces, first tile argument, SHARED",
          "[affinity]") {
  Fx f;
  const Var* x = f.V("x", f.Tensor({16, 16}, DataType::kFP32));
  const Var* vec = f.V("v", f.Tile({16, 16}, DataType::kFP32));
  const Var* mat = f.V("m", f.Tile({16, 16}, DataType::kFP32, MemorySpace::kMat));
  const Var* acc = f.V("acc", f.Tile({16, 16}, DataType::kFP32, MemorySpace::kAcc));
  auto to = [](MemorySpace m) { return AttrList{Fx::KInt("target_memory", static_cast<int>(m))}; };
  // 1. Declared beats the memory rule: tile.create is SHARED whatever its space.
  CHECK(Of(f.Mk("tile.create", {f.T({16, 16})},
                {Fx::KDt("dtype", DataType::kFP32),
                 Fx::KInt("target_memory", static_cast<int>(MemorySpace::kMat))})) ==
        CoreAffinity::kShared);
  // 2. A move across the cores is MIXED; a move within one side is that side's.
  CHECK(Of(f.Mk("tile.move", {acc}, to(MemorySpace::kVec))) == CoreAffinity::kMixed);
  CHECK(Of(f.Mk("tile.move", {vec}, to(MemorySpace::kMat))) == CoreAffinity::kMixed);
  CHECK(Of(f.Mk("tile.move", {mat}, to(MemorySpace::kLeft))) == CoreAffinity::kCube);
  CHECK(Of(f.Mk("tile.move", {vec})) == CoreAffinity::kVector);
  // 3. The result tile's space: a load into Mat is CUBE, into Vec VECTOR.
  CHECK(Of(f.Mk("tile.load", {x, f.T({0, 0}), f.T({16, 16})}, to(MemorySpace::kMat))) ==
        CoreAffinity::kCube);
  CHECK(Of(f.Mk("tile.load", {x, f.T({0, 0}), f.T({16, 16})}, to(MemorySpace::kVec))) ==
        CoreAffinity::kVector);
  // 4. No result tile: the first tile argument (a store of an Acc tile is CUBE).
  CHECK(Of(f.Mk("tile.store", {acc, f.T({0, 0}), x})) == CoreAffinity::kCube);
  CHECK(Of(f.Mk("tile.store", {vec, f.T({0, 0}), x})) == CoreAffinity::kVector);
  // 5. Nothing applies: SHARED (a load whose space is not inferred yet, a tensor read).
  CHECK(Of(f.Mk("tile.load", {x, f.T({0, 0}), f.T({16, 16})})) == CoreAffinity::kShared);
  CHECK(Of(f.Mk("tensor.read", {x, f.T({0, 0})})) == CoreAffinity::kShared);
  CHECK(ClassifyCallAffinity(nullptr) == CoreAffinity::kShared);
}
