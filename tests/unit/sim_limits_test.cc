// The executor's limits through the C++ API: verification before the run,
// unknown inputs, the rank bound, the memory limit (up front and at run time),
// lazily zeroed windows, cancellation, and the byte-size spelling.
#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "pypto/sim/machine.h"
#include "pypto/sim/memory_limit.h"
#include "sim_test_util.h"

using namespace simtest;
using pypto::sim::RunOptions;

namespace {

// A host orchestrator dispatching one kernel per rank; the window size and the
// kernel's loop count are substituted.
std::string Program(const std::string& window_bytes, const std::string& loop = "1") {
  std::string t = R"(import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        for i in pl.range(LOOP):
            t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [4, 8])
            o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.kernel(src, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(BYTES)
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], y[r], device=r)
)";
  t.replace(t.find("LOOP"), 4, loop);
  t.replace(t.find("BYTES"), 5, window_bytes);
  return t;
}

std::map<std::string, HostArray> X(int ranks) {
  std::vector<double> v(static_cast<size_t>(ranks) * 32);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 97) - 48;
  return {{"x", Make(DataType::kFP32, {ranks, 4, 8}, v)}};
}

// Resident set size of this process in KiB (/proc/self/status VmRSS).
int64_t RssKiB() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6));
  return -1;
}

}  // namespace

TEST_CASE("RunProgram verifies first: a program the verifier rejects does not run") {
  std::string text = Program("128");
  // The kernel now takes [4, 16], but the call passes [4, 8].
  text.replace(text.find("[[4, 8]"), 7, "[[4, 16]");
  Run r;
  Execute(r, text, X(2), Opts(2));
  INFO(r.result.report);
  CHECK(r.result.exit_code == 1);
  CHECK(r.result.report.rfind("test.pir:18:9: error: self.kernel: argument 0 has type "
                              "pl.Tensor[[4, 8], pl.FP32] but parameter 'src' is "
                              "pl.Tensor[[4, 16], pl.FP32]\n",
                              0) == 0);
  CHECK(r.result.outputs.empty());
}

TEST_CASE("RunProgram: an input that names no parameter lists the entry's parameters") {
  auto in = X(2);
  in["x2"] = in["x"];
  Run r;
  Execute(r, Program("128"), in, Opts(2));
  CHECK(r.result.exit_code == 1);
  CHECK(r.result.report ==
        "error: input 'x2' is not a parameter of entry 'host_orch'; its parameters are: x, y\n");
}

TEST_CASE("RunProgram: ranks are bounded by kMaxRanks") {
  Run r;
  RunOptions o = Opts(pypto::sim::kMaxRanks + 1);
  Execute(r, Program("128"), {}, o);
  CHECK(r.result.exit_code == 2);
  CHECK(r.result.report == "error: ranks 1025 is out of range (1 .. 1024)\n");
}

TEST_CASE("RunProgram: an estimate above the memory limit is refused before allocating") {
  Run r;
  RunOptions o = Opts(2);
  o.memory_limit = int64_t{1} << 30;
  Execute(r, Program("1073741824"), X(2), o);  // 1 GiB window x 2 ranks
  CHECK(r.result.exit_code == 1);
  CHECK(r.result.report ==
        "error: this run needs an estimated 2.0 GiB (2147484160 bytes) (windows 2.0 GiB "
        "(2147483648 bytes) on 2 ranks, host tensors 512 bytes) before it starts; the memory "
        "limit is 1.0 GiB (1073741824 bytes); raise it with --memory-limit=BYTES (e.g. 64G; "
        "pypto.sim.run: memory_limit=, RunOptions::memory_limit; 'none' or 0 disables it)\n");
}

