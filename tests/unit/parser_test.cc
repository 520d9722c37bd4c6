// IR text parser: exact error positions (line:col) and messages for malformed
// input, short-form dispatch by operand kind, the pre-SSA re-assignment rule,
// literal typing, and print -> parse -> print identity.
#include "pypto/ir/parser.h"

#include <catch2/catch.hpp>
#include <string>

#include "pypto/ir/casting.h"
#include "pypto/ir/context.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/structural_equal.h"

using namespace pypto;
using namespace pypto::ir;

namespace {

const char* kHeader =
    "import pypto.language as pl\n"
    "import pypto.language.distributed as pld\n"
    "\n"
    "\n"
    "@pl.program\n"
    "class P:\n";

// "line:col: message" of every error, one per line.
std::string Errors(const std::string& text, ParseOptions opts = {}) {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, text, "t.pir", diag, opts);
  std::string out;
  for (const auto& d : diag.diagnostics())
    out += std::to_string(d.span.line) + ":" + std::to_string(d.span.col) + ": " + d.message + "\n";
  if (p && !out.empty()) out += "<program returned despite errors>\n";
  if (!p && out.empty()) out = "<null program without errors>\n";
  return out;
}

const Program* Parse(Context& ctx, const std::string& text, std::string* errs = nullptr) {
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, text, "t.pir", diag);
  if (errs) *errs = diag.Render();
  return p;
}

// First statement of the body of function `f`.
const Stmt* BodyStmt(const Program* p, size_t fn, size_t i) {
  auto* seq = As<SeqStmt>(p->functions[fn]->body);
  REQUIRE(seq);
  REQUIRE(i < seq->stmts.size());
  return seq->stmts[i];
}

}  // namespace

TEST_CASE("lexer errors point at the exact line and column", "[parser][errors]") {
  CHECK(Errors(std::string(kHeader) + "    @pl.function\n    def f(self):\n\treturn\n") ==
        "9:2: inconsistent use of tabs and spaces in indentation\n");
  CHECK(Errors(std::string(kHeader) +
               "    @pl.function\n    def f(self):\n        pass\n      pass\n") ==
        "10:7: unindent does not match any outer indentation level\n");
  CHECK(Errors(std::string(kHeader) + "    @pl.function\n    def f(self):\n        x = \"abc\n") ==
        "9:13: unterminated string literal; expected a closing quote on the same line\n");
  CHECK(Errors("x = foo(1, [2,\n  3\n") ==
        "1:12: '[' was never closed; expected ']' before end of file\n");
  CHECK(Errors("x = 1\ny = \xff\n") == "2:5: invalid UTF-8 byte 0xFF; IR text must be UTF-8\n");
  CHECK(Errors("x = 1 $ 2\n") == "1:7: unexpected character '$'\n");
  CHECK(Errors("x = (1, 2]\n") ==
        "1:10: closing ']' does not match opening '(' at line 1 column 5; expected ')'\n");
}

TEST_CASE("syntax errors are all reported, with recovery per statement", "[parser][errors]") {
  std::string text = std::string(kHeader) +
                     "    @pl.function\n"
                     "    def f(self, n: pl.Scalar[pl.INDEX]):\n"
                     "        for i in pl.range(n)\n"  // line 9: missing ':'
                     "            x = i\n"
                     "        y = (1 +\n"  // line 11..12: recovers
                     "        )\n"
                     "        if n > 1\n"  // line 13
                     "            pass\n";
  CHECK(Errors(text) ==
        "9:29: expected ':' after for header, found end of line\n"
        "12:9: expected an expression, found ')'\n"
        "13:17: expected ':' after if condition, found end of line\n");
}

