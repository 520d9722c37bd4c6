// VerifyProgram: one test per rule, checking the exact message (and, where the
// IR has spans, file:line:col), and that all errors are reported, not the first.
#include "pypto/ir/verifier.h"

#include <catch2/catch.hpp>

#include "irinfra_test_ops.h"
#include "pypto/ir/builder.h"

using namespace pypto;
using namespace pypto::ir;
using pypto::ir::testing::TestOps;

namespace {

using Params = std::vector<const Var*>;

struct V {
  Context ctx;
  IRBuilder b{ctx, &TestOps()};
  const ScalarType* idx = ctx.Scalar(DataType::kIndex);
  const TileType* tile = b.TileT(b.Shape({16, 64}), DataType::kFP32);

  std::vector<std::string> Run(const std::vector<const Function*>& fs, bool ssa = false,
                               std::vector<const Var*> dims = {}) {
    const Program* p = b.BuildProgram("P", fs, std::move(dims));
    DiagnosticEngine diag(&ctx.sources());
    bool ok = VerifyProgram(ctx, *p, diag, VerifyOptions{ssa});
    std::vector<std::string> out;
    for (const auto& d : diag.diagnostics()) out.push_back(d.message);
    CHECK(ok == out.empty());
    return out;
  }
  using Msgs = std::vector<std::string>;
};

}  // namespace

TEST_CASE("verifier: well-formed program passes") {
  V v;
  const Function* f = v.b.BuildFunction({"f"}, {{"a", v.idx}}, [&](const Params& p) {
    const Var* x = v.b.Assign("x", v.b.Add(p[0], v.b.Int(1)));
    v.b.Eval(v.b.Mul(x, p[0]));
  });
  CHECK(v.Run({f}, true).empty());
}

TEST_CASE("verifier: use before definition, with file:line:col") {
  V v;
  int32_t file = v.ctx.sources().AddFile("t.pir", "line one\n    y = x + 1\n    x = 2\n");
  const Var* x = v.ctx.NewVar("x", v.idx);
  const Function* f = v.b.BuildFunction({"f"}, {}, [&](const Params&) {
    v.b.SetSpan(Span{file, 2, 9, 5});
    v.b.Assign("y", v.ctx.Make<BinaryExpr>(BinaryOp::kAdd, x, v.b.Int(1), v.idx, v.b.span()));
    v.b.SetSpan(Span{file, 3, 5, 1});
    v.b.AssignTo(x, v.b.Int(2));
  });
  const Program* p = v.b.BuildProgram("P", {f});
  DiagnosticEngine diag(&v.ctx.sources());
  CHECK_FALSE(VerifyProgram(v.ctx, *p, diag));
  CHECK(diag.ErrorCount() == 1);
  CHECK(diag.Render() ==
        "t.pir:2:9: error: use of 'x' before its definition\n"
        "    y = x + 1\n"
        "        ^~~~~\n"
        "t.pir:3:5: note: 'x' is defined here\n"
        "    x = 2\n"
        "    ^\n");
}

TEST_CASE("verifier: loop-local values are not visible after the loop") {
  V v;
  const Var* inner = nullptr;
  const Function* f = v.b.BuildFunction({"f"}, {}, [&](const Params&) {
    v.b.For("i", v.b.Int(0), v.b.Int(4), v.b.Int(1), {}, [&](const Var* i, const auto&) {
      inner = v.b.Assign("inner", v.b.Add(i, v.b.Int(1)));
    });
    v.b.Eval(inner);
  });
  CHECK(v.Run({f}) == V::Msgs{"use of 'inner' before its definition"});
}

TEST_CASE("verifier: before SSA a var assigned in both if branches is visible after") {
  V v;
  const Var* a = v.ctx.NewVar("a", v.idx);
  auto build = [&] {
    return v.b.BuildFunction({"f"}, {{"c", v.ctx.Scalar(DataType::kBool)}}, [&](const Params& p) {
      v.b.If(
          p[0], [&] { v.b.AssignTo(a, v.b.Int(1)); }, [&] { v.b.AssignTo(a, v.b.Int(2)); });
      v.b.Eval(a);
    });
  };
  CHECK(v.Run({build()}).empty());
  CHECK(v.Run({build()}, true) ==
        V::Msgs{"'a' is defined more than once (SSA form required after convert-to-ssa)",
                "use of 'a' before its definition"});
}

