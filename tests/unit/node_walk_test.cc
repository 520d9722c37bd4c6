// The walks generated from node_kinds.def reach every child field of every
// type, expression and statement kind: one sample node per kind whose every
// child field holds its own marker (a distinct Var use, binding or statement;
// for types, a symbolic dim in every shape / view list and tuple element), then
// IRVisitor, the node_walk.h helpers, IRMutator substitution, structural
// equality and hashing must each see every marker. Every value field of a type
// is changed one at a time and must make equality fail with its diagnostic and
// change the hash; a rebuilt TileType stays hash-consed. A new kind without a
// sample here fails the coverage check.
#include "pypto/ir/node_walk.h"

#include <catch2/catch.hpp>
#include <set>
#include <vector>

#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/mutator.h"
#include "pypto/ir/structural_equal.h"
#include "pypto/ir/visitor.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

struct Sample {
  const Node* node = nullptr;
  std::vector<const Var*> uses;  // marker vars used (including in child stmts)
  std::vector<const Var*> defs;  // marker vars bound by the node itself
};

// Builds one sample per kind; U() / D() / S() make markers of the sample in
// construction.
struct Samples {
  Context ctx;
  const Type* idx = ctx.Scalar(DataType::kIndex);
  std::vector<Sample> all;
  Sample cur;

  const Var* U() {
    const Var* v = ctx.NewVar("u" + std::to_string(cur.uses.size()), idx);
    cur.uses.push_back(v);
    return v;
  }
  const Var* D() {
    const Var* v = ctx.NewVar("d" + std::to_string(cur.defs.size()), idx);
    cur.defs.push_back(v);
    return v;
  }
  const IterArg* IA() {
    const IterArg* v = ctx.NewIterArg("ia" + std::to_string(cur.defs.size()), idx, U());
    cur.defs.push_back(v);
    return v;
  }
  const Stmt* S() { return ctx.Make<EvalStmt>(U()); }
  AttrList At() { return {{"k", Attr::List({Attr::Int(1), Attr::Of(U())})}}; }
  template <class N>
  void Add(const N* n) {
    cur.node = n;
    all.push_back(cur);
    cur = {};
  }

  std::vector<const Expr*> Us(int n) {
    std::vector<const Expr*> v;
    for (int i = 0; i < n; ++i) v.push_back(U());
    return v;
  }
  TensorView TV() {
    TensorView v;
    v.stride = Us(2);
    v.layout = TensorLayout::kDN;
    v.valid_shape = Us(2);
    v.pad = PadValue::kZero;
    return v;
  }
  TileView TlV() {
    TileView v;
    v.valid_shape = Us(2);
    return v;
  }