TEST_CASE("semantic errors name the construct and the fix", "[parser][errors]") {
  std::string fn = std::string(kHeader) +
                   "    @pl.function(type=pl.FunctionType.InCore)\n"
                   "    def f(self, a: pl.Tensor[[16, 64], pl.FP32], p: pl.Scalar[pl.INT32]):\n";
  CHECK(Errors(fn + "        pld.system.notifyy(a, p, [0, 0], 1)\n") ==
        "9:9: unknown op 'pld.system.notifyy'; did you mean 'pld.system.notify'?\n");
  CHECK(Errors(fn + "        x = undefined_thing + 1\n") ==
        "9:13: undefined name 'undefined_thing'\n");
  CHECK(
      Errors(fn + "        x: pl.Scalar[pl.INT32] = p + 1\n        y: pl.Scalar[pl.FP32] = x\n") ==
      "10:12: type annotation of 'y' does not match its value: annotated pl.Scalar[pl.FP32], "
      "but the value has type pl.Scalar[pl.INT32]\n");
  CHECK(Errors(fn + "        x = pl.tile.load(a, [0, 0], [16, 64], bogus=1)\n") ==
        "9:47: pl.tile.load: unknown keyword argument 'bogus' (arguments: tensor, offsets, "
        "shapes, valid_shape; keywords: target_memory, clamp, tile_2d)\n");
  CHECK(Errors(fn + "        break\n") == "9:9: 'break' outside a loop\n");
  CHECK(Errors(fn + "        x = pl.tile.load(a, [0, 0], [16, 64])\n        x2 = pl.Tile\n") ==
        "10:14: unknown name 'pl.Tile'\n");
  // Errors in two statements are both reported; the poisoned name does not cascade.
  CHECK(Errors(fn + "        x = nope\n        y = x + 1\n        z = nope2\n") ==
        "9:13: undefined name 'nope'\n11:13: undefined name 'nope2'\n");
}

TEST_CASE("internal-only ops are rejected in user code", "[parser][errors]") {
  ParseOptions user;
  user.allow_internal_ops = false;
  std::string text = std::string(kHeader) +
                     "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
                     "    def f(self, a: pl.Tensor[[4, 16], pl.FP32]):\n"
                     "        pl.builtin.tensor.barrier(a)\n";
  std::string errs = Errors(text, user);
  CHECK(errs.find("9:9: pl.builtin.tensor.barrier is internal compiler output and cannot be "
                  "written in user code") == 0);
}

TEST_CASE("deep nesting is a clean error, not a crash", "[parser][errors]") {
  std::string deep = "x = " + std::string(100000, '(') + "1" + std::string(100000, ')') + "\n";
  CHECK(Errors(deep) == "1:205: nesting too deep (limit 200)\n");
  std::string neg = "x = " + std::string(100000, '-') + "1\n";
  CHECK(Errors(neg).find("nesting too deep (limit 200)") != std::string::npos);
  std::string sum = "x = 1";
  for (int i = 0; i < 5000; ++i) sum += " + 1";
  CHECK(Errors(sum + "\n").find("expression too deep") != std::string::npos);
  std::string blocks;
  for (int i = 0; i < 300; ++i) blocks += std::string(i, ' ') + "if x:\n";
  CHECK(Errors(blocks).find("nesting too deep (limit 200)") != std::string::npos);
}

TEST_CASE("short forms dispatch on operand kind", "[parser][short-forms]") {
  Context ctx;
  std::string errs;
  const Program* p =
      Parse(ctx,
            std::string(kHeader) +
                "    @pl.function(type=pl.FunctionType.InCore)\n"
                "    def f(self, a: pl.Tensor[[16, 64], pl.FP32], b: pl.Tensor[[16, 64], pl.FP32], "
                "n: pl.Scalar[pl.INDEX]):\n"
                "        t = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)\n"
                "        u = pl.add(t, t)\n"
                "        v = pl.add(a, b)\n"
                "        w = pl.add(n, 1)\n"
                "        m = pl.max(n, 4)\n"
                "        c = pl.cast(n, pl.INT32)\n"
                "        s = t + t\n",
            &errs);
  INFO(errs);
  REQUIRE(p);
  auto value = [&](size_t i) { return Cast<AssignStmt>(BodyStmt(p, 0, i))->value; };
  CHECK(Cast<Call>(value(0))->OpName() == "tile.load");
  CHECK(Cast<Call>(value(1))->OpName() == "tile.add");
  CHECK(Cast<Call>(value(2))->OpName() == "tensor.add");
  CHECK(Cast<BinaryExpr>(value(3))->op == BinaryOp::kAdd);
  CHECK(Cast<BinaryExpr>(value(4))->op == BinaryOp::kMax);
  CHECK(Cast<UnaryExpr>(value(5))->op == UnaryOp::kCast);
  CHECK(TypeToString(value(5)->type) == "pl.Scalar[pl.INT32]");
  CHECK(Cast<Call>(value(6))->OpName() == "tile.add");
}