TEST_CASE("verifier: SSA requires single assignment; re-assignment allowed before SSA") {
  V v;
  auto build = [&] {
    return v.b.BuildFunction({"f"}, {}, [&](const Params&) {
      const Var* x = v.b.Assign("x", v.b.Int(1));
      v.b.AssignTo(x, v.b.Add(x, v.b.Int(1)));
    });
  };
  CHECK(v.Run({build()}).empty());
  CHECK(v.Run({build()}, true) ==
        V::Msgs{"'x' is defined more than once (SSA form required after convert-to-ssa)"});
}

TEST_CASE("verifier: params, loop vars and iter args are never re-bound") {
  V v;
  const Function* f = v.b.BuildFunction({"f"}, {{"a", v.idx}}, [&](const Params& p) {
    v.b.AssignTo(p[0], v.b.Int(1));
    v.b.For("i", v.b.Int(0), v.b.Int(4), v.b.Int(1), {},
            [&](const Var* i, const auto&) { v.b.AssignTo(i, v.b.Int(0)); });
  });
  CHECK(v.Run({f}) ==
        V::Msgs{"cannot assign to 'a': it is a function parameter; assign to a new variable "
                "instead",
                "cannot assign to 'i': it is a loop variable; assign to a new variable instead"});
}

TEST_CASE("verifier: a var is bound in one function only") {
  V v;
  const Var* shared = v.ctx.NewVar("s", v.idx);
  const Function* f =
      v.b.BuildFunction({"f"}, {}, [&](const Params&) { v.b.AssignTo(shared, v.b.Int(1)); });
  const Function* g =
      v.b.BuildFunction({"g"}, {}, [&](const Params&) { v.b.AssignTo(shared, v.b.Int(2)); });
  CHECK(v.Run({f, g}) ==
        V::Msgs{"'s' is bound in both function 'f' and function 'g'; a variable belongs to one "
                "function (use a fresh variable)"});
  const Function* h = v.b.BuildFunction({"h"}, {}, [&](const Params&) { v.b.Eval(shared); });
  CHECK(v.Run({f, h}) ==
        V::Msgs{"use of 's' defined in function 'f'; values cross functions only as call "
                "arguments"});
}

TEST_CASE("verifier: op calls are re-deduced and their stored type checked") {
  V v;
  const OpDef* tadd = TestOps().Find("test.tadd");
  const TileType* half = v.b.TileT(v.b.Shape({16, 64}), DataType::kFP16);
  const Function* f = v.b.BuildFunction(
      {"f", FunctionType::kInCore}, {{"x", v.tile}, {"h", half}}, [&](const Params& p) {
        // Stored type differs from the deduced one.
        v.b.Eval(v.ctx.Make<Call>(tadd, "", std::vector<const Expr*>{p[0], p[0]}, AttrList{},
                                  AttrList{}, half));
        // Arguments the deducer rejects (built bypassing MakeOpCall).
        v.b.Eval(v.ctx.Make<Call>(tadd, "", std::vector<const Expr*>{p[0], p[1]}, AttrList{},
                                  AttrList{}, v.tile));
      });
  CHECK(v.Run({f}) ==
        V::Msgs{"pl.test.tadd: stored result type pl.Tile[[16, 64], pl.FP16, pl.Mem.Vec] does not "
                "match the type deduced from its arguments, pl.Tile[[16, 64], pl.FP32, "
                "pl.Mem.Vec]; rebuild the call with MakeOpCall",
                "test.tadd: argument 'rhs' must have the dtype of 'lhs'"});
}