  Samples() {
    Add(ctx.Unknown());
    Add(ctx.Scalar(DataType::kFP32));
    {
      std::vector<const Expr*> shape = Us(2);
      Add(ctx.Make<TensorType>(std::move(shape), DataType::kFP32, TV()));
    }
    {
      std::vector<const Expr*> shape = Us(2);
      Add(ctx.Make<DistributedTensorType>(std::move(shape), DataType::kFP32, TV(), "win"));
    }
    {
      std::vector<const Expr*> shape = Us(2);
      Add(ctx.Make<TileType>(std::move(shape), DataType::kFP32, MemorySpace::kVec, TlV()));
    }
    {
      const Type* a = ctx.Make<TensorType>(Us(1), DataType::kFP32);
      const Type* b = ctx.Make<TileType>(Us(1), DataType::kFP16);
      Add(ctx.Make<TupleType>(std::vector<const Type*>{a, idx, b}));
    }
    Add(ctx.Make<ArrayType>(DataType::kInt32, 4));
    Add(ctx.Ptr());
    Add(ctx.CommCtx());
    Add(ctx.WindowBuffer());

    const Var* u = U();
    Add(u);
    const IterArg* ia = ctx.NewIterArg("ia", idx, ctx.Int(0));
    cur.uses.push_back(ia);
    Add(ia);
    Add(ctx.Int(3));
    Add(ctx.Float(1.5));
    Add(ctx.Bool(true));
    Add(ctx.Make<BinaryExpr>(BinaryOp::kAdd, U(), U(), idx));
    Add(ctx.Make<UnaryExpr>(UnaryOp::kNeg, U(), idx));
    {
      const Var *a = U(), *b = U();
      AttrList kw = At(), at = At();
      Add(ctx.Make<Call>(nullptr, "g", std::vector<const Expr*>{a, b}, std::move(kw), std::move(at),
                         idx));
    }
    {
      const Var *a = U(), *b = U();
      Add(ctx.Make<MakeTuple>(std::vector<const Expr*>{a, b},
                              ctx.Make<TupleType>(std::vector<const Type*>{idx, idx})));
    }
    Add(ctx.Make<TupleGetItem>(U(), 0, idx));

    {
      const Expr* v = U();
      Add(ctx.Make<AssignStmt>(D(), v));
    }
    Add(ctx.Make<EvalStmt>(U()));
    {
      const Var *a = U(), *b = U();
      Add(ctx.Make<ReturnStmt>(std::vector<const Expr*>{a, b}));
    }
    Add(ctx.Make<YieldStmt>(std::vector<const Expr*>{U()}));
    {
      const Expr* c = U();
      const Stmt *t = S(), *e = S();
      Add(ctx.Make<IfStmt>(c, t, e, std::vector<const Var*>{D(), D()}));
    }
    {
      const Expr *b = U(), *e = U(), *st = U();
      const Var* lv = D();
      std::vector<const IterArg*> ias{IA()};
      const Stmt* body = S();
      std::vector<const Var*> rv{D()};
      Add(ctx.Make<ForStmt>(lv, b, e, st, std::move(ias), body, std::move(rv), ForKind::kRange,
                            At()));
    }
    {
      const Expr* c = U();
      std::vector<const IterArg*> ias{IA()};
      const Stmt* body = S();
      Add(ctx.Make<WhileStmt>(c, std::move(ias), body, std::vector<const Var*>{D()}));
    }
    {
      const Stmt *a = S(), *b = S();
      Add(ctx.Make<SeqStmt>(std::vector<const Stmt*>{a, b}));
    }
    Add(ctx.Make<BreakStmt>());
    Add(ctx.Make<ContinueStmt>());
    Add(ctx.Make<InCoreScopeStmt>(S(), SplitMode::kNone, At()));
    Add(ctx.Make<HierarchyScopeStmt>(S(), Level::kCoreGroup, std::nullopt, At()));
    {
      const Stmt* body = S();
      Add(ctx.Make<SpmdScopeStmt>(body, U(), false, At()));
    }
    {
      const Var* v = D();
      Add(ctx.Make<SplitAivScopeStmt>(v, 2, SplitMode::kUpDown, S(), At()));
    }
    Add(ctx.Make<CommDomainScopeStmt>("c", std::vector<int64_t>{}, std::vector<std::string>{}, S(),
                                      At()));
    Add(ctx.Make<ManualScopeStmt>(S(), At()));
  }
};

struct Recorder : IRVisitor {
  std::vector<const Var*> uses, defs;
  void Visit_Var(const Var* v) override { uses.push_back(v); }
  void Visit_IterArg(const IterArg* v) override { uses.push_back(v); }
  void VisitVarDef(const Var* v) override { defs.push_back(v); }
  void Run(const Node* n) {
    if (Type::ClassOf(n->kind))
      VisitType(static_cast<const Type*>(n));
    else if (Expr::ClassOf(n->kind))
      VisitExpr(static_cast<const Expr*>(n));
    else
      VisitStmt(static_cast<const Stmt*>(n));
  }
};

std::set<const Var*> SetOf(const std::vector<const Var*>& v) { return {v.begin(), v.end()}; }

// The same walk through node_walk.h's one-level helpers, recursing by hand.
void WalkExpr(const Expr* e, std::set<const Var*>& uses) {
  if (const Var* v = AsVarLike(e)) {
    uses.insert(v);
    return;
  }
  ForEachChildExpr(
      e, [&](const Expr* c) { WalkExpr(c, uses); }, [](const Type*) {});
}
void WalkType(const Type* t, std::set<const Var*>& uses) {
  ForEachTypeChild(
      t, [&](const Expr* e) { WalkExpr(e, uses); }, [&](const Type* c) { WalkType(c, uses); });
}
void WalkStmt(const Stmt* s, std::set<const Var*>& uses, std::set<const Var*>& defs, bool top) {
  ForEachOwnExpr(s, [&](const Expr* e) { WalkExpr(e, uses); });
  if (top) ForEachOwnDef(s, [&](const Var* v) { defs.insert(v); });
  ForEachChildStmt(s, [&](const Stmt* c) { WalkStmt(c, uses, defs, false); });
}