TEST_CASE("pld short forms and alloc_window_buffer naming", "[parser][short-forms]") {
  Context ctx;
  std::string errs;
  const Program* p = Parse(ctx,
                           std::string(kHeader) +
                               "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
                               "    def h(self):\n"
                               "        buf = pld.alloc_window_buffer(256 * pl.FP32.get_byte())\n"
                               "        n = pld.world_size()\n"
                               "        data = pld.window(buf, [256], dtype=pl.FP32)\n",
                           &errs);
  INFO(errs);
  REQUIRE(p);
  auto* alloc = Cast<Call>(Cast<AssignStmt>(BodyStmt(p, 0, 0))->value);
  CHECK(alloc->OpName() == "pld.tensor.alloc_window_buffer");
  REQUIRE(FindAttr(alloc->kwargs, "name"));
  CHECK(FindAttr(alloc->kwargs, "name")->s == "buf");
  REQUIRE(As<ConstInt>(alloc->args[0]));
  CHECK(Cast<ConstInt>(alloc->args[0])->value == 1024);  // folded: get_byte is a constant
  CHECK(Cast<Call>(Cast<AssignStmt>(BodyStmt(p, 0, 1))->value)->OpName() ==
        "pld.system.world_size");
  CHECK(Cast<Call>(Cast<AssignStmt>(BodyStmt(p, 0, 2))->value)->OpName() == "pld.tensor.window");
  // The printer drops name= (it is the LHS) and the parser re-derives it.
  std::string text = PrintProgram(*p);
  CHECK(text.find("buf: pl.Ptr = pld.tensor.alloc_window_buffer(1024)\n") != std::string::npos);
}

TEST_CASE("re-assignment reuses the Var only when the type is unchanged", "[parser][ssa]") {
  Context ctx;
  std::string errs;
  const Program* p = Parse(ctx,
                           std::string(kHeader) +
                               "    @pl.function\n"
                               "    def f(self, n: pl.Scalar[pl.INDEX]):\n"
                               "        x = n + 1\n"
                               "        x = x * 2\n"
                               "        x = pl.cast(x, pl.INT32)\n",
                           &errs);
  INFO(errs);
  REQUIRE(p);
  const Var* v0 = Cast<AssignStmt>(BodyStmt(p, 0, 0))->var;
  const Var* v1 = Cast<AssignStmt>(BodyStmt(p, 0, 1))->var;
  const Var* v2 = Cast<AssignStmt>(BodyStmt(p, 0, 2))->var;
  CHECK(v0 == v1);
  CHECK(v1 != v2);
  CHECK(TypeToString(v2->type) == "pl.Scalar[pl.INT32]");
  // The printer keeps distinct Vars distinct.
  CHECK(PrintProgram(*p).find("x_1: pl.Scalar[pl.INT32] = pl.cast(x, pl.INT32)") !=
        std::string::npos);
}

