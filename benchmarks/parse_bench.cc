// parse_bench: throughput and memory of the IR front end on large programs.
//
// For 10^4, 10^5 and 10^6 ops it generates a program in canonical printed form
// (InCore kernels of 1000 `pl.tile.add` assignments each, so no function is
// absurd), then — in a fresh child process per size, so peak RSS is that size's
// own — times parse, verify and print, and reports MB/s of IR text, ns/op per
// phase, peak RSS bytes/op (VmHWM delta over the text itself) and the growth
// ratio between sizes (10x ops should cost <= 11x time). The text is handed to
// the parser without a copy (ParseProgramOwned moves it into the SourceManager),
// and print streams the program function by function (PrintProgramTo) into a
// std::ofstream on a temporary file, as pypto-opt -o does; the `print ==in`
// column then compares that file with the input chunk by chunk (untimed).
// When `mlir-opt-16` is
// on PATH it also times `mlir-opt-16 --verify-each` round-tripping an equivalent
// generic-form MLIR module with the same op count, side by side. Prints a table;
// no assertions (measure, do not gate).
//
//   parse_bench [--sizes=10000,100000,1000000] [--no-mlir]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/printer.h"
#include "pypto/ir/verifier.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kOpsPerFunction = 1000;

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// CPU time of this process (wall time is unreliable on a shared machine).
double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

long VmHWMBytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6) * 1024;
  return 0;
}

// Canonical-form program with `ops` op calls: per function one tile.load and
// kOpsPerFunction - 1 tile.adds (the last function takes the remainder).
std::string GenerateIr(long ops) {
  std::string s;
  s.reserve(static_cast<size_t>(ops) * 90 + 4096);
  s += "# pypto.program: Bench\nimport pypto.language as pl\nimport pypto.language.distributed as "
       "pld\n\n\n@pl.program\nclass Bench:\n";
  const char* tile = "pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]";
  long done = 0;
  for (int f = 0; done < ops; ++f) {
    long n = std::min<long>(kOpsPerFunction, ops - done);
    if (f) s += "\n";
    s += "    @pl.function(type=pl.FunctionType.InCore)\n";
    s += "    def k" + std::to_string(f) + "(self, src: pl.Tensor[[16, 64], pl.FP32]):\n";
    s += std::string("        t0: ") + tile + " = pl.tile.load(src, [0, 0], [16, 64])\n";
    for (long i = 1; i < n; ++i) {
      s += "        t" + std::to_string(i) + ": " + tile + " = pl.tile.add(t" +
           std::to_string(i - 1) + ", t0)\n";
    }
    s += "        return\n";
    done += n;
  }
  return s;
}

// Equivalent generic-form MLIR: one func per kOpsPerFunction ops, arith.addf on
// tensors (the load becomes the function argument plus one op).
std::string GenerateMlir(long ops) {
  std::string s;
  s.reserve(static_cast<size_t>(ops) * 110 + 4096);
  const char* t = "tensor<16x64xf32>";
  s += "\"builtin.module\"() ({\n";
  long done = 0;
  for (int f = 0; done < ops; ++f) {
    long n = std::min<long>(kOpsPerFunction, ops - done);
    s += "  \"func.func\"() ({\n  ^bb0(%arg0: " + std::string(t) + "):\n";
    for (long i = 0; i < n; ++i) {
      // Appended, not `"%" + std::to_string(...)`: GCC 12 at -O3 reports a false
      // -Wrestrict overlap for that concatenation.
      std::string prev = "%";
      prev += i == 0 ? std::string("arg0") : std::to_string(i - 1);
      s += "    %" + std::to_string(i) + " = \"arith.addf\"(" + prev + ", %arg0) : (" + t + ", " +
           t + ") -> " + t + "\n";
    }
    s += "    \"func.return\"() : () -> ()\n  }) {function_type = (" + std::string(t) +
         ") -> (), sym_name = \"k" + std::to_string(f) + "\"} : () -> ()\n";
    done += n;
  }
  s += "}) : () -> ()\n";
  return s;
}

