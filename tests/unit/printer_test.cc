// IR printer: exact canonical text for types, scalar expressions (precedence and
// minimal parentheses), literals, unique Var naming, decorators and control flow.
// Op calls use a private registry so the test does not depend on which core ops
// are registered.
#include "pypto/ir/printer.h"

#include <catch2/catch.hpp>

#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/op_registry.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

const Type* Idx(Context& c) { return c.Scalar(DataType::kIndex); }

const Expr* Bin(Context& c, BinaryOp op, const Expr* a, const Expr* b) {
  return c.Make<BinaryExpr>(op, a, b, IsComparison(op) ? c.Scalar(DataType::kBool) : a->type);
}

}  // namespace

TEST_CASE("types print in DSL spelling", "[printer]") {
  Context c;
  CHECK(TypeToString(c.Scalar(DataType::kInt32)) == "pl.Scalar[pl.INT32]");
  CHECK(TypeToString(c.Ptr()) == "pl.Ptr");
  CHECK(TypeToString(c.CommCtx()) == "pld.CommCtx");
  CHECK(TypeToString(c.WindowBuffer()) == "pld.WindowBufferType");
  CHECK(TypeToString(c.Unknown()) == "pl.UnknownType");
  std::vector<const Expr*> shape = {c.Int(16), c.Int(64)};
  CHECK(TypeToString(c.Make<TensorType>(shape, DataType::kFP16)) == "pl.Tensor[[16, 64], pl.FP16]");
  TensorView tv;
  tv.stride = {c.Int(64), c.Int(1)};
  tv.layout = TensorLayout::kDN;
  CHECK(TypeToString(c.Make<TensorType>(shape, DataType::kFP16, tv)) ==
        "pl.Tensor[[16, 64], pl.FP16, pl.TensorView(stride=[64, 1], layout=pl.TensorLayout.DN)]");
  const Var* nr = c.NewVar("NR", Idx(c));
  CHECK(TypeToString(c.Make<DistributedTensorType>(std::vector<const Expr*>{nr, c.Int(1)},
                                                   DataType::kInt32)) ==
        "pld.DistributedTensor[[NR, 1], pl.INT32]");
  CHECK(TypeToString(c.Make<TileType>(shape, DataType::kFP32)) == "pl.Tile[[16, 64], pl.FP32]");
  TileView tl;
  tl.valid_shape = {c.Int(8), c.Int(64)};
  tl.pad = PadValue::kZero;
  CHECK(TypeToString(c.Make<TileType>(shape, DataType::kFP32, MemorySpace::kVec, tl)) ==
        "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec, pl.TileView(valid_shape=[8, 64], "
        "pad=pl.PadValue.zero)]");
  CHECK(TypeToString(c.Make<TupleType>(std::vector<const Type*>{c.Ptr(), Idx(c)})) ==
        "pl.Tuple[pl.Ptr, pl.Scalar[pl.INDEX]]");
}

TEST_CASE("scalar expressions use Python precedence with minimal parentheses", "[printer]") {
  Context c;
  const Var* a = c.NewVar("a", Idx(c));
  const Var* b = c.NewVar("b", Idx(c));
  const Var* d = c.NewVar("d", Idx(c));
  CHECK(PrintExpr(Bin(c, BinaryOp::kMul, Bin(c, BinaryOp::kAdd, a, b), d)) == "(a + b) * d");
  CHECK(PrintExpr(Bin(c, BinaryOp::kAdd, a, Bin(c, BinaryOp::kMul, b, d))) == "a + b * d");
  CHECK(PrintExpr(Bin(c, BinaryOp::kSub, a, Bin(c, BinaryOp::kSub, b, d))) == "a - (b - d)");
  CHECK(PrintExpr(Bin(c, BinaryOp::kSub, Bin(c, BinaryOp::kSub, a, b), d)) == "a - b - d");
  CHECK(PrintExpr(Bin(c, BinaryOp::kPow, Bin(c, BinaryOp::kPow, a, b), d)) == "(a ** b) ** d");
  CHECK(PrintExpr(Bin(c, BinaryOp::kPow, a, Bin(c, BinaryOp::kPow, b, d))) == "a ** b ** d");
  CHECK(PrintExpr(Bin(c, BinaryOp::kPow, c.Int(-2), a)) == "(-2) ** a");
  CHECK(PrintExpr(Bin(c, BinaryOp::kLt, Bin(c, BinaryOp::kLt, a, b), d)) == "(a < b) < d");
  CHECK(PrintExpr(Bin(c, BinaryOp::kMin, a, Bin(c, BinaryOp::kFloorMod, b, d))) ==
        "pl.min(a, b % d)");
  CHECK(PrintExpr(c.Make<UnaryExpr>(UnaryOp::kNeg, Bin(c, BinaryOp::kAdd, a, b), Idx(c))) ==
        "-(a + b)");
  CHECK(PrintExpr(c.Make<UnaryExpr>(UnaryOp::kNeg, c.Int(5), Idx(c))) == "-(5)");
  CHECK(PrintExpr(c.Make<UnaryExpr>(UnaryOp::kCast, a, c.Scalar(DataType::kInt32))) ==
        "pl.cast(a, pl.INT32)");
  const Expr* cond = Bin(c, BinaryOp::kAnd, Bin(c, BinaryOp::kLt, a, b),
                         Bin(c, BinaryOp::kOr, Bin(c, BinaryOp::kGe, b, d), c.Bool(true)));
  CHECK(PrintExpr(cond) == "a < b and (b >= d or True)");
}