TEST_CASE("literals, constants and dynamic dims", "[parser]") {
  Context ctx;
  std::string errs;
  const Program* p = Parse(ctx,
                           "import pypto.language as pl\n"
                           "N = 64\n"
                           "HALF = N // 2\n"
                           "M = pl.dynamic(\"M\")\n"
                           "@pl.jit.incore\n"
                           "def k(a: pl.Tensor[[M, N], pl.FP32]) -> pl.Scalar[pl.INDEX]:\n"
                           "    x = HALF * 2\n"
                           "    y = 3 * 2\n"
                           "    z: pl.Scalar[pl.INT32] = 7\n"
                           "    return x\n",
                           &errs);
  INFO(errs);
  REQUIRE(p);
  CHECK(p->name == "t");
  REQUIRE(p->dynamic_dims.size() == 1);
  CHECK(p->functions[0]->func_type == FunctionType::kInCore);
  CHECK(TypeToString(p->functions[0]->params[0]->type) == "pl.Tensor[[M, 64], pl.FP32]");
  CHECK(Cast<ConstInt>(Cast<AssignStmt>(BodyStmt(p, 0, 0))->value)->value == 64);
  CHECK(Isa<BinaryExpr>(Cast<AssignStmt>(BodyStmt(p, 0, 1))->value));  // literal math kept
  CHECK(PrintExpr(Cast<AssignStmt>(BodyStmt(p, 0, 2))->value) == "pl.const(7, pl.INT32)");
}

TEST_CASE("print -> parse -> print is identical", "[parser][roundtrip]") {
  const char* src =
      "# pypto.program: R\n"
      "import pypto.language as pl\n"
      "import pypto.language.distributed as pld\n"
      "\n"
      "NR = pl.dynamic(\"NR\")\n"
      "\n"
      "\n"
      "@pl.program\n"
      "class R:\n"
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def k(self, a: pl.Tensor[[16, 64], pl.FP32], o: pl.Out[pl.Tensor[[16, 64], pl.FP32]], "
      "n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[16, 64], pl.FP32]:\n"
      "        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64], "
      "target_memory=pl.Mem.Vec)\n"
      "        for i, (acc,) in pl.range(1, n, 2, init_values=(t,)):\n"
      "            nxt: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)\n"
      "            acc_out: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.yield_(nxt)\n"
      "        if n > 3 and not n == 5:\n"
      "            r: pl.Scalar[pl.INDEX] = pl.yield_((n - 1) * 2 // 3)\n"
      "        else:\n"
      "            r: pl.Scalar[pl.INDEX] = pl.yield_(pl.min(n, -4))\n"
      "        for (x,) in pl.while_(init_values=(r,)):\n"
      "            pl.cond(x < 100)\n"
      "            x_next: pl.Scalar[pl.INDEX] = pl.yield_(x * 2)\n"
      "        o_1: pl.Tensor[[16, 64], pl.FP32] = pl.tile.store(acc_out, [0, 0], o)\n"
      "        return o_1\n"
      "\n"
      "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
      "    def h(self, x: pl.Tensor[[NR, 16, 64], pl.FP32]):\n"
      "        buf: pl.Ptr = pld.tensor.alloc_window_buffer(4096)\n"
      "        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):\n"
      "            y: pl.Scalar[pl.FP32] = 1.5\n"
      "        for r in pl.parallel(pld.system.world_size()):\n"
      "            pass\n";
  Context ctx;
  std::string errs;
  const Program* p = Parse(ctx, src, &errs);
  INFO(errs);
  REQUIRE(p);
  std::string once = PrintProgram(*p);
  CHECK(once == src);
  const Program* q = Parse(ctx, once, &errs);
  INFO(errs);
  REQUIRE(q);
  CHECK(PrintProgram(*q) == once);
  std::string why;
  CHECK(StructuralEqual(*p, *q, &why));
  INFO(why);
}

TEST_CASE("decorator constants and line offset", "[parser]") {
  ParseOptions opts;
  opts.constants = {{"N", "32"}, {"SHAPE", "[N, 8]"}};
  opts.line_offset = 100;
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx,
                                  "@pl.program\n"
                                  "class C:\n"
                                  "    @pl.function\n"
                                  "    def f(self, a: pl.Tensor[SHAPE, pl.FP32]):\n"
                                  "        x = N + 1\n",
                                  "user.py", diag, opts);
  INFO(diag.Render());
  REQUIRE(p);
  CHECK(TypeToString(p->functions[0]->params[0]->type) == "pl.Tensor[[32, 8], pl.FP32]");
  CHECK(PrintExpr(Cast<AssignStmt>(BodyStmt(p, 0, 0))->value) == "33");
  // Errors are reported at the user's line (offset applied) with the right source line.
  CHECK(Errors("@pl.program\nclass C:\n    @pl.function\n    def f(self):\n        y = oops\n",
               opts) == "105:13: undefined name 'oops'\n");
}

