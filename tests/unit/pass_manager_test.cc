// Pass manager: registry and pipeline resolution, property contracts, the
// log stream (timing table), verify-each catching a broken pass, and
// the passes' results compared structurally (not by printed text).
#include "pypto/passes/pass_manager.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "pypto/ir/builder.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/structural_equal.h"
#include "pypto/ir/verifier.h"
#include "pypto/passes/passes.h"

using namespace pypto;
using namespace pypto::ir;
using namespace pypto::passes;

namespace {

const Program* Parse(Context& ctx, const std::string& text, DiagnosticEngine& diag) {
  const Program* p = ParseProgram(ctx, text, "test.pir", diag);
  REQUIRE(p != nullptr);
  REQUIRE(VerifyProgram(ctx, *p, diag));
  return p;
}

constexpr const char* kNonSSA = R"(import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, n: pl.Scalar[pl.INDEX]):
        x = n + 1
        for i in pl.range(4):
            x = x + i
        return x
)";

constexpr const char* kSSA = R"(import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, n: pl.Scalar[pl.INDEX]):
        x = n + 1
        for i, (x1,) in pl.range(4, init_values=(x,)):
            x2 = x1 + i
            x3 = pl.yield_(x2)
        return x3
)";

// A deliberately broken pass: re-binds the first assigned Var a second time.
class BreakSSAPass : public Pass {
 public:
  const Program* Run(Context& ctx, const Program& prog, DiagnosticEngine&) override {
    const Function* f = prog.functions[0];
    auto* seq = Cast<SeqStmt>(f->body);
    auto* first = Cast<AssignStmt>(seq->stmts[0]);
    std::vector<const Stmt*> stmts = seq->stmts;
    stmts.insert(stmts.begin() + 1, ctx.Make<AssignStmt>(first->var, first->value));
    Function* nf = ctx.Make<Function>(*f);
    nf->body = ctx.Make<SeqStmt>(stmts);
    Program* np = ctx.Make<Program>(prog);
    np->functions = {nf};
    return np;
  }
};

}  // namespace

TEST_CASE("registry lists every pass of the default pipeline", "[passes]") {
  auto names = NamedPipeline("default");
  REQUIRE(names);
  REQUIRE(names->size() == 18);
  for (const auto& n : *names) CHECK(FindPass(n) != nullptr);
  // Kernel normalization for the PTO backend: A-normal form before tile
  // conversion, early returns restructured after the last kernel pass.
  CHECK((*names)[3] == "flatten-call-args");
  CHECK((*names)[4] == "convert-tensor-to-tile-ops");
  CHECK((*names)[15] == "insert-comm-fence");
  CHECK((*names)[16] == "eliminate-early-returns");
  CHECK(names->back() == "simplify");
  for (const PassInfo& p : AllPasses()) {
    INFO(p.name);
    CHECK(static_cast<bool>(p.create));
  }
  CHECK(ProducerOf(IRProperty::kSSAForm)->name == "convert-to-ssa");
  CHECK(PipelineNames() == std::vector<std::string>{"default"});
}

TEST_CASE("pipeline text resolution and usage errors", "[passes]") {
  std::string err;
  auto spec = ResolvePipeline("convert-to-ssa, simplify", &err);
  REQUIRE(spec);
  REQUIRE(spec->passes.size() == 2);
  CHECK(spec->passes[1]->name == "simplify");
  CHECK(spec->name.empty());
  auto def = ResolvePipeline("default", &err);
  REQUIRE(def);
  CHECK(def->name == "default");
  CHECK(def->passes.size() == 18);

  CHECK_FALSE(ResolvePipeline("simplify,bogus", &err));
  CHECK(err.rfind(
            "unknown pass 'bogus'; valid passes: outline-incore-scopes, convert-to-ssa, simplify",
            0) == 0);
  CHECK_FALSE(ResolvePipeline("simplify,", &err));
  CHECK(err == "empty pass name in pipeline 'simplify,'; expected comma-separated pass names");
  // A single pass name resolves.
  CHECK(ResolvePipeline("lower-auto-vector-split", &err));
}