TEST_CASE("literals print by dtype", "[printer]") {
  Context c;
  CHECK(PrintExpr(c.Int(7)) == "7");
  CHECK(PrintExpr(c.Int(-7)) == "-7");
  CHECK(PrintExpr(c.Int(1, DataType::kInt32)) == "pl.const(1, pl.INT32)");
  CHECK(PrintExpr(c.Float(1.0)) == "1.0");
  CHECK(PrintExpr(c.Float(0.1)) == "0.1");
  CHECK(PrintExpr(c.Float(1e20)) == "1e+20");
  CHECK(PrintExpr(c.Float(1.5, DataType::kFP16)) == "pl.const(1.5, pl.FP16)");
  CHECK(PrintExpr(c.Bool(false)) == "False");
}

TEST_CASE("program header, decorators, unique names and loops", "[printer]") {
  Context c;
  OpRegistry reg;  // private registry: the printer only needs the OpDef
  reg.Register(OpHandle{0}, "tile.fake")
      .Arg("x")
      .EnumKwarg("op", EnumKind::kNotifyOp)
      .Deduce([](DeduceContext& d) { return d.args[0]->type; });
  const OpDef* op = reg.Find("tile.fake");
  DiagnosticEngine diag;

  Program p;
  p.name = "P";
  const Var* nr = c.NewVar("NR", Idx(c));
  p.dynamic_dims.push_back(nr);
  auto* f = c.Make<Function>();
  f->name = "k";
  f->func_type = FunctionType::kInCore;
  const Var* x = c.NewVar("x", Idx(c));
  const Var* x2 = c.NewVar("x", Idx(c));   // same hint, distinct Var
  const Var* kw = c.NewVar("in", Idx(c));  // keyword
  f->params = {x, kw};
  f->param_dirs = {ParamDirection::kIn, ParamDirection::kInOut};
  const Call* call = MakeOpCall(c, *op, {x}, {{"op", Attr::Int(1)}}, {}, {}, diag);
  REQUIRE(call);
  const Var* i = c.NewVar("i", Idx(c));
  const IterArg* acc = c.NewIterArg("acc", Idx(c), x);
  const Var* out = c.NewVar("acc_out", Idx(c));
  const Stmt* body = c.Make<SeqStmt>(
      std::vector<const Stmt*>{c.Make<AssignStmt>(x2, Bin(c, BinaryOp::kAdd, x, nr)),
                               c.Make<YieldStmt>(std::vector<const Expr*>{x2})});
  const Stmt* loop = c.Make<ForStmt>(i, c.Int(0), nr, c.Int(1), std::vector<const IterArg*>{acc},
                                     body, std::vector<const Var*>{out}, ForKind::kRange);
  f->body = c.Make<SeqStmt>(std::vector<const Stmt*>{
      c.Make<EvalStmt>(call), loop, c.Make<ReturnStmt>(std::vector<const Expr*>{out})});
  f->return_types = {Idx(c)};
  p.functions.push_back(f);
  const char* expected =
      "# pypto.program: P\n"
      "import pypto.language as pl\n"
      "import pypto.language.distributed as pld\n"
      "\n"
      "NR = pl.dynamic(\"NR\")\n"
      "\n"
      "\n"
      "@pl.program\n"
      "class P:\n"
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def k(self, x: pl.Scalar[pl.INDEX], in_1: pl.InOut[pl.Scalar[pl.INDEX]]) -> "
      "pl.Scalar[pl.INDEX]:\n"
      "        pl.tile.fake(x, op=pld.NotifyOp.Set)\n"
      "        for i, (acc,) in pl.range(NR, init_values=(x,)):\n"
      "            x_1: pl.Scalar[pl.INDEX] = x + NR\n"
      "            acc_out: pl.Scalar[pl.INDEX] = pl.yield_(x_1)\n"
      "        return acc_out\n";
  CHECK(PrintProgram(p) == expected);
}
