// Test fixture for the distributed op unit tests (dist_*_test.cc): builds typed
// Vars/tuples with distinct source positions (one line each in a synthetic file)
// and op calls through MakeOpCall, and exposes the first diagnostic so tests can
// assert the exact message and the exact line:col it points at.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ir/op_utils.h"
#include "pypto/ir/printer.h"

namespace dist_test {

using namespace pypto;
using namespace pypto::ir;

struct Fx {
  Context ctx;
  DiagnosticEngine diag{&ctx.sources()};
  int32_t file = -1;
  int next_line = 1;

  Fx() {
    std::string text;
    for (int i = 1; i <= 500; ++i) text += "    x" + std::to_string(i) + "\n";
    file = ctx.sources().AddFile("t.pir", text);
  }

  Span Next() { return Span{file, next_line++, 5, 2}; }

  // ---- types
  Shape S(std::vector<int64_t> dims) {
    Shape s;
    for (int64_t d : dims) s.push_back(ctx.Int(d));
    return s;
  }
  const DistributedTensorType* Dist(std::vector<int64_t> dims, DataType dt,
                                    std::optional<TensorView> v = std::nullopt) {
    return ctx.Make<DistributedTensorType>(S(dims), dt, v);
  }
  const DistributedTensorType* DistS(Shape s, DataType dt) {
    return ctx.Make<DistributedTensorType>(s, dt);
  }
  const TensorType* Tensor(std::vector<int64_t> dims, DataType dt,
                           std::optional<TensorView> v = std::nullopt) {
    return ctx.Make<TensorType>(S(dims), dt, v);
  }
  const TileType* Tile(std::vector<int64_t> dims, DataType dt,
                       std::optional<MemorySpace> m = MemorySpace::kVec) {
    return ctx.Make<TileType>(S(dims), dt, m);
  }
  const ScalarType* Sc(DataType dt = DataType::kInt32) { return ctx.Scalar(dt); }

  // ---- expressions (each on its own line)
  const Var* V(std::string name, const Type* t) { return ctx.NewVar(std::move(name), t, Next()); }
  const Expr* I(int64_t v, DataType dt = DataType::kIndex) { return ctx.Int(v, dt, Next()); }
  const MakeTuple* T(std::vector<int64_t> vals) {
    std::vector<const Expr*> e;
    for (int64_t v : vals) e.push_back(ctx.Int(v));
    return MakeTupleOf(ctx, e, Next());
  }
  const MakeTuple* TE(std::vector<const Expr*> e) { return MakeTupleOf(ctx, e, Next()); }

  // ---- kwargs
  static NamedAttr KInt(std::string k, int64_t v) { return {std::move(k), Attr::Int(v)}; }
  static NamedAttr KBool(std::string k, bool v) { return {std::move(k), Attr::Bool(v)}; }
  static NamedAttr KStr(std::string k, std::string v) { return {std::move(k), Attr::Str(v)}; }
  static NamedAttr KDt(std::string k, DataType v) { return {std::move(k), Attr::DType(v)}; }
  static NamedAttr KEnum(std::string k, EnumKind e, int v) {
    return {std::move(k), Attr::Enum(e, v)};
  }

  // ---- calls
  const OpDef& Op(const std::string& name) {
    const OpDef* d = OpRegistry::Global().Find(name);
    REQUIRE(d != nullptr);
    return *d;
  }
  Span call_span{};
  const Call* Mk(const std::string& op, std::vector<const Expr*> args, AttrList kw = {}) {
    diag.Clear();
    call_span = Next();
    // Like the parser: each argument's use-site span (here: the line it was made on).
    std::vector<Span> spans;
    for (const Expr* a : args) spans.push_back(a ? a->span : Span{});
    return MakeOpCall(ctx, Op(op), std::move(args), std::move(kw), {}, call_span, diag,
                      std::move(spans));
  }
  std::string Msg() const {
    return diag.diagnostics().empty() ? std::string("<no diagnostic>")
                                      : diag.diagnostics()[0].message;
  }
  int Line() const { return diag.diagnostics().empty() ? -1 : diag.diagnostics()[0].span.line; }
  std::string Ty(const Type* t) const { return TypeToString(t); }
};

}  // namespace dist_test

namespace dist_test {

// The call must fail with exactly `msg` as its first diagnostic, at `where`'s line.
inline void RejectsAt(Fx& fx, const Call* c, const Expr* where, const std::string& msg) {
  CHECK(c == nullptr);
  CHECK(fx.Msg() == msg);
  CHECK(fx.Line() == where->span.line);
}
// The call must fail with exactly `msg`, reported at the call itself.
inline void Rejects(Fx& fx, const Call* c, const std::string& msg) {
  CHECK(c == nullptr);
  CHECK(fx.Msg() == msg);
  CHECK(fx.Line() == fx.call_span.line);
}
inline void Accepts(Fx& fx, const Call* c) {
  CHECK(fx.Msg() == "<no diagnostic>");
  CHECK(c != nullptr);
}

}  // namespace dist_test