TEST_CASE("verifier: function calls match the callee signature") {
  V v;
  const Function* k = v.b.BuildFunction(
      {"k", FunctionType::kInCore, std::nullopt, std::nullopt, {v.idx}},
      {{"x", v.tile}, {"n", v.idx}}, [&](const Params& p) { v.b.Return({p[1]}); });
  const TileType* other = v.b.TileT(v.b.Shape({16, 32}), DataType::kFP32);
  const Function* o = v.b.BuildFunction(
      {"o", FunctionType::kOrchestration}, {{"t", v.tile}, {"u", other}}, [&](const Params& p) {
        v.b.Eval(v.b.CallFunction(*k, {p[0], v.b.Int(3)}));  // fine
        v.b.Eval(v.b.CallFunction(*k, {p[0]}));              // arity
        v.b.Eval(v.b.CallFunction(*k, {p[1], v.b.Int(3)}));  // shape
        v.b.Eval(v.ctx.Make<Call>(nullptr, "missing", std::vector<const Expr*>{}, AttrList{},
                                  AttrList{}, v.ctx.Unknown()));
        v.b.Eval(v.ctx.Make<Call>(nullptr, "k", std::vector<const Expr*>{p[0], v.b.Int(3)},
                                  AttrList{}, AttrList{}, v.tile));  // result type
      });
  CHECK(v.Run({k, o}) ==
        V::Msgs{"self.k: expected 2 argument(s) (x, n), got 1",
                "self.k: argument 0 has type pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] but "
                "parameter 'x' is pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]",
                "self.missing: program 'P' has no function named 'missing'",
                "self.k: result type pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] does not match the "
                "return type pl.Scalar[pl.INDEX] of 'k'"});
}

TEST_CASE("verifier: distributed params need distributed arguments") {
  V v;
  const auto* dt = v.b.DistTensorT(v.b.Shape({16}), DataType::kFP32);
  const auto* pt = v.b.TensorT(v.b.Shape({16}), DataType::kFP32);
  const Function* k = v.b.BuildFunction({"k", FunctionType::kInCore}, {{"d", dt}, {"t", pt}},
                                        [&](const Params&) {});
  const Function* o = v.b.BuildFunction(
      {"o", FunctionType::kOrchestration}, {{"d", dt}, {"t", pt}}, [&](const Params& p) {
        v.b.Eval(v.b.CallFunction(*k, {p[0], p[0]}));  // dist where tensor expected: ok
        v.b.Eval(v.b.CallFunction(*k, {p[1], p[1]}));  // plain where dist expected: error
      });
  CHECK(v.Run({k, o}) == V::Msgs{"self.k: argument 0 has type pl.Tensor[[16], pl.FP32] but "
                                 "parameter 'd' is pld.DistributedTensor[[16], pl.FP32]"});
}

TEST_CASE("verifier: host-only and kernel-only op placement") {
  V v;
  const OpDef* ws = TestOps().Find("pld.system.world_size");
  const Function* k = v.b.BuildFunction({"k", FunctionType::kInCore}, {},
                                        [&](const Params&) { v.b.Eval(v.b.Op(*ws, {})); });
  const Function* host =
      v.b.BuildFunction({"host", FunctionType::kOpaque, Level::kHost, Role::kOrchestrator},
                        {{"t", v.tile}}, [&](const Params& p) {
                          v.b.Eval(v.b.Op(*ws, {}));                     // fine
                          v.b.Eval(v.b.Op("test.kernel_only", {p[0]}));  // not a kernel
                        });
  const Function* chip = v.b.BuildFunction(
      {"chip", FunctionType::kOrchestration}, {{"t", v.tile}}, [&](const Params& p) {
        v.b.InCoreScope([&] { v.b.Eval(v.b.Op("test.kernel_only", {p[0]})); });  // fine
        v.b.InCoreScope([&] { v.b.Eval(v.b.Op(*ws, {})); });
      });
  CHECK(v.Run({k, host, chip}) ==
        V::Msgs{"pld.system.world_size: only allowed in the host orchestrator "
                "(@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)), but used in "
                "kernel 'k' (InCore)",
                "pl.test.kernel_only: only allowed in kernels (InCore/AIC/AIV functions or "
                "pl.at(level=pl.Level.CORE_GROUP) scopes), but used in the host orchestrator "
                "'host'",
                "pld.system.world_size: only allowed in the host orchestrator "
                "(@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)), but used in a "
                "pl.at(level=pl.Level.CORE_GROUP) scope of function 'chip'"});
}