TEST_CASE("property contract: requirements name their producer", "[passes]") {
  std::string err;
  auto spec = ResolvePipeline("convert-tensor-to-tile-ops", &err);
  REQUIRE(spec);
  CHECK(CheckPipelineProperties(*spec, {IRProperty::kTypeChecked, IRProperty::kSplitIncoreOrch}) ==
        "pass convert-tensor-to-tile-ops requires property SSAForm, produced by pass "
        "convert-to-ssa; add it earlier in the pipeline");
  auto fixed = ResolvePipeline("convert-to-ssa,convert-tensor-to-tile-ops", &err);
  REQUIRE(fixed);
  CHECK(CheckPipelineProperties(*fixed, {IRProperty::kTypeChecked, IRProperty::kSplitIncoreOrch}) ==
        "");
}

TEST_CASE("property detection on parsed programs", "[passes]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* non_ssa = Parse(ctx, kNonSSA, diag);
  const Program* ssa = Parse(ctx, kSSA, diag);
  std::string why;
  CHECK_FALSE(CheckProperty(*non_ssa, IRProperty::kSSAForm, &why));
  CHECK(why == "function 'main': 'x' is assigned more than once");
  CHECK(CheckProperty(*ssa, IRProperty::kSSAForm));
  CHECK(DetectProperties(*ssa).Has(IRProperty::kSplitIncoreOrch));
  CHECK(PropertySet{IRProperty::kSSAForm, IRProperty::kTileOps2D}.ToString() ==
        "SSAForm, TileOps2D");
}

TEST_CASE("convert-to-ssa output is structurally the hand-written SSA form", "[passes]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* in = Parse(ctx, kNonSSA, diag);
  const Program* expected = Parse(ctx, kSSA, diag);
  std::ostringstream log;
  PassManagerOptions opts;
  opts.verify_each = true;
  opts.roundtrip_each = true;
  opts.log = &log;
  const Program* out = RunPipeline(ctx, *in, "convert-to-ssa", opts, diag);
  INFO(diag.Render());
  REQUIRE(out != nullptr);
  std::string why;
  CHECK(StructuralEqual(*out, *expected, &why));
  INFO(why);
  CHECK(log.str().empty());
}

TEST_CASE("named pipelines warn about nothing; the timing table goes to the log", "[passes]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* in = Parse(ctx, kSSA, diag);
  std::ostringstream log;
  PassManagerOptions opts;
  opts.log = &log;
  opts.time_passes = true;
  const Program* out = RunPipeline(ctx, *in, "default", opts, diag);
  REQUIRE(out != nullptr);
  std::string s = log.str();
  CHECK(s.find("warning") == std::string::npos);
  CHECK(s.find("  lower-composite-ops\n") != std::string::npos);
  CHECK(s.find("  lower-auto-vector-split\n") != std::string::npos);
  CHECK(s.find("Pass execution timing report") != std::string::npos);
  CHECK(s.find("  insert-comm-fence\n") != std::string::npos);
}

TEST_CASE("verify-each reports a pass that breaks SSA", "[passes]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* in = Parse(ctx, kSSA, diag);
  PassInfo broken{"break-ssa", "test", {}, {}, {}, [] { return std::make_unique<BreakSSAPass>(); }};
  PipelineSpec spec{"", {FindPass("convert-to-ssa"), &broken}};
  PassManagerOptions opts;
  opts.verify_each = true;
  PassManager pm(opts);
  const Program* out = pm.Run(ctx, *in, spec, {IRProperty::kTypeChecked}, diag);
  CHECK(out == nullptr);
  std::string r = diag.Render();
  CHECK(r.find("error: verification failed after pass 'break-ssa'") != std::string::npos);
}

TEST_CASE("every pass is a no-op or idempotent on its own output", "[passes]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* in = Parse(ctx, kSSA, diag);
  for (const PassInfo& p : AllPasses()) {
    const Program* once = p.create()->Run(ctx, *in, diag);
    REQUIRE(once != nullptr);
    const Program* twice = p.create()->Run(ctx, *once, diag);
    REQUIRE(twice != nullptr);
    INFO(p.name);
    CHECK(StructuralEqual(*once, *twice));
  }
}
