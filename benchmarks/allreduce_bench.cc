// Benchmark: allreduce of 2^24 FP32 elements (64 MiB per rank) in the parallel
// schedule, as one whole operation and LOWERED (lower-composite-ops, mode="ring"
// and mode="mesh") at P = 2, 4, 8, against a single-threaded memcpy of the same
// 64 MiB and against Open MPI's MPI_Allreduce of the same data measured in the
// same invocation (a small MPI program is built with mpicxx and launched with
// mpirun --oversubscribe when both are on PATH). Also the cost of one
// notify/wait hop of a ring at P = 2 and P = 8, and the MPI engine (pypto-run
// --transport=mpi under mpirun, one rank per process) against the in-process
// engine on the same lowered ring allreduce and hop programs at P = 2 and 4,
// both through the pypto-run CLI. Prints times and ratios only;
// it asserts nothing. Setup (window allocation, dispatch, lowering) is excluded
// by timing K and 0 iterations of the same program and taking the difference;
// each figure is the median of 3 such pairs.
//
// Usage: allreduce_bench [K [FILTER]]   K iterations per timed run (default 4);
// FILTER (e.g. "ring", "P=2", "hop") keeps only the lines containing it (for perf).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "pypto/core/diagnostics.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/verifier.h"
#include "pypto/passes/pass_manager.h"
#include "pypto/sim/run.h"

using Clock = std::chrono::steady_clock;

static const int64_t kElems = int64_t(1) << 24;
static const size_t kBytes = static_cast<size_t>(kElems) * sizeof(float);

enum class Kind { kWhole, kRing, kMesh, kHop };

static const char* KindName(Kind k) {
  switch (k) {
    case Kind::kWhole:
      return "whole-op";
    case Kind::kRing:
      return "lowered ring";
    case Kind::kMesh:
      return "lowered mesh";
    case Kind::kHop:
      return "hop";
  }
  return "?";
}

static std::string Header(const char* cls) {
  return std::string("# pypto.program: ") + cls +
         "\nimport pypto.language as pl\nimport pypto.language.distributed as pld\n\n"
         "NR = pl.dynamic(\"NR\")\n\n\n@pl.program\nclass " +
         cls + ":\n    @pl.function(type=pl.FunctionType.InCore)\n";
}

// `iters` allreduces of a [1, 2^24] FP32 window; the ring needs a static
// [2*(P-1), P] signal, the others a [NR, 1] one.
static std::string AllreduceProgram(Kind k, int P, int iters) {
  std::string sig = k == Kind::kRing
                        ? "[" + std::to_string(2 * (P - 1)) + ", " + std::to_string(P) + "]"
                        : "[NR, 1]";
  std::string mode = k == Kind::kRing   ? ", mode=\"ring\""
                     : k == Kind::kMesh ? ", mode=\"mesh\""
                                        : "";
  return Header("Bench") +
         "    def k(self, data: pl.InOut[pld.DistributedTensor[[1, 16777216], pl.FP32]], "
         "sig: pl.InOut[pld.DistributedTensor[" +
         sig + ", pl.INT32]]):\n        for i in pl.range(" + std::to_string(iters) +
         "):\n            pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum" + mode +
         ")\n        return\n";
}

// A ring of notify/wait hops: each iteration every rank notifies its right
// neighbour and waits for its left one (a monotonic epoch counter).
static std::string HopProgram(int iters) {
  return Header("Hop") +
         "    def k(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):\n"
         "        ctx = pld.get_comm_ctx(sig)\n        me = pld.rank(ctx)\n"
         "        n = pld.nranks(ctx)\n        for i in pl.range(" +
         std::to_string(iters) +
         "):\n            pld.system.notify(sig, (me + 1) % n, [0, 0], pl.const(1, pl.INT32), "
         "op=pld.NotifyOp.AtomicAdd)\n"
         "            pld.system.wait(sig, [0, 0], i + 1, cmp=pld.WaitCmp.Ge)\n        return\n";
}