TEST_CASE("verifier: yield arity against iter args and if results") {
  V v;
  const Function* f =
      v.b.BuildFunction({"f"}, {{"c", v.ctx.Scalar(DataType::kBool)}}, [&](const Params& p) {
        v.b.For("i", v.b.Int(0), v.b.Int(4), v.b.Int(1), {{"acc", v.b.Int(0)}},
                [&](const Var* i, const auto&) {
                  v.b.Yield({i, i});
                });
        v.b.For("j", v.b.Int(0), v.b.Int(4), v.b.Int(1), {{"acc2", v.b.Int(0)}},
                [&](const Var*, const auto&) { v.b.Eval(v.b.Int(0)); });
        v.b.If(p[0], [&] { v.b.Yield({v.b.Int(1)}); }, {}, {"r"});
      });
  CHECK(v.Run({f}) ==
        V::Msgs{"pl.yield_: the body of this for expects 1 value(s), got 2",
                "the body of this for must end with pl.yield_ of 1 value(s)",
                "if: has 1 result(s) but no else branch; both branches must end with pl.yield_ "
                "of 1 value(s)"});
}

TEST_CASE("verifier: if branches must both yield; yields only at the end") {
  V v;
  const Function* f =
      v.b.BuildFunction({"f"}, {{"c", v.ctx.Scalar(DataType::kBool)}}, [&](const Params& p) {
        v.b.If(
            p[0], [&] { v.b.Yield({v.b.Int(1)}); }, [&] { v.b.Eval(v.b.Int(2)); }, {"r"});
        v.b.Yield({});
      });
  CHECK(v.Run({f}) ==
        V::Msgs{"the else-branch of this if must end with pl.yield_ of 1 value(s)",
                "pl.yield_: only allowed as the last statement of a loop body or an if branch"});
}

TEST_CASE("verifier: return values match return types; break/continue inside loops") {
  V v;
  const Function* f = v.b.BuildFunction(
      {"f", FunctionType::kOpaque, std::nullopt, std::nullopt, {v.idx, v.idx}}, {},
      [&](const Params&) {
        v.b.Break();
        v.b.For("i", v.b.Int(0), v.b.Int(4), v.b.Int(1), {}, [&](const Var*, const auto&) {
          v.b.Continue();  // fine
        });
        v.b.Continue();
        v.b.Return({v.b.Int(1)});
        v.b.Return({v.b.Int(1), v.b.Float(2.0)});
      });
  CHECK(v.Run({f}) ==
        V::Msgs{"break: only allowed inside a loop", "continue: only allowed inside a loop",
                "return: function 'f' returns 2 value(s), got 1",
                "return: value 1 has type pl.Scalar[pl.FP32] but function 'f' declares "
                "pl.Scalar[pl.INDEX]"});
}

TEST_CASE("verifier: dynamic dims are in scope everywhere and cannot be assigned") {
  V v;
  const Var* N = v.b.DynamicDim("N");
  const Function* f =
      v.b.BuildFunction({"f"}, {{"t", v.b.TileT({N}, DataType::kFP32)}}, [&](const Params&) {
        v.b.Eval(v.b.Add(N, v.b.Int(1)));
        v.b.AssignTo(N, v.b.Int(4));
      });
  CHECK(v.Run({f}, false, {N}) ==
        V::Msgs{"cannot assign to 'N': it is a dynamic dimension (pl.dynamic); assign to a new "
                "variable instead"});
  // A type mentioning an unknown var is a use before definition.
  const Var* M = v.ctx.NewVar("M", v.idx);
  const Function* g =
      v.b.BuildFunction({"g"}, {{"t", v.b.TileT({M}, DataType::kFP32)}}, [&](const Params&) {});
  CHECK(v.Run({g}) == V::Msgs{"use of 'M' before its definition"});
}

TEST_CASE("verifier: assignment value type must match the declared var type") {
  V v;
  const Function* f = v.b.BuildFunction({"f"}, {}, [&](const Params&) {
    const Var* x = v.ctx.NewVar("x", v.ctx.Scalar(DataType::kFP32));
    v.b.AssignTo(x, v.b.Bool(true));
  });
  CHECK(v.Run({f}) == V::Msgs{"assignment to 'x': value has type pl.Scalar[pl.BOOL] but the "
                              "variable is declared pl.Scalar[pl.FP32]"});
}