struct ChildResult {
  long ops = 0, bytes = 0, hwm0 = 0, hwm1 = 0, arena = 0;
  double parse = 0, verify = 0, print = 0, cpu = 0;
  int roundtrip = 0, ok = 0;
};

// True when the file at `path` holds exactly `expected` (read back in chunks).
bool FileEquals(const char* path, std::string_view expected) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> buf(1 << 20);
  size_t at = 0;
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    size_t n = static_cast<size_t>(in.gcount());
    if (n == 0) break;
    if (at + n > expected.size() || expected.compare(at, n, std::string_view(buf.data(), n)) != 0)
      return false;
    at += n;
  }
  return at == expected.size();
}

int RunChild(long ops) {
  std::string text = GenerateIr(ops);
  size_t text_bytes = text.size();
  char out_path[] = "/tmp/parse_bench_print_XXXXXX";
  int out_fd = mkstemp(out_path);
  if (out_fd < 0) {
    std::perror("parse_bench: mkstemp");
    return 1;
  }
  close(out_fd);
  long hwm0 = VmHWMBytes();
  pypto::ir::Context ctx;
  pypto::DiagnosticEngine diag(&ctx.sources());
  double c0 = CpuSeconds();
  auto t0 = Clock::now();
  // Handed over, not copied: the SourceManager now owns the bench's text.
  const pypto::ir::Program* p =
      pypto::ir::ParseProgramOwned(ctx, std::move(text), "bench.pir", diag);
  auto t1 = Clock::now();
  bool ok = p != nullptr && pypto::ir::VerifyProgram(ctx, *p, diag);
  auto t2 = Clock::now();
  bool written = false;
  if (p) {
    std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
    pypto::ir::PrintProgramTo(*p, out);
    written = static_cast<bool>(out.flush());
  }
  auto t3 = Clock::now();
  double c1 = CpuSeconds();
  long hwm1 = VmHWMBytes();
  if (!ok) std::cerr << diag.Render().substr(0, 2000);
  // The input is file 0 of the SourceManager (no constants or line offset).
  bool same = written && ctx.sources().FileName(0) == "bench.pir" &&
              FileEquals(out_path, ctx.sources().FileText(0));
  unlink(out_path);
  std::printf("%ld %zu %ld %ld %zu %.9f %.9f %.9f %d %d %.9f\n", ops, text_bytes, hwm0, hwm1,
              ctx.BytesAllocated(), Seconds(t0, t1), Seconds(t1, t2), Seconds(t2, t3), same ? 1 : 0,
              ok ? 1 : 0, c1 - c0);
  return ok ? 0 : 1;
}

bool RunChildProcess(const char* self, long ops, ChildResult* r) {
  std::string cmd = std::string(self) + " --child=" + std::to_string(ops);
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return false;
  int n = std::fscanf(f, "%ld %ld %ld %ld %ld %lf %lf %lf %d %d %lf", &r->ops, &r->bytes, &r->hwm0,
                      &r->hwm1, &r->arena, &r->parse, &r->verify, &r->print, &r->roundtrip, &r->ok,
                      &r->cpu);
  int status = pclose(f);
  return n == 11 && status == 0;
}