// Substitutes the markers (uses by `to` or a fresh var, defs by fresh vars).
const Node* Mutated(Context& ctx, const Sample& s, const Var* only, const Expr* to) {
  IRMutator m(ctx);
  for (const Var* u : s.uses)
    if (!only || u == only)
      m.Substitute(u, to                ? to
                      : Isa<IterArg>(u) ? ctx.NewIterArg("n", u->type, nullptr)
                                        : ctx.NewVar("n", u->type));
  if (!only)
    for (const Var* d : s.defs)
      if (!Isa<IterArg>(d)) m.Substitute(d, ctx.NewVar("nd", d->type));
  if (Type::ClassOf(s.node->kind)) return m.MutateType(static_cast<const Type*>(s.node));
  if (Expr::ClassOf(s.node->kind)) return m.MutateExpr(static_cast<const Expr*>(s.node));
  return m.MutateStmt(static_cast<const Stmt*>(s.node));
}

bool Equal(const Node* a, const Node* b) {
  if (Type::ClassOf(a->kind))
    return StructuralEqual(static_cast<const Type*>(a), static_cast<const Type*>(b));
  if (Expr::ClassOf(a->kind))
    return StructuralEqual(static_cast<const Expr*>(a), static_cast<const Expr*>(b));
  return StructuralEqual(static_cast<const Stmt*>(a), static_cast<const Stmt*>(b));
}
uint64_t Hash(const Node* a) {
  if (Type::ClassOf(a->kind)) return StructuralHash(static_cast<const Type*>(a));
  if (Expr::ClassOf(a->kind)) return StructuralHash(static_cast<const Expr*>(a));
  return StructuralHash(static_cast<const Stmt*>(a));
}

}  // namespace

TEST_CASE("every type, expression and statement kind has a walk sample") {
  Samples s;
  std::set<NodeKind> have;
  for (const Sample& x : s.all) have.insert(x.node->kind);
  for (int k = static_cast<int>(kFirstType); k <= static_cast<int>(kLastStmt); ++k) {
    INFO(NodeKindName(static_cast<NodeKind>(k)));
    CHECK(have.count(static_cast<NodeKind>(k)) == 1);
  }
}

TEST_CASE("IRVisitor and node_walk.h reach every child field") {
  Samples s;
  for (const Sample& x : s.all) {
    INFO(NodeKindName(x.node->kind));
    Recorder r;
    r.Run(x.node);
    CHECK(SetOf(r.uses) == SetOf(x.uses));
    CHECK(r.uses.size() == x.uses.size());  // each exactly once
    CHECK(SetOf(r.defs) == SetOf(x.defs));
    if (Type::ClassOf(x.node->kind)) {
      std::set<const Var*> uses;
      WalkType(static_cast<const Type*>(x.node), uses);
      CHECK(uses == SetOf(x.uses));
    } else if (Stmt::ClassOf(x.node->kind)) {
      std::set<const Var*> uses, defs;
      WalkStmt(static_cast<const Stmt*>(x.node), uses, defs, true);
      CHECK(uses == SetOf(x.uses));
      CHECK(defs == SetOf(x.defs));
    } else {
      std::set<const Var*> uses;
      WalkExpr(static_cast<const Expr*>(x.node), uses);
      CHECK(uses == SetOf(x.uses));
    }
  }
}

TEST_CASE("IRMutator rebuilds every child field; equality and hashing compare every one") {
  Samples s;
  for (const Sample& x : s.all) {
    INFO(NodeKindName(x.node->kind));
    const Node* renamed = Mutated(s.ctx, x, nullptr, nullptr);
    Recorder r;
    r.Run(renamed);
    for (const Var* u : x.uses) CHECK(SetOf(r.uses).count(u) == 0);
    for (const Var* d : x.defs) CHECK(SetOf(r.defs).count(d) == 0);
    CHECK(r.uses.size() == x.uses.size());
    CHECK(r.defs.size() == x.defs.size());
    // Renaming every var is invisible to structural equality and hashing ...
    CHECK(Equal(x.node, renamed));
    CHECK(Hash(x.node) == Hash(renamed));
    // ... replacing any one use by a constant is not.
    for (const Var* u : x.uses) {
      if (Isa<IterArg>(u)) continue;
      const Node* changed = Mutated(s.ctx, x, u, s.ctx.Int(99));
      INFO(u->name_hint);
      CHECK(changed != x.node);
      CHECK_FALSE(Equal(x.node, changed));
      CHECK(Hash(x.node) != Hash(changed));
    }
  }
}

