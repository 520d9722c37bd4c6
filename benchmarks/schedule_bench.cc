// Benchmark: the lowered credit barrier, three times in a row, on P = 8 .. 1024
// ranks under the random:1 and pct:1 schedules (one logical thread at a time)
// and the parallel one. Prints wall and CPU time of each run (the machine may be
// shared) and the ratio to the parallel schedule; the cost per switch point
// should stay flat as P grows (3 barriers cost about 9 P^2 switch points).
// Usage: schedule_bench [P ...]   (default 8 64 256)
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "lowered_program.h"
#include "pypto/sim/run.h"

using Clock = std::chrono::steady_clock;

static const char* kProgram = R"(import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Barriers:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        sig = pld.tensor.barrier(sig)
        sig = pld.tensor.barrier(sig)
        sig = pld.tensor.barrier(sig)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 1], pl.INT32]):
        sbuf = pld.tensor.alloc_window_buffer(4096)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.kernel(sig, device=r)
)";

struct Timed {
  double wall = 0, cpu = 0;  // seconds; cpu = user + system of the whole process
};

static double CpuNow() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
         (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static Timed Run(const pypto::ir::Program& p, pypto::ir::Context& ctx, int P,
                 const std::string& schedule) {
  pypto::sim::RunOptions o;
  o.ranks = P;
  o.inputs_random = true;  // x only binds NR
  o.inputs_seed = 1;
  std::string err;
  if (!pypto::sim::ParseSchedule(schedule, &o, &err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    std::exit(1);
  }
  auto t0 = Clock::now();
  double c0 = CpuNow();
  auto r = pypto::sim::RunProgram(ctx, p, {}, o);
  Timed s{std::chrono::duration<double>(Clock::now() - t0).count(), CpuNow() - c0};
  if (r.exit_code != 0) {
    std::fprintf(stderr, "%s", r.report.c_str());
    std::exit(1);
  }
  return s;
}

int main(int argc, char** argv) {
  std::vector<int> ranks;
  for (int i = 1; i < argc; ++i) ranks.push_back(std::atoi(argv[i]));
  if (ranks.empty()) ranks = {8, 64, 256};
  pypto::ir::Context ctx;
  const pypto::ir::Program* p = LoweredProgram(ctx, kProgram);
  for (int P : ranks) {
    Timed par = Run(*p, ctx, P, "parallel");
    for (const char* s : {"random:1", "pct:1"}) {
      Timed t = Run(*p, ctx, P, s);
      double switches = 9.0 * P * P;
      std::printf(
          "lowered barrier x3, P=%d: parallel %.3f s (cpu %.3f s), %s %.3f s (cpu %.3f s; "
          "%.2fx parallel, %.2f us per switch point)\n",
          P, par.wall, par.cpu, s, t.wall, t.cpu, t.wall / par.wall, t.wall / switches * 1e6);
      std::fflush(stdout);
    }
  }
  return 0;
}
