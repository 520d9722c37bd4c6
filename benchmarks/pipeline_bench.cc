// pipeline_bench: wall time of the default pipeline (and PTO emission) on
// generated programs, per pass, at two sizes each, to show growth is linear:
//   (a) one kernel with N distributed ops (N = 10^3 and 10^4),
//   (b) a program of K kernels of 100 ops each (K = 10 and 100),
//   (c) with --print-after-all, --roundtrip-each and the final IR printed
//       (pypto-opt --emit=ir), one kernel of 10^4 and 10^5 ops: the printer's
//       naming of many values sharing one name hint must stay linear.
// Prints a --time-passes style table per size and the time ratio between the
// sizes for the pipeline and for PTO emission (10x the work should cost ~10x;
// emission time is the best of 3 runs). No assertions: this is a measurement.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>

#include "pypto/codegen/pto_emitter.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/verifier.h"
#include "pypto/passes/pass_manager.h"

using namespace pypto;

namespace {

// One kernel body of `ops` distributed ops (put / notify / wait / remote_store
// in rotation; 1x8 tiles so the unshared staging tiles of 10^4 ops fit in UB).
std::string Kernel(const std::string& name, int ops) {
  std::string s = fmt::format(
      "    @pl.function(type=pl.FunctionType.InCore)\n"
      "    def {}(self, src: pl.Tensor[[1, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[1, "
      "8], pl.FP32]], "
      "signal: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32]):\n"
      "        acc = pl.tile.load(src, [0, 0], [1, 8], target_memory=pl.Mem.Vec)\n",
      name);
  for (int i = 0; i < ops; ++i) {
    switch (i % 4) {
      case 0:
        s += "        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)\n";
        break;
      case 1:
        s += "        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), "
             "op=pld.NotifyOp.AtomicAdd)\n";
        break;
      case 2:
        s += "        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)\n";
        break;
      case 3:
        s += "        pld.tile.remote_store(acc, dst, peer, [0, 0])\n";
        break;
    }
  }
  s += "        pl.tile.store(acc, [0, 0], dst)\n        return\n\n";
  return s;
}

std::string Program(int kernels, int ops_per_kernel) {
  std::string s =
      "import pypto.language as pl\nimport pypto.language.distributed as pld\n\n"
      "NR = pl.dynamic(\"NR\")\n\n\n@pl.program\nclass Bench:\n";
  for (int k = 0; k < kernels; ++k) s += Kernel(fmt::format("kernel_{}", k), ops_per_kernel);
  s += "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP)\n"
       "    def chip(self, x: pl.Tensor[[1, 8], pl.FP32], data: pld.DistributedTensor[[1, 8], "
       "pl.FP32], "
       "sig: pld.DistributedTensor[[NR, 1], pl.INT32]):\n"
       "        peer = pl.const(1, pl.INT32)\n";
  for (int k = 0; k < kernels; ++k)
    s += fmt::format("        self.kernel_{}(x, data, sig, peer)\n", k);
  s += "        return\n\n"
       "    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)\n"
       "    def host_orch(self, x: pl.Tensor[[NR, 1, 8], pl.FP32]):\n"
       "        buf = pld.tensor.alloc_window_buffer(4096)\n"
       "        data = pld.tensor.window(buf, [1, 8], dtype=pl.FP32)\n"
       "        sbuf = pld.tensor.alloc_window_buffer(64)\n"
       "        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)\n"
       "        for r in pl.range(pld.system.world_size()):\n"
       "            self.chip(x[r], data, sig, device=r)\n"
       "        return\n";
  return s;
}

struct Result {
  double pipeline = 0, emit = 0, parse = 0;
  std::string table;
};

// `printing` (c): every pass's output printed and round-tripped, and the final IR printed.
Result Measure(int kernels, int ops, bool printing = false) {
  using Clock = std::chrono::steady_clock;
  std::string text = Program(kernels, ops);
  ir::Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  auto t0 = Clock::now();
  const ir::Program* p = ir::ParseProgram(ctx, text, "bench.pir", diag);
  Result r;
  r.parse = std::chrono::duration<double>(Clock::now() - t0).count();
  if (!p || !ir::VerifyProgram(ctx, *p, diag)) {
    std::fputs(diag.Render().c_str(), stderr);
    return r;
  }
  std::ostringstream log;
  passes::PassManagerOptions opts;
  opts.time_passes = true;
  opts.print_after_all = printing;
  opts.roundtrip_each = printing;
  opts.log = &log;
  auto t1 = Clock::now();
  const ir::Program* out = passes::RunPipeline(ctx, *p, "default", opts, diag);
  std::string final_ir = out && printing ? ir::PrintProgram(*out) : "";
  r.pipeline = std::chrono::duration<double>(Clock::now() - t1).count();
  if (!out) {
    std::fputs(diag.Render().c_str(), stderr);
    return r;
  }
  // Keep the timing table, drop the skip warnings.
  std::string l = log.str();
  size_t pos = l.find("===---");
  r.table = pos == std::string::npos ? l : l.substr(pos);
  std::vector<codegen::PtoModule> mods;
  DiagnosticEngine ediag(&ctx.sources());
  for (int rep = 0; rep < 3; ++rep) {
    mods.clear();
    auto t2 = Clock::now();
    bool ok = codegen::EmitPto(ctx, *out, codegen::PtoOptions{}, &mods, ediag);
    double t = std::chrono::duration<double>(Clock::now() - t2).count();
    if (rep == 0 || t < r.emit) r.emit = t;
    if (!ok) {
      std::fputs(("emission failed:\n" + ediag.Render()).c_str(), stderr);
      break;
    }
  }
  return r;
}

void Compare(const char* what, int k1, int o1, int k2, int o2, bool printing = false) {
  Result a = Measure(k1, o1, printing), b = Measure(k2, o2, printing);
  std::printf("== %s: %d kernel(s) x %d ops ==\n%s", what, k1, o1, a.table.c_str());
  std::printf("   parse %.4fs  pipeline %.4fs  emit %.4fs\n\n", a.parse, a.pipeline, a.emit);
  std::printf("== %s: %d kernel(s) x %d ops ==\n%s", what, k2, o2, b.table.c_str());
  std::printf("   parse %.4fs  pipeline %.4fs  emit %.4fs\n", b.parse, b.pipeline, b.emit);
  double work = static_cast<double>(k2) * o2 / (static_cast<double>(k1) * o1);
  std::printf("   growth for %.0fx the ops: pipeline %.2fx, emit %.2fx (linear = %.0fx)\n\n", work,
              a.pipeline > 0 ? b.pipeline / a.pipeline : 0.0, a.emit > 0 ? b.emit / a.emit : 0.0,
              work);
}

}  // namespace

int main() {
  Measure(4, 100);  // warm-up: first-touch allocation and registry set-up
  Compare("one kernel", 1, 1000, 1, 10000);
  Compare("many kernels", 10, 100, 100, 100);
  Compare("one kernel, every pass printed and round-tripped, IR emitted", 1, 10000, 1, 100000,
          /*printing=*/true);
  return 0;
}