TEST_CASE("verifier: declared dims are integers, positive after folding, and fit in int64") {
  V v;
  const Expr* one_minus_one =
      v.ctx.Make<BinaryExpr>(BinaryOp::kSub, v.b.Int(1), v.b.Int(1), v.idx);  // not folded
  const Expr* f16_5 = v.ctx.Float(16.5, DataType::kFP32);
  const auto* zero = v.b.TensorT({v.b.Int(0), v.b.Int(64)}, DataType::kFP32);
  const auto* folded = v.b.TensorT({one_minus_one, v.b.Int(64)}, DataType::kFP32);
  const auto* flt = v.b.TensorT({f16_5, v.b.Int(64)}, DataType::kFP32);
  const auto* huge = v.b.TensorT({v.b.Int(2147483648), v.b.Int(2147483648)}, DataType::kFP32);
  const auto* fine = v.b.TensorT({v.b.Int(16), v.b.Int(64)}, DataType::kFP32);
  const Function* f = v.b.BuildFunction(
      {"f", FunctionType::kInCore},
      {{"a", zero}, {"b", folded}, {"c", flt}, {"d", huge}, {"e", fine}}, [&](const Params&) {});
  CHECK(v.Run({f}) ==
        V::Msgs{"dimension 0 of pl.Tensor[[0, 64], pl.FP32] is 0; static dimensions must be "
                "positive",
                "dimension 0 of pl.Tensor[[0, 64], pl.FP32] is 0 (written 1 - 1); static "
                "dimensions must be positive",
                "dimension 0 of pl.Tensor[[16.5, 64], pl.FP32] is 16.5, a pl.FP32 value; "
                "dimensions must be integers",
                "the size of pl.Tensor[[2147483648, 2147483648], pl.FP32] overflows: its 4 bytes "
                "per element times the product of its dimensions do not fit in a 64-bit integer"});
}

TEST_CASE("verifier: constant arithmetic without a value is reported once, innermost") {
  V v;
  const Function* f = v.b.BuildFunction({"f"}, {}, [&](const Params&) {
    const Expr* prod =
        v.ctx.Make<BinaryExpr>(BinaryOp::kMul, v.b.Int(4611686018427387904), v.b.Int(4), v.idx);
    v.b.Eval(v.ctx.Make<BinaryExpr>(BinaryOp::kAdd, prod, v.b.Int(16), v.idx));
    v.b.Eval(v.ctx.Make<BinaryExpr>(BinaryOp::kFloorDiv, v.b.Int(7), v.b.Int(0), v.idx));
  });
  CHECK(v.Run({f}) ==
        V::Msgs{"integer overflow in the constant expression 4611686018427387904 * 4 (the result "
                "does not fit in pl.Scalar[pl.INDEX])",
                "integer division by zero in the constant expression 7 // 0"});
}

TEST_CASE("verifier: recursion is rejected with the call cycle named, once per cycle") {
  V v;
  auto call = [&](const char* callee) {
    v.b.Eval(v.ctx.Make<Call>(nullptr, callee, std::vector<const Expr*>{}, AttrList{}, AttrList{},
                              v.ctx.Unknown()));
  };
  const Function* top = v.b.BuildFunction({"top"}, {}, [&](const Params&) { call("f"); });
  const Function* f = v.b.BuildFunction({"f"}, {}, [&](const Params&) { call("g"); });
  const Function* g = v.b.BuildFunction({"g"}, {}, [&](const Params&) { call("f"); });
  const Function* h = v.b.BuildFunction({"h"}, {}, [&](const Params&) { call("h"); });
  CHECK(v.Run({top, f, g, h}) ==
        V::Msgs{"recursive call of 'f' (call cycle: f -> g -> f); recursion is not supported: "
                "functions are inlined and run on a bounded stack",
                "recursive call of 'h' (call cycle: h -> h); recursion is not supported: "
                "functions are inlined and run on a bounded stack"});
}