TEST_CASE("a hand-built program round-trips through text", "[parser][roundtrip]") {
  Context ctx;
  const Type* idx = ctx.Scalar(DataType::kIndex);
  Program prog;
  prog.name = "Built";
  const Var* nr = ctx.NewVar("NR", idx);
  prog.dynamic_dims.push_back(nr);

  // g(n) -> (INDEX, INDEX): returns n, n + NR
  auto* g = ctx.Make<Function>();
  g->name = "g";
  const Var* gn = ctx.NewVar("n", idx);
  g->params = {gn};
  g->param_dirs = {ParamDirection::kIn};
  g->return_types = {idx, idx};
  const Expr* sum = ctx.Make<BinaryExpr>(BinaryOp::kAdd, gn, nr, idx);
  g->body = ctx.Make<SeqStmt>(
      std::vector<const Stmt*>{ctx.Make<ReturnStmt>(std::vector<const Expr*>{gn, sum})});

  // f: hint collisions (x twice, a keyword, "pl", the dyn dim name), a tuple-returning
  // call, TupleGetItem, a while loop with iter args and a scope.
  auto* f = ctx.Make<Function>();
  f->name = "f";
  f->func_type = FunctionType::kOrchestration;
  const Var* x = ctx.NewVar("x", idx);
  f->params = {x};
  f->param_dirs = {ParamDirection::kIn};
  const Type* pair = ctx.Make<TupleType>(std::vector<const Type*>{idx, idx});
  const Var* t = ctx.NewVar("t", pair);
  const Var* x2 = ctx.NewVar("x", idx);
  const Var* kw = ctx.NewVar("lambda", idx);
  const Var* plv = ctx.NewVar("pl", idx);
  const Var* nr2 = ctx.NewVar("NR", idx);
  const IterArg* it = ctx.NewIterArg("it", idx, x2);
  const Var* done = ctx.NewVar("done", idx);
  const Expr* call = ctx.Make<Call>(nullptr, "g", std::vector<const Expr*>{x}, AttrList{},
                                    AttrList{{"device", Attr::Of(x)}}, pair);
  const Stmt* loop_body = ctx.Make<SeqStmt>(std::vector<const Stmt*>{ctx.Make<YieldStmt>(
      std::vector<const Expr*>{ctx.Make<BinaryExpr>(BinaryOp::kMul, it, ctx.Int(2), idx)})});
  const Stmt* loop = ctx.Make<WhileStmt>(
      ctx.Make<BinaryExpr>(BinaryOp::kLt, it, ctx.Int(100), ctx.Scalar(DataType::kBool)),
      std::vector<const IterArg*>{it}, loop_body, std::vector<const Var*>{done});
  f->body = ctx.Make<SeqStmt>(std::vector<const Stmt*>{
      ctx.Make<AssignStmt>(t, call), ctx.Make<AssignStmt>(x2, ctx.Make<TupleGetItem>(t, 1, idx)),
      ctx.Make<AssignStmt>(kw, ctx.Make<UnaryExpr>(UnaryOp::kNeg, x2, idx)),
      ctx.Make<AssignStmt>(plv, ctx.Make<BinaryExpr>(BinaryOp::kFloorMod, kw, ctx.Int(-3), idx)),
      ctx.Make<AssignStmt>(nr2, ctx.Make<BinaryExpr>(BinaryOp::kMax, plv, nr, idx)), loop,
      ctx.Make<HierarchyScopeStmt>(ctx.Make<SeqStmt>(std::vector<const Stmt*>{}), Level::kChip,
                                   Role::kOrchestrator),
      ctx.Make<ReturnStmt>(std::vector<const Expr*>{})});
  prog.functions = {f, g};

  std::string once = PrintProgram(prog);
  CHECK(once.find("        t: pl.Tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]] = self.g(x, "
                  "device=x)\n        x_1: pl.Scalar[pl.INDEX] = t[1]\n        lambda_1: "
                  "pl.Scalar[pl.INDEX] = -x_1\n        pl_1: pl.Scalar[pl.INDEX] = lambda_1 % -3\n"
                  "        NR_1: pl.Scalar[pl.INDEX] = pl.max(pl_1, NR)\n") != std::string::npos);
  CHECK(once.find("    def g(self, n: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX], "
                  "pl.Scalar[pl.INDEX]]:\n        return n, n + NR\n") != std::string::npos);
  DiagnosticEngine diag(&ctx.sources());
  const Program* q = ParseProgram(ctx, once, "built.pir", diag);
  INFO(diag.Render());
  INFO(once);
  REQUIRE(q);
  CHECK(PrintProgram(*q) == once);
  std::string why;
  CHECK(StructuralEqual(prog, *q, &why));
  INFO(why);
}

