// PassManager: runs a resolved pipeline with property checks and the
// verify / round-trip / print / time instrumentation (see pass_manager.h).
#include "pypto/passes/pass_manager.h"

#include <fmt/format.h>

#include <chrono>
#include <iostream>
#include <sstream>

#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/structural_equal.h"
#include "pypto/ir/verifier.h"

namespace pypto::passes {

std::ostream& PassManager::log() const { return opts_.log ? *opts_.log : std::cerr; }

static std::string FirstTextDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  int line = 0;
  while (true) {
    bool ga = static_cast<bool>(std::getline(sa, la));
    bool gb = static_cast<bool>(std::getline(sb, lb));
    ++line;
    if (!ga && !gb) return "texts differ only in trailing newline";
    if (!ga || !gb || la != lb)
      return fmt::format("line {}: first print '{}', second print '{}'", line,
                         ga ? la : std::string("<end>"), gb ? lb : std::string("<end>"));
  }
}

bool PassManager::VerifyAfter(ir::Context& ctx, const ir::Program& p, const std::string& pass,
                              DiagnosticEngine& diag) {
  ir::VerifyOptions vo;
  vo.ssa = props_.Has(IRProperty::kSSAForm);
  bool ok = ir::VerifyProgram(ctx, p, diag, vo);
  if (!ok) {
    diag.Error(Span{}, fmt::format("verification failed after pass '{}'", pass));
    return false;
  }
  // Structural checks of the detectable properties the pipeline claims hold
  // (SSA form once SSAForm holds, ...): a pass that breaks them is a bug.
  bool props_ok = true;
  props_.ForEach([&](IRProperty prop) {
    if (!props_ok || !IsDetectable(prop)) return;
    std::string why;
    if (!CheckProperty(p, prop, &why)) {
      props_ok = false;
      diag.Error(Span{}, fmt::format("after pass '{}': property {} does not hold: {}", pass,
                                     PropertyName(prop), why));
    }
  });
  return props_ok;
}

bool PassManager::RoundTripAfter(const ir::Program& p, const std::string& pass,
                                 DiagnosticEngine& diag) {
  std::string text1 = ir::PrintProgram(p);
  ir::ParseOptions po;
  po.allow_internal_ops = true;
  // The re-parsed copy lives in a scratch context freed on return, so a
  // pipeline run with --roundtrip-each holds two programs, not one per pass.
  ir::Context scratch;
  DiagnosticEngine scratch_diag(&scratch.sources());
  const ir::Program* p2 =
      ir::ParseProgram(scratch, text1, fmt::format("<roundtrip after {}>", pass), scratch_diag, po);
  if (!p2) {
    diag.Error(Span{}, fmt::format("roundtrip after pass '{}': the printed IR does not parse:\n{}",
                                   pass, scratch_diag.Render()));
    return false;
  }
  std::string why;
  if (!ir::StructuralEqual(p, *p2, &why)) {
    diag.Error(Span{},
               fmt::format("roundtrip after pass '{}': re-parsed IR is not structurally equal: {}",
                           pass, why));
    return false;
  }
  std::string text2 = ir::PrintProgram(*p2);
  if (text1 != text2) {
    diag.Error(Span{}, fmt::format("roundtrip after pass '{}': printing is not stable: {}", pass,
                                   FirstTextDifference(text1, text2)));
    return false;
  }
  return true;
}

const ir::Program* PassManager::Run(ir::Context& ctx, const ir::Program& prog,
                                    const PipelineSpec& spec, PropertySet initial,
                                    DiagnosticEngine& diag) {
  using Clock = std::chrono::steady_clock;
  props_ = initial;
  timings_.clear();
  std::string err = CheckPipelineProperties(spec, initial);
  if (!err.empty()) {
    diag.Error(Span{}, err);
    return nullptr;
  }
  const ir::Program* cur = &prog;
  for (const PassInfo* info : spec.passes) {
    auto pass = info->create();
    auto t0 = Clock::now();
    const ir::Program* next = pass->Run(ctx, *cur, diag);
    double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    timings_.push_back({info->name, secs});
    if (!next || diag.HasErrors()) {
      if (next == nullptr && !diag.HasErrors())
        diag.Error(Span{}, fmt::format("pass '{}' failed", info->name));
      return nullptr;
    }
    cur = next;
    props_ = props_.Without(info->invalidated);
    props_ |= info->produced;
    if (opts_.verify_each) {
      auto v0 = Clock::now();
      bool ok = VerifyAfter(ctx, *cur, info->name, diag);
      timings_.push_back({"(verify)", std::chrono::duration<double>(Clock::now() - v0).count()});
      if (!ok) return nullptr;
    }
    if (opts_.roundtrip_each) {
      auto r0 = Clock::now();
      bool ok = RoundTripAfter(*cur, info->name, diag);
      timings_.push_back({"(roundtrip)", std::chrono::duration<double>(Clock::now() - r0).count()});
      if (!ok) return nullptr;
    }
    bool print = opts_.print_after_all;
    for (const auto& n : opts_.print_after) print |= n == info->name;
    if (print) {
      log() << "// -----// IR after " << info->name << " //----- //\n" << ir::PrintProgram(*cur);
      log().flush();
    }
  }
  if (opts_.time_passes) log() << TimingReport();
  return cur;
}

std::string PassManager::TimingReport() const {
  // Aggregate repeated entries (simplify runs twice; verify/roundtrip rows sum up)
  // in first-run order.
  std::vector<Timing> rows;
  double total = 0;
  for (const Timing& t : timings_) {
    total += t.seconds;
    bool merged = false;
    for (Timing& r : rows)
      if (r.pass == t.pass) {
        r.seconds += t.seconds;
        merged = true;
      }
    if (!merged) rows.push_back(t);
  }
  std::string out;
  out += "===-------------------------------------------------------------------------===\n";
  out += "                      ... Pass execution timing report ...\n";
  out += "===-------------------------------------------------------------------------===\n";
  out += fmt::format("  Total Execution Time: {:.6f} seconds\n\n", total);
  out += "   Wall Time (%)       Name\n";
  for (const Timing& r : rows)
    out += fmt::format("  {:10.6f} ({:5.1f}%)  {}\n", r.seconds,
                       total > 0 ? 100.0 * r.seconds / total : 0.0, r.pass);
  out += fmt::format("  {:10.6f} (100.0%)  Total\n", total);
  return out;
}

const ir::Program* RunPipeline(ir::Context& ctx, const ir::Program& prog, std::string_view pipeline,
                               const PassManagerOptions& opts, DiagnosticEngine& diag) {
  std::string err;
  auto spec = ResolvePipeline(pipeline, &err);
  if (!spec) {
    diag.Error(Span{}, err);
    return nullptr;
  }
  PropertySet initial = DetectProperties(prog);
  initial.Add(IRProperty::kTypeChecked);
  PassManager pm(opts);
  return pm.Run(ctx, prog, *spec, initial, diag);
}

}  // namespace pypto::passes