TEST_CASE("Machine: a window is zeroed lazily, and one above the limit is refused") {
  pypto::sim::Machine m(2, false, int64_t{3} << 30);
  int64_t before = RssKiB();
  int a = m.NewAllocation("big", int64_t{1} << 30, {});  // 1 GiB on each of 2 ranks
  for (int d = 0; d < 2; ++d) {
    uint8_t* p = m.WindowBytes(a, d);
    CHECK(reinterpret_cast<uintptr_t>(p) % 64 == 0);
    CHECK(p[0] == 0);
    CHECK(p[(int64_t{1} << 30) - 1] == 0);
    p[12345] = 7;
  }
  int64_t grown = RssKiB() - before;
  INFO("RSS grew by " << grown << " KiB");
  CHECK(grown < 16 * 1024);  // a few pages, not 2 GiB
  CHECK(m.window_bytes() == int64_t{2} << 30);
  try {
    m.NewAllocation("more", int64_t{1} << 30, {});
    FAIL("allocation above the limit accepted");
  } catch (const pypto::sim::SimError& e) {
    CHECK(std::string(e.what()) ==
          "window 'more' of 1.0 GiB (1073741824 bytes) on each of 2 ranks would bring this "
          "run's windows to 4.0 GiB (4294967296 bytes); the memory limit is 3.0 GiB "
          "(3221225472 bytes); raise it with --memory-limit=BYTES (e.g. 64G; pypto.sim.run: "
          "memory_limit=, RunOptions::memory_limit; 'none' or 0 disables it)");
  }
  int small = m.NewAllocation("small", 100, {});
  CHECK(m.alloc(small).capacity == 128);
  CHECK(m.WindowBytes(small, 1)[99] == 0);
}

TEST_CASE("RunProgram: RunOptions::cancel tears an endless run down") {
  for (auto schedule : {pypto::sim::Schedule::kParallel, pypto::sim::Schedule::kRandom}) {
    std::atomic<bool> cancel{false};
    RunOptions o = Opts(2);
    o.schedule = schedule;
    o.cancel = &cancel;
    std::thread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      cancel = true;
    });
    Run r;
    Execute(r, Program("128", "4611686018427387904"), X(2), o);
    stopper.join();
    CHECK(r.result.exit_code == 130);
    CHECK(r.result.report == "error: the run was interrupted\n");
    CHECK(r.result.outputs.empty());
  }
}

TEST_CASE("ParseByteSize: digits with a binary suffix, or none") {
  int64_t b = -1;
  std::string err;
  CHECK(pypto::sim::ParseByteSize("4G", &b, &err));
  CHECK(b == int64_t{4} << 30);
  CHECK(pypto::sim::ParseByteSize("512k", &b, &err));
  CHECK(b == 512 * 1024);
  CHECK(pypto::sim::ParseByteSize("123", &b, &err));
  CHECK(b == 123);
  CHECK(pypto::sim::ParseByteSize("none", &b, &err));
  CHECK(b == 0);
  CHECK_FALSE(pypto::sim::ParseByteSize("8388608T", &b, &err));  // 2^63
  CHECK(err ==
        "bad byte size '8388608T'; expected digits with an optional K, M, G or T suffix "
        "(binary), or 'none'");
  CHECK_FALSE(pypto::sim::ParseByteSize("", &b, &err));
  CHECK_FALSE(pypto::sim::ParseByteSize("1.5G", &b, &err));
  CHECK_FALSE(pypto::sim::ParseByteSize("G", &b, &err));
  CHECK_FALSE(pypto::sim::ParseByteSize("99999999999999999999", &b, &err));
}

TEST_CASE("RunProgram: a range whose step would overflow int64 ends instead of wrapping") {
  // 0, 2^62, then 2^63 does not fit: two iterations (a wrapped loop never ends).
  Run r;
  Execute(r, Program("128", "0, 9223372036854775807, 4611686018427387904"), X(2), Opts(2));
  INFO(r.result.report);
  REQUIRE(r.result.exit_code == 0);
  CHECK(r.result.outputs.at("y").bytes == X(2).at("x").bytes);
}