TEST_CASE("uniformly indented source (a nested class) parses", "[parser]") {
  Context ctx;
  std::string errs;
  const Program* p = Parse(ctx,
                           "    @pl.program\n"
                           "    class C:\n"
                           "        @pl.function\n"
                           "        def f(self, n: pl.Scalar[pl.INDEX]):\n"
                           "            x = n\n",
                           &errs);
  INFO(errs);
  REQUIRE(p);
  CHECK(p->name == "C");
  CHECK(Errors("    x = 1\n  y = 2\n") ==
        "2:3: unindent does not match any outer indentation level\n");
}

TEST_CASE("hostile input: every truncation and random edits never crash", "[parser][fuzz]") {
  const std::string src =
      std::string(kHeader) +
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def k(self, a: pl.Tensor[[16, 64], pl.FP32], n: pl.Scalar[pl.INDEX]):\n"
      "        t = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)\n"
      "        for i, (acc,) in pl.range(n, init_values=(t,)):\n"
      "            s = pl.add(acc, t)  # comment\n"
      "            acc_out = pl.yield_(s)\n"
      "        if n > 2:\n"
      "            r = pl.yield_(n * 2)\n"
      "        else:\n"
      "            r = pl.yield_(\"x\\n\")\n"
      "        return\n";
  uint64_t seed = 12345;
  auto rnd = [&seed]() {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>(seed >> 33);
  };
  const std::string alphabet = "()[]{}:,.=\n\t \"'#\\-+*@x1\xff\xc3";
  std::vector<std::string> inputs;
  for (size_t i = 0; i <= src.size(); ++i) inputs.push_back(src.substr(0, i));
  for (int k = 0; k < 400; ++k) {
    std::string s = src;
    for (int e = 0, n = 1 + static_cast<int>(rnd() % 3); e < n; ++e) {
      size_t p = rnd() % s.size();
      char c = alphabet[rnd() % alphabet.size()];
      switch (rnd() % 3) {
        case 0:
          s.erase(p, 1);
          break;
        case 1:
          s.insert(p, 1, c);
          break;
        default:
          s[p] = c;
      }
    }
    inputs.push_back(s);
  }
  int parsed = 0;
  for (const std::string& in : inputs) {
    Context ctx;
    DiagnosticEngine diag(&ctx.sources());
    const Program* p = nullptr;
    REQUIRE_NOTHROW(p = ParseProgram(ctx, in, "f.pir", diag));
    CHECK((p != nullptr) == !diag.HasErrors());
    if (!p) continue;
    ++parsed;
    std::string once = PrintProgram(*p);
    const Program* q = ParseProgram(ctx, once, "g.pir", diag);
    INFO(in);
    REQUIRE(q);
    CHECK(PrintProgram(*q) == once);
  }
  CHECK(parsed > 0);
}
