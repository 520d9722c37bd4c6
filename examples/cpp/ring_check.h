// What both C++ examples do once they hold a Program: run the default pipeline,
// emit PTO MLIR, run the lowered program on simulated ranks through the C++
// executor API (pypto/sim/run.h), and check the ring exchange against its oracle
// (rank r's output is rank r-1's input). Header-only so each example stays one
// translation unit that an outside build compiles alone.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "pypto/codegen/pto_emitter.h"
#include "pypto/core/diagnostics.h"
#include "pypto/ir/context.h"
#include "pypto/ir/program.h"
#include "pypto/ir/verifier.h"
#include "pypto/passes/pass_manager.h"
#include "pypto/sim/run.h"

namespace ring_example {

// Verifies `prog`, lowers it with the default pipeline, emits PTO and runs it on
// `ranks` simulated ranks; returns the process exit code (0 = right answer).
inline int CompileRunAndCheck(pypto::ir::Context& ctx, const pypto::ir::Program& prog, int ranks) {
  using namespace pypto;
  DiagnosticEngine diag(&ctx.sources());
  if (!ir::VerifyProgram(ctx, prog, diag)) {
    std::fprintf(stderr, "%s", diag.Render().c_str());
    return 1;
  }
  const ir::Program* lowered = passes::RunPipeline(ctx, prog, "default", {}, diag);
  if (lowered == nullptr) {
    std::fprintf(stderr, "%s", diag.Render().c_str());
    return 1;
  }
  std::vector<codegen::PtoModule> modules;
  if (!codegen::EmitPto(ctx, *lowered, {}, &modules, diag)) {
    std::fprintf(stderr, "%s", diag.Render().c_str());
    return 1;
  }
  for (const codegen::PtoModule& m : modules)
    std::printf("pto module %s: %zu bytes\n", m.name.c_str(), m.text.size());

  // x[r] = r * 1024 + i: every block distinct, every value exact in FP32.
  const int64_t block = 16 * 64;
  sim::HostArray x;
  x.dtype = DataType::kFP32;
  x.shape = {ranks, 16, 64};
  x.bytes.resize(static_cast<size_t>(ranks * block) * sizeof(float));
  std::vector<float> xs(static_cast<size_t>(ranks * block));
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i);
  std::memcpy(x.bytes.data(), xs.data(), x.bytes.size());

  sim::RunOptions opts;
  opts.ranks = ranks;
  opts.check_signals = true;
  sim::RunResult r = sim::RunProgram(ctx, *lowered, {{"x", x}}, opts);
  if (r.exit_code != 0) {
    std::fprintf(stderr, "run failed (exit %d):\n%s", r.exit_code, r.report.c_str());
    return 1;
  }
  auto it = r.outputs.find("y");
  if (it == r.outputs.end() || it->second.bytes.size() != x.bytes.size()) {
    std::fprintf(stderr, "run produced no output y of the input's size\n");
    return 1;
  }
  std::vector<float> ys(xs.size());
  std::memcpy(ys.data(), it->second.bytes.data(), it->second.bytes.size());
  for (int rank = 0; rank < ranks; ++rank) {
    const int left = (rank + ranks - 1) % ranks;
    for (int64_t i = 0; i < block; ++i) {
      const float want = xs[static_cast<size_t>(left * block + i)];
      const float got = ys[static_cast<size_t>(rank * block + i)];
      if (got != want) {
        std::fprintf(stderr, "WRONG: rank %d element %lld is %g, expected %g\n", rank,
                     static_cast<long long>(i), got, want);
        return 1;
      }
    }
  }
  std::printf("OK: y[r] == x[r-1] on all %d ranks (%lld elements)\n", ranks,
              static_cast<long long>(ranks * block));
  return 0;
}

}  // namespace ring_example
