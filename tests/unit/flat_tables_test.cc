// The flat side tables of the whole-program walks: PtrMap (verifier bindings,
// printer names) checked against std::map under a random mix of inserts,
// erases (backward-shift deletion) and lookups; StringViewSet membership; and
// the hash-consed TileTypes that Context::InternTileType looks up without
// building a node.
#include <catch2/catch.hpp>
#include <deque>
#include <map>
#include <random>
#include <string>

#include "pypto/core/ptr_map.h"
#include "pypto/core/string_view_set.h"
#include "pypto/ir/context.h"

using namespace pypto;
using namespace pypto::ir;

TEST_CASE("PtrMap agrees with std::map under inserts, erases and lookups") {
  static int objs[3000];
  std::mt19937 rng(7);
  PtrMap<int*, int> m;
  std::map<int*, int> ref;
  for (int step = 0; step < 200000; ++step) {
    int* k = &objs[rng() % 3000];
    switch (rng() % 3) {
      case 0: {
        auto [v, fresh] = m.Insert(k);
        bool ref_fresh = ref.emplace(k, step).second;
        REQUIRE(fresh == ref_fresh);
        if (fresh) *v = step;
        break;
      }
      case 1:
        REQUIRE(m.Erase(k) == (ref.erase(k) == 1));
        break;
      default: {
        const int* v = m.Find(k);
        auto it = ref.find(k);
        REQUIRE((v != nullptr) == (it != ref.end()));
        if (v) REQUIRE(*v == it->second);
      }
    }
    REQUIRE(m.size() == ref.size());
  }
  m.Clear();
  REQUIRE(m.empty());
  REQUIRE(m.Find(&objs[0]) == nullptr);
}

TEST_CASE("PtrMap keeps entries across Reserve and copies") {
  static int objs[100];
  PtrMap<int*, int> m;
  for (int i = 0; i < 100; ++i) *m.Insert(&objs[i]).first = i;
  m.Reserve(10000);
  PtrMap<int*, int> copy = m;
  for (int i = 0; i < 100; ++i) {
    REQUIRE(*m.Find(&objs[i]) == i);
    REQUIRE(*copy.Find(&objs[i]) == i);
  }
}

TEST_CASE("StringViewSet answers membership of the names inserted") {
  StringViewSet s;
  std::deque<std::string> store;  // keeps the viewed text alive
  for (int i = 0; i < 5000; ++i) {
    store.push_back("t" + std::to_string(i % 1000));
    REQUIRE(s.Insert(store.back()) == (i < 1000));
  }
  REQUIRE(s.size() == 1000);
  REQUIRE(s.Contains("t999"));
  REQUIRE_FALSE(s.Contains("t1000"));
  REQUIRE_FALSE(s.Contains(""));
}

TEST_CASE("InternTileType finds the TileType Make<TileType> built, field for field") {
  Context ctx;
  std::vector<const Expr*> shape = {ctx.Int(16), ctx.Int(64)};
  const TileType* a = ctx.Make<TileType>(shape, DataType::kFP32, MemorySpace::kVec);
  REQUIRE(ctx.InternTileType(shape, DataType::kFP32, MemorySpace::kVec, nullptr) == a);
  // Any differing field is another type: dtype, memory space, a view, the dims' nodes.
  REQUIRE(ctx.InternTileType(shape, DataType::kFP16, MemorySpace::kVec, nullptr) != a);
  REQUIRE(ctx.InternTileType(shape, DataType::kFP32, std::nullopt, nullptr) != a);
  TileView v;
  v.fractal = 1024;
  const TileType* with_view = ctx.InternTileType(shape, DataType::kFP32, MemorySpace::kVec, &v);
  REQUIRE(with_view != a);
  REQUIRE(with_view->view.has_value());
  REQUIRE(with_view->view->fractal == 1024);
  REQUIRE(ctx.Make<TileType>(shape, DataType::kFP32, MemorySpace::kVec, v) == with_view);
  std::vector<const Expr*> other = {ctx.Int(16), ctx.Int(64)};
  REQUIRE(ctx.InternTileType(other, DataType::kFP32, MemorySpace::kVec, nullptr) != a);
  // Many distinct types survive the table growing.
  std::vector<const TileType*> made;
  for (int i = 0; i < 500; ++i)
    made.push_back(ctx.Make<TileType>(std::vector<const Expr*>{ctx.Int(i + 1)}, DataType::kInt32));
  for (int i = 0; i < 500; ++i)
    REQUIRE(ctx.InternTileType(made[i]->shape, DataType::kInt32, std::nullopt, nullptr) == made[i]);
}