TEST_CASE("every value field of a type is compared and hashed, with its diagnostic") {
  Context ctx;
  auto dims = [&](std::initializer_list<int64_t> v) {
    std::vector<const Expr*> out;
    for (int64_t x : v) out.push_back(ctx.Int(x));
    return out;
  };
  auto tensor_view = [&](TensorLayout l, PadValue p, int strides, int valid) {
    TensorView v;
    for (int i = 0; i < strides; ++i) v.stride.push_back(ctx.Int(1));
    for (int i = 0; i < valid; ++i) v.valid_shape.push_back(ctx.Int(2));
    v.layout = l;
    v.pad = p;
    return v;
  };
  auto tile_view = [&](TileLayout b, TileLayout sl, int64_t fractal, PadValue p, int valid) {
    TileView v;
    for (int i = 0; i < valid; ++i) v.valid_shape.push_back(ctx.Int(2));
    v.blayout = b;
    v.slayout = sl;
    v.fractal = fractal;
    v.pad = p;
    return v;
  };
  const auto F32 = DataType::kFP32, F16 = DataType::kFP16;
  auto dt = [](DataType a, DataType b) {
    return std::string(DTypeName(a)) + " vs " + std::string(DTypeName(b));
  };
  auto tensor = [&](DataType d, std::vector<const Expr*> s, std::optional<TensorView> v) {
    return ctx.Make<TensorType>(std::move(s), d, std::move(v));
  };
  auto dist = [&](std::optional<TensorView> v, std::string wb) {
    return ctx.Make<DistributedTensorType>(dims({4, 4}), F32, std::move(v), std::move(wb));
  };
  auto tile = [&](DataType d, std::optional<MemorySpace> m, std::optional<TileView> v) {
    return ctx.Make<TileType>(dims({4, 4}), d, m, std::move(v));
  };
  const auto ND = TensorLayout::kND, DN = TensorLayout::kDN;
  const auto Null = PadValue::kNull, Zero = PadValue::kZero;
  const auto Row = TileLayout::kRowMajor, Col = TileLayout::kColMajor, None = TileLayout::kNoneBox;
  const auto Vec = MemorySpace::kVec, Mat = MemorySpace::kMat;
  const Type* tv = tensor(F32, dims({4, 4}), tensor_view(ND, Null, 2, 2));
  const Type* dv = dist(tensor_view(ND, Null, 2, 2), "w");
  const Type* lv = tile(F32, Vec, tile_view(Row, None, 512, Null, 2));
  const Type* tup = ctx.Make<TupleType>(std::vector<const Type*>{tv, lv});
  struct Case {
    const Type *a, *b;
    std::string why;
  };
  std::vector<Case> cases = {
      {ctx.Scalar(F32), ctx.Scalar(F16), "scalar dtype " + dt(F32, F16)},
      {tv, tensor(F16, dims({4, 4}), tensor_view(ND, Null, 2, 2)), "tensor dtype " + dt(F32, F16)},
      {tv, tensor(F32, dims({4}), tensor_view(ND, Null, 2, 2)), "shape dim count 2 vs 1"},
      {tv, tensor(F32, dims({4, 4}), std::nullopt), "tensor view present on one side only"},
      {tv, tensor(F32, dims({4, 4}), tensor_view(DN, Null, 2, 2)),
       "tensor view layout/pad differs"},
      {tv, tensor(F32, dims({4, 4}), tensor_view(ND, Zero, 2, 2)),
       "tensor view layout/pad differs"},
      {tv, tensor(F32, dims({4, 4}), tensor_view(ND, Null, 1, 2)), "stride count 2 vs 1"},
      {tv, tensor(F32, dims({4, 4}), tensor_view(ND, Null, 2, 0)), "valid_shape dim count 2 vs 0"},
      {tv, dv, "type kind TensorType vs DistributedTensorType"},
      {dv, dist(tensor_view(ND, Null, 2, 2), "x"), "window buffer binding differs"},
      {dv, dist(tensor_view(ND, Zero, 2, 2), "w"), "tensor view layout/pad differs"},
      {lv, tile(F16, Vec, tile_view(Row, None, 512, Null, 2)), "tile dtype " + dt(F32, F16)},
      {lv, tile(F32, Mat, tile_view(Row, None, 512, Null, 2)), "tile memory space differs"},
      {lv, tile(F32, std::nullopt, tile_view(Row, None, 512, Null, 2)),
       "tile memory space differs"},
      {lv, tile(F32, Vec, std::nullopt), "tile view present on one side only"},
      {lv, tile(F32, Vec, tile_view(Col, None, 512, Null, 2)),
       "tile view layout/fractal/pad differs"},
      {lv, tile(F32, Vec, tile_view(Row, Row, 512, Null, 2)),
       "tile view layout/fractal/pad differs"},
      {lv, tile(F32, Vec, tile_view(Row, None, 1024, Null, 2)),
       "tile view layout/fractal/pad differs"},
      {lv, tile(F32, Vec, tile_view(Row, None, 512, Zero, 2)),
       "tile view layout/fractal/pad differs"},
      {lv, tile(F32, Vec, tile_view(Row, None, 512, Null, 1)), "valid_shape dim count 2 vs 1"},
      {tup, ctx.Make<TupleType>(std::vector<const Type*>{tv}), "tuple type arity differs"},
      {tup, ctx.Make<TupleType>(std::vector<const Type*>{tv, tile(F16, Vec, std::nullopt)}),
       "tile dtype " + dt(F32, F16)},
      {ctx.Make<ArrayType>(F32, 4), ctx.Make<ArrayType>(F16, 4), "array dtype " + dt(F32, F16)},
      {ctx.Make<ArrayType>(F32, 4), ctx.Make<ArrayType>(F32, 5), "array extent 4 vs 5"},
  };
  for (const Case& c : cases) {
    INFO(c.why);
    std::string why;
    CHECK_FALSE(StructuralEqual(c.a, c.b, &why));
    CHECK(why == c.why);
    CHECK(StructuralHash(c.a) != StructuralHash(c.b));
  }
  // Equal fields (fresh but equal dim constants): equal and hashed alike.
  const Type* tv2 = tensor(F32, dims({4, 4}), tensor_view(ND, Null, 2, 2));
  CHECK(tv2 != tv);
  CHECK(StructuralEqual(tv, tv2));
  CHECK(StructuralHash(tv) == StructuralHash(tv2));
  CHECK(StructuralEqual(ctx.Make<ArrayType>(F32, 4), ctx.Make<ArrayType>(F32, 4)));
}

