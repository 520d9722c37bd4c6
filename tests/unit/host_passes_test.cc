// The host-rail passes (synthesize-allreduce-signals, materialize-comm-domain-
// scopes, lower-host-tensor-collectives) on IR that text cannot express
// (duplicate window names built with the IRBuilder), their determinism, the
// CommDomainScopesMaterialized detector, and the binding of every view.
#include <catch2/catch.hpp>

#include "pypto/ir/builder.h"
#include "pypto/ir/casting.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/verifier.h"
#include "pypto/passes/pass_manager.h"
#include "pypto/passes/passes.h"

using namespace pypto;
using namespace pypto::ir;
using namespace pypto::passes;

namespace {

constexpr const char* kHost = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class H:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, data: pl.InOut[pld.DistributedTensor[[16, 64], pl.FP32]]):
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        buf = pld.tensor.alloc_window_buffer(4096)
        data = pld.tensor.window(buf, [16, 64], dtype=pl.FP32)
        for r in pl.range(2):
            self.chip(data, device=r)
        data = pld.tensor.allreduce(data)
        other = data
        pld.tensor.allreduce(other)
)";

const Program* Parse(Context& ctx, const char* text) {
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, text, "host.pir", diag);
  INFO(diag.Render());
  REQUIRE(p != nullptr);
  REQUIRE(VerifyProgram(ctx, *p, diag));
  return p;
}

const Program* Run(Context& ctx, const Program* p, const char* pipeline, DiagnosticEngine& diag) {
  PassManagerOptions o;
  o.verify_each = true;
  o.roundtrip_each = true;
  return RunPipeline(ctx, *p, pipeline, o, diag);
}

}  // namespace

TEST_CASE("host passes: output is deterministic and names are program-unique") {
  std::string first;
  for (int i = 0; i < 2; ++i) {
    Context ctx;
    DiagnosticEngine diag(&ctx.sources());
    const Program* out = Run(
        ctx, Parse(ctx, kHost),
        "synthesize-allreduce-signals,materialize-comm-domain-scopes,lower-host-tensor-collectives",
        diag);
    INFO(diag.Render());
    REQUIRE(out != nullptr);
    std::string text = PrintProgram(*out);
    if (i == 0) first = text;
    CHECK(text == first);
    CHECK(text.find("__allreduce_signal_buf_0") != std::string::npos);
    CHECK(text.find("__allreduce_signal_buf_1") != std::string::npos);
    CHECK(text.find("devices=[0, 1], slots=[\"buf\", \"__allreduce_signal_buf_0\", "
                    "\"__allreduce_signal_buf_1\"]") != std::string::npos);
    CHECK(text.find("pld.tensor.allreduce(") == std::string::npos);
  }
}

TEST_CASE("host passes: every view and alias is bound and the detector sees the scopes") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = Parse(ctx, kHost);
  CHECK_FALSE(CheckProperty(*p, IRProperty::kCommDomainScopesMaterialized));
  const Program* out =
      Run(ctx, p, "synthesize-allreduce-signals,materialize-comm-domain-scopes", diag);
  INFO(diag.Render());
  REQUIRE(out != nullptr);
  std::string why;
  CHECK(CheckProperty(*out, IRProperty::kCommDomainScopesMaterialized, &why));
  INFO(why);
  const Function* host = out->Find("host_orch");
  REQUIRE(host != nullptr);
  int bound = 0, unbound = 0;
  std::function<void(const Stmt*)> visit = [&](const Stmt* s) {
    if (auto* seq = As<SeqStmt>(s))
      for (const Stmt* x : seq->stmts) visit(x);
    else if (auto* sc = As<ScopeStmt>(s))
      visit(sc->body);
    else if (auto* f = As<ForStmt>(s))
      visit(f->body);
    else if (auto* a = As<AssignStmt>(s))
      if (auto* d = As<DistributedTensorType>(a->var->type))
        (d->window_buffer.empty() ? unbound : bound)++;
  };
  visit(host->body);
  CHECK(bound == 5);  // data (view and allreduce result), two signals, other (alias)
  CHECK(unbound == 0);
}

TEST_CASE("materialize-comm-domain-scopes rejects duplicate window names") {
  Context ctx;
  IRBuilder b(ctx);
  const DistributedTensorType* dt = b.DistTensorT(b.Shape({16, 64}), DataType::kFP32);
  const Function* chip = b.BuildFunction({"chip", FunctionType::kOrchestration},
                                         {{"data", dt, ParamDirection::kInOut}},
                                         [&](const std::vector<const Var*>&) { b.Return(); });
  const Function* host = b.BuildFunction(
      {"host_orch", FunctionType::kOpaque, Level::kHost, Role::kOrchestrator}, {},
      [&](const std::vector<const Var*>&) {
        for (int i = 0; i < 2; ++i) {
          const Var* buf = b.Assign("w", b.Op("pld.tensor.alloc_window_buffer", {b.Int(4096)},
                                              {{"name", Attr::Str("w")}}));
          const Var* v = b.Assign("v", b.Op("pld.tensor.window", {buf, b.IndexTuple({16, 64})},
                                            {{"dtype", Attr::DType(DataType::kFP32)}}));
          b.Eval(b.CallFunction(*chip, {v}, {{"device", Attr::Int(0)}}));
        }
      });
  const Program* p = b.BuildProgram("Dup", {chip, host});
  DiagnosticEngine diag(&ctx.sources());
  REQUIRE(CreateMaterializeCommDomainScopesPass()->Run(ctx, *p, diag) == nullptr);
  REQUIRE(diag.ErrorCount() == 1);
  CHECK(diag.diagnostics()[0].message.find(
            "pld.tensor.alloc_window_buffer: window name 'w' is already used by the allocation "
            "at ") == 0);
  CHECK(diag.diagnostics()[0].message.find("every window allocation needs a unique name") !=
        std::string::npos);
}