// Seconds for one RunProgram of the program (lowered first for ring / mesh;
// the lowering is outside the timed region).
static double RunOnce(Kind k, int P, int iters) {
  pypto::ir::Context ctx;
  pypto::DiagnosticEngine diag(&ctx.sources());
  std::string text = k == Kind::kHop ? HopProgram(iters) : AllreduceProgram(k, P, iters);
  const pypto::ir::Program* p = pypto::ir::ParseProgram(ctx, text, "bench.pir", diag);
  if (p && (k == Kind::kRing || k == Kind::kMesh)) {
    if (pypto::ir::VerifyProgram(ctx, *p, diag))
      p = pypto::passes::RunPipeline(ctx, *p, "lower-composite-ops", {}, diag);
    else
      p = nullptr;
  }
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

static double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Seconds per iteration: median over 3 pairs of (K iterations - 0 iterations) / K.
static double PerIter(Kind k, int P, int K) {
  std::vector<double> d;
  for (int rep = 0; rep < 3; ++rep) d.push_back((RunOnce(k, P, K) - RunOnce(k, P, 0)) / K);
  return Median(d);
}

// ---------------------------------------------------------------- MPI
static const char* kMpiSource =
    R"(// MPI_Allreduce of 2^24 FP32 (sum), median seconds per call on rank 0.
#include <mpi.h>
#include <algorithm>
#include <cstdio>
#include <vector>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me; MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const int n = 1 << 24, K = argc > 1 ? std::atoi(argv[1]) : 4;
  std::vector<float> in(n, float(me + 1)), out(n);
  MPI_Allreduce(in.data(), out.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  std::vector<double> t;
  for (int i = 0; i < K; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Allreduce(in.data(), out.data(), n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    double s = MPI_Wtime() - t0, m;
    MPI_Reduce(&s, &m, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    t.push_back(m);
  }
  std::sort(t.begin(), t.end());
  if (me == 0) std::printf("%.9f\n", t[t.size() / 2]);
  MPI_Finalize();
  return 0;
}
)";

static bool OnPath(const char* tool) {
  return std::system((std::string("command -v ") + tool + " >/dev/null 2>&1").c_str()) == 0;
}

// Builds the MPI program once; "" when Open MPI is not installed or it fails.
static std::string BuildMpi() {
  if (!OnPath("mpicxx") || !OnPath("mpirun")) return "";
  char dir[] = "/tmp/pypto_allreduce_bench_XXXXXX";
  if (!mkdtemp(dir)) return "";
  std::string src = std::string(dir) + "/mpi_allreduce.cc", exe = std::string(dir) + "/mpi_ar";
  std::ofstream(src) << kMpiSource;
  std::string cmd = "mpicxx -O2 -o " + exe + " " + src + " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0 ? exe : "";
}

// Median seconds per MPI_Allreduce at P processes; negative when it fails.
static double MpiAllreduce(const std::string& exe, int P, int K) {
  std::string cmd = "mpirun --oversubscribe --allow-run-as-root -np " + std::to_string(P) + " " +
                    exe + " " + std::to_string(std::max(K, 3)) + " 2>/dev/null";
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return -1;
  double s = -1;
  if (std::fscanf(f, "%lf", &s) != 1) s = -1;
  pclose(f);
  return s;
}

// ---------------------------------------------------------------- MPI engine
// The program RunOnce runs, lowered, as IR text in `path`.
static void WriteProgram(Kind k, int P, int iters, const std::string& path) {
  pypto::ir::Context ctx;
  pypto::DiagnosticEngine diag(&ctx.sources());
  std::string text = k == Kind::kHop ? HopProgram(iters) : AllreduceProgram(k, P, iters);
  const pypto::ir::Program* p = pypto::ir::ParseProgram(ctx, text, "bench.pir", diag);
  if (p && k == Kind::kRing && pypto::ir::VerifyProgram(ctx, *p, diag))
    p = pypto::passes::RunPipeline(ctx, *p, "lower-composite-ops", {}, diag);
  if (!p) {
    std::fprintf(stderr, "%s", diag.Render().c_str());
    std::exit(1);
  }
  std::ofstream(path) << pypto::ir::PrintProgram(*p);
}

// Wall seconds of one pypto-run of the program at P ranks, in-process or under
// mpirun (--transport=mpi); negative when the run fails.
static double CliOnce(const std::string& run, Kind k, int P, int iters, bool mpi) {
  std::string path = "/tmp/pypto_allreduce_bench_" + std::to_string(getpid()) + ".pir";
  WriteProgram(k, P, iters, path);
  std::string cmd = mpi ? "mpirun --oversubscribe --allow-run-as-root -np " + std::to_string(P) +
                              " " + run + " " + path + " --entry k --transport=mpi"
                        : run + " " + path + " --entry k --ranks " + std::to_string(P);
  cmd += " --output-dir /tmp >/dev/null 2>&1";
  auto t0 = Clock::now();
  int rc = std::system(cmd.c_str());
  double s = std::chrono::duration<double>(Clock::now() - t0).count();
  std::remove(path.c_str());
  return rc == 0 ? s : -1;
}

// Seconds per iteration through the CLI (process start-up and setup cancel in
// the K - 0 difference): median of 3 pairs; negative when a run fails.
static double CliPerIter(const std::string& run, Kind k, int P, int K, bool mpi) {
  std::vector<double> d;
  for (int rep = 0; rep < 3; ++rep) {
    double a = CliOnce(run, k, P, K, mpi), b = CliOnce(run, k, P, 0, mpi);
    if (a < 0 || b < 0) return -1;
    d.push_back((a - b) / K);
  }
  return Median(d);
}

static std::string g_filter;
static bool Want(const std::string& line) { return line.find(g_filter) != std::string::npos; }

int main(int argc, char** argv) {
  int K = argc > 1 ? std::max(1, std::atoi(argv[1])) : 4;
  if (argc > 2) g_filter = argv[2];
  std::vector<char> a(kBytes, 1), b(kBytes, 0);
  std::vector<double> copies;
  for (int i = 0; i < 5; ++i) {
    auto t0 = Clock::now();
    std::memcpy(b.data(), a.data(), kBytes);
    copies.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  volatile char sink = b[kBytes / 2];
  (void)sink;
  double copy = Median(copies);
  std::printf("memcpy (1 thread) of %zu MiB: %.2f ms, %.2f GB/s\n", kBytes >> 20, copy * 1e3,
              kBytes / copy / 1e9);
  std::string mpi = BuildMpi();
  if (mpi.empty()) std::printf("MPI: mpicxx/mpirun not found or the build failed; no MPI ratios\n");
  for (int P : {2, 4, 8}) {
    std::string p = "P=" + std::to_string(P) + " ";
    double m = mpi.empty() || !Want(p + "MPI ring mesh whole-op") ? -1 : MpiAllreduce(mpi, P, K);
    if (m > 0)
      std::printf("P=%d MPI_Allreduce (Open MPI, %d processes, --oversubscribe): %.2f ms\n", P, P,
                  m * 1e3);
    for (Kind k : {Kind::kWhole, Kind::kRing, Kind::kMesh}) {
      if (!Want(p + KindName(k))) continue;
      double s = PerIter(k, P, K);
      std::printf("P=%d %-12s allreduce FP32 2^24: %8.2f ms  / memcpy = %6.2f", P, KindName(k),
                  s * 1e3, s / copy);
      if (m > 0) std::printf("  / MPI = %6.2f", s / m);
      std::printf("\n");
    }
  }
  const int H = 2000;
  for (int P : {2, 8})
    if (Want("hop P=" + std::to_string(P)))
      std::printf("notify/wait ring hop, P=%d (parallel): %.2f us per round\n", P,
                  PerIter(Kind::kHop, P, H) * 1e6);
  // The MPI engine needs pypto-run (next to this binary) built with MPI, and mpirun.
  std::string self(4096, '\0');
  ssize_t n = readlink("/proc/self/exe", self.data(), self.size() - 1);
  std::string run = n > 0 ? self.substr(0, self.rfind('/', n)) + "/pypto-run" : "pypto-run";
  if (!OnPath("mpirun")) {
    std::printf("MPI engine: mpirun not found; no MPI engine ratios\n");
    return 0;
  }
  for (int P : {2, 4})
    for (Kind k : {Kind::kRing, Kind::kHop}) {
      std::string name = k == Kind::kRing ? "lowered ring allreduce FP32 2^24" : "notify/wait hop";
      if (!Want("MPI engine P=" + std::to_string(P) + " " + name)) continue;
      int iters = k == Kind::kRing ? K : H;
      double in = CliPerIter(run, k, P, iters, false), mp = CliPerIter(run, k, P, iters, true);
      if (in <= 0 || mp < 0) {
        std::printf("MPI engine P=%d %s: a run failed (pypto-run built without MPI?)\n", P,
                    name.c_str());
        continue;
      }
      const char* unit = k == Kind::kRing ? "ms" : "us";
      double scale = k == Kind::kRing ? 1e3 : 1e6;
      std::printf(
          "MPI engine P=%d %s: mpi %.2f %s, in-process %.2f %s per iteration  "
          "/ in-process = %6.2f\n",
          P, name.c_str(), mp * scale, unit, in * scale, unit, mp / in);
    }
  return 0;
}