bool OnPath(const std::string& exe) {
  std::string cmd = "command -v " + exe + " >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

// Wall time and peak RSS of `mlir-opt-16 --verify-each file -o /dev/null`.
bool TimeMlir(long ops, double* secs, long* maxrss) {
  std::string text = GenerateMlir(ops);
  char path[] = "/tmp/parse_bench_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return false;
  if (write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    close(fd);
    return false;
  }
  close(fd);
  auto t0 = Clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    execlp("mlir-opt-16", "mlir-opt-16", "--verify-each", path, "-o", "/dev/null",
           static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  struct rusage ru {};
  wait4(pid, &status, 0, &ru);
  *secs = Seconds(t0, Clock::now());
  *maxrss = ru.ru_maxrss * 1024;
  unlink(path);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long> sizes = {10000, 100000, 1000000};
  bool mlir = true;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--child=", 0) == 0) return RunChild(std::atol(a.c_str() + 8));
    if (a == "--no-mlir") {
      mlir = false;
    } else if (a.rfind("--sizes=", 0) == 0) {
      sizes.clear();
      std::stringstream ss(a.substr(8));
      std::string tok;
      while (std::getline(ss, tok, ',')) sizes.push_back(std::atol(tok.c_str()));
    } else {
      std::cerr << "usage: parse_bench [--sizes=a,b,c] [--no-mlir]\n";
      return 2;
    }
  }
  mlir = mlir && OnPath("mlir-opt-16");
  std::printf("parse_bench: %d ops per function; each size measured in a fresh process\n",
              kOpsPerFunction);
  std::printf("%9s %8s %9s %9s %9s %9s %9s %9s %10s %8s %8s %7s", "ops", "IR MB", "parse", "parse",
              "verify", "print", "total", "cpu", "peakRSS", "arena", "growth", "print");
  if (mlir) std::printf(" %10s %9s %7s", "mlir-opt", "mlir RSS", "ratio");
  std::printf("\n%9s %8s %9s %9s %9s %9s %9s %9s %10s %8s %8s %7s", "", "", "MB/s", "ns/op",
              "ns/op", "ns/op", "ns/op", "ns/op", "B/op", "B/op", "(time)", "==in");
  if (mlir) std::printf(" %10s %9s %7s", "ns/op", "B/op", "mlir/us");
  std::printf("\n");
  double prev_total = 0;
  long prev_ops = 0;
  for (long ops : sizes) {
    ChildResult r;
    if (!RunChildProcess(argv[0], ops, &r)) {
      std::printf("%9ld  (child failed: parse/verify error or crash)\n", ops);
      continue;
    }
    double total = r.parse + r.verify + r.print;
    double mb = r.bytes / 1e6;
    std::string growth = "-";
    if (prev_ops) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2fx",
                    (total / prev_total) * 10.0 / (static_cast<double>(ops) / prev_ops));
      growth = buf;
    }
    std::printf("%9ld %8.1f %9.1f %9.0f %9.0f %9.0f %9.0f %9.0f %10.0f %8.0f %8s %7s", ops, mb,
                mb / r.parse, r.parse * 1e9 / ops, r.verify * 1e9 / ops, r.print * 1e9 / ops,
                total * 1e9 / ops, r.cpu * 1e9 / ops, static_cast<double>(r.hwm1 - r.hwm0) / ops,
                static_cast<double>(r.arena) / ops, growth.c_str(), r.roundtrip ? "yes" : "NO");
    if (mlir) {
      double secs = 0;
      long rss = 0;
      if (TimeMlir(ops, &secs, &rss))
        std::printf(" %10.0f %9.0f %7.2f", secs * 1e9 / ops, static_cast<double>(rss) / ops,
                    secs / total);
      else
        std::printf(" %10s", "failed");
    }
    std::printf("\n");
    std::fflush(stdout);
    prev_total = total;
    prev_ops = ops;
  }
  std::printf("growth = time(N) / time(N/10), scaled so 10.00x is linear (<= 11x wanted).\n");
  std::printf(
      "cpu = process CPU time of parse+verify+print (wall columns suffer on a busy "
      "machine).\n");
  std::printf(
      "print = PrintProgramTo streaming to a std::ofstream on a temp file; print ==in "
      "compares that file with the input byte for byte.\n");
  std::printf(
      "peakRSS = VmHWM growth over the generated text, which the parser takes over "
      "(ParseProgramOwned) instead of copying.\n");
  return 0;
}
