// Benchmark: the cost of --detect-races on the lowered mesh allreduce of
// 8 ranks x 1 MiB FP32 windows. Each configuration runs in a forked child so
// its peak RSS (wait4's ru_maxrss) is its own; prints wall time and peak RSS
// without and with the detector and their ratios.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lowered_program.h"
#include "pypto/sim/run.h"

using Clock = std::chrono::steady_clock;

static const int kRanks = 8;
static const char* kN = "262144";  // FP32 elements: 1 MiB per rank

static std::string Program() {
  std::string t = R"(import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class MeshAllReduce:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, @N@], pl.FP32], data: pl.InOut[pld.DistributedTensor[[1, @N@], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], y: pl.Out[pl.Tensor[[1, @N@], pl.FP32]]):
        t = pl.tile.load(x, [0, 0], [1, @N@])
        data = pl.tile.store(t, [0, 0], data)
        data = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum)
        u = pl.tile.load(data, [0, 0], [1, @N@])
        y = pl.tile.store(u, [0, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 1, @N@], pl.FP32], y: pl.Out[pl.Tensor[[NR, 1, @N@], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(@N@ * 4)
        sbuf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [1, @N@], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.kernel(x[r], data, sig, y[r], device=r)
)";
  for (size_t at; (at = t.find("@N@")) != std::string::npos;) t.replace(at, 3, kN);
  return t;
}

// Runs the program in this (child) process; exit status 0 on a clean run.
static int Child(bool detect) {
  pypto::ir::Context ctx;
  const pypto::ir::Program* p = LoweredProgram(ctx, Program());
  pypto::sim::RunOptions o;
  o.ranks = kRanks;
  o.detect_races = detect;
  o.inputs_random = true;
  o.inputs_seed = 1;
  auto r = pypto::sim::RunProgram(ctx, *p, {}, o);
  if (r.exit_code != 0) std::fputs(r.report.c_str(), stderr);
  return r.exit_code;
}

struct Measured {
  double seconds = 0;
  long max_rss_kb = 0;
};

static Measured Measure(bool detect) {
  auto t0 = Clock::now();
  pid_t pid = fork();
  if (pid == 0) _exit(Child(detect));
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  Measured m{std::chrono::duration<double>(Clock::now() - t0).count(), ru.ru_maxrss};
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "run %s failed\n", detect ? "with --detect-races" : "without detector");
    std::exit(1);
  }
  return m;
}

int main() {
  Measured off{1e9, 0}, on{1e9, 0};
  for (int rep = 0; rep < 3; ++rep) {
    Measured a = Measure(false), b = Measure(true);
    if (a.seconds < off.seconds) off = a;
    if (b.seconds < on.seconds) on = b;
  }
  std::printf("lowered mesh allreduce, %d ranks x 1 MiB FP32 (parallel, best of 3):\n", kRanks);
  std::printf("  without --detect-races: %.3f s, peak RSS %.1f MiB\n", off.seconds,
              off.max_rss_kb / 1024.0);
  std::printf("  with    --detect-races: %.3f s, peak RSS %.1f MiB\n", on.seconds,
              on.max_rss_kb / 1024.0);
  std::printf("  ratio: time %.2fx, peak RSS %.2fx\n", on.seconds / off.seconds,
              static_cast<double>(on.max_rss_kb) / off.max_rss_kb);
  return 0;
}
