// Benchmark: whole-operation allreduce of 2^24 FP32 elements (64 MiB per rank)
// on P = 2 and P = 4 simulated ranks in the parallel schedule. Prints the time
// per allreduce, the algorithm bandwidth (bytes per rank / time) in GB/s, and the
// ratio to a single-threaded memcpy of the same 64 MiB measured in the same run.
// Setup (window allocation, dispatch) is excluded by timing K and 0 iterations
// of the same program and taking the difference.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/sim/run.h"

using Clock = std::chrono::steady_clock;

static const int64_t kElems = int64_t(1) << 24;

static std::string Program(int iters) {
  return "# pypto.program: Bench\nimport pypto.language as pl\nimport pypto.language.distributed "
         "as pld\n\n"
         "NR = pl.dynamic(\"NR\")\n\n\n@pl.program\nclass Bench:\n"
         "    @pl.function(type=pl.FunctionType.InCore)\n"
         "    def k(self, data: pl.InOut[pld.DistributedTensor[[1, 16777216], pl.FP32]], "
         "sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):\n"
         "        for i in pl.range(" +
         std::to_string(iters) +
         "):\n"
         "            d2 = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum)\n"
         "        return\n";
}

// A ring of notify/wait hops: each iteration every rank notifies its right
// neighbour and waits for its left one (a monotonic epoch counter).
static std::string HopProgram(int iters) {
  return "# pypto.program: Hop\nimport pypto.language as pl\nimport pypto.language.distributed as "
         "pld\n\n"
         "NR = pl.dynamic(\"NR\")\n\n\n@pl.program\nclass Hop:\n"
         "    @pl.function(type=pl.FunctionType.InCore)\n"
         "    def k(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):\n"
         "        ctx = pld.get_comm_ctx(sig)\n        me = pld.rank(ctx)\n        n = "
         "pld.nranks(ctx)\n"
         "        for i in pl.range(" +
         std::to_string(iters) +
         "):\n"
         "            pld.system.notify(sig, (me + 1) % n, [0, 0], pl.const(1, pl.INT32), "
         "op=pld.NotifyOp.AtomicAdd)\n"
         "            pld.system.wait(sig, [0, 0], i + 1, cmp=pld.WaitCmp.Ge)\n"
         "        return\n";
}

static double RunOnce(int P, int iters, bool hop = false) {
  pypto::ir::Context ctx;
  pypto::DiagnosticEngine diag(&ctx.sources());
  const pypto::ir::Program* p =
      pypto::ir::ParseProgram(ctx, hop ? HopProgram(iters) : Program(iters), "bench.pir", diag);
  if (!p) {
    std::fprintf(stderr, "%s", diag.Render().c_str());
    std::exit(1);
  }
  pypto::sim::RunOptions o;
  o.ranks = P;
  auto t0 = Clock::now();
  auto r = pypto::sim::RunProgram(ctx, *p, {}, o);
  double s = std::chrono::duration<double>(Clock::now() - t0).count();
  if (r.exit_code != 0) {
    std::fprintf(stderr, "%s", r.report.c_str());
    std::exit(1);
  }
  return s;
}

int main() {
  const size_t bytes = static_cast<size_t>(kElems) * sizeof(float);
  std::vector<char> a(bytes, 1), b(bytes, 0);
  double best_copy = 1e9;
  for (int i = 0; i < 5; ++i) {
    auto t0 = Clock::now();
    std::memcpy(b.data(), a.data(), bytes);
    best_copy = std::min(best_copy, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  volatile char sink = b[bytes / 2];
  (void)sink;
  double copy_gbs = bytes / best_copy / 1e9;
  std::printf("memcpy (1 thread) of %zu MiB: %.2f ms, %.2f GB/s\n", bytes >> 20, best_copy * 1e3,
              copy_gbs);
  const int K = 8;
  for (int P : {2, 4}) {
    double base = 1e9, full = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      base = std::min(base, RunOnce(P, 0));
      full = std::min(full, RunOnce(P, K));
    }
    double per = (full - base) / K;
    double alg_gbs = bytes / per / 1e9;
    std::printf(
        "allreduce FP32 2^24 P=%d (parallel): %.2f ms per call, algBW %.2f GB/s, busBW %.2f GB/s, "
        "algBW / memcpy = %.2f\n",
        P, per * 1e3, alg_gbs, alg_gbs * 2.0 * (P - 1) / P, alg_gbs / copy_gbs);
  }
  const int H = 2000;
  for (int P : {2, 8}) {
    double base = 1e9, full = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      base = std::min(base, RunOnce(P, 0, true));
      full = std::min(full, RunOnce(P, H, true));
    }
    std::printf("notify/wait ring hop, P=%d ranks on this machine (parallel): %.2f us per round\n",
                P, (full - base) / H * 1e6);
  }
  return 0;
}