TEST_CASE("IRMutator rebuilds a changed TileType through the interning constructor") {
  Context ctx;
  const Var* n = ctx.NewVar("n", ctx.Scalar(DataType::kIndex));
  const Expr* four = ctx.Int(4);
  const Expr* eight = ctx.Int(8);
  TileView view;
  view.valid_shape = {n, four};
  const TileType* t = ctx.Make<TileType>(std::vector<const Expr*>{n, four}, DataType::kFP32,
                                         MemorySpace::kVec, view);
  const Type* tup = ctx.Make<TupleType>(std::vector<const Type*>{t, ctx.Scalar(DataType::kFP32)});
  // Unchanged: the same pointer.
  {
    IRMutator m(ctx);
    CHECK(m.MutateType(t) == t);
    CHECK(m.MutateType(tup) == tup);
  }
  // Changed: the interned tile with the new fields, whichever mutator made it.
  TileView nv;
  nv.valid_shape = {eight, four};
  const TileType* want = ctx.InternTileType(std::vector<const Expr*>{eight, four}, DataType::kFP32,
                                            MemorySpace::kVec, &nv);
  IRMutator m1(ctx), m2(ctx);
  m1.Substitute(n, eight);
  m2.Substitute(n, eight);
  const Type* r1 = m1.MutateType(t);
  CHECK(r1 != t);
  CHECK(r1 == want);
  CHECK(m2.MutateType(t) == want);
  const auto* rt = As<TupleType>(m1.MutateType(tup));
  REQUIRE(rt != nullptr);
  CHECK(rt != tup);
  CHECK(rt->types[0] == want);
  CHECK(rt->types[1] == ctx.Scalar(DataType::kFP32));
}
