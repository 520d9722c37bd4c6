// sim::Session: windows a host orchestrator allocates persist across runs of one
// session (upstream's prepare(persistent=True)); reset_windows zeroes them
// between runs, ResetWindows() on demand. Exact values against closed forms:
// each run adds x to the window and outputs the window's new contents.
#include "pypto/sim/session.h"
#include "sim_test_util.h"

using namespace simtest;
using pypto::sim::Session;

namespace {

// acc (a persistent window) += x on every rank; y[r] = the new acc of rank r.
const char* kAccumulate = R"(
import pypto.language as pl
import pypto.language.distributed as pld

@pl.program
class Accumulate:
    @pl.function(type=pl.FunctionType.InCore)
    def add_into(self, x: pl.Tensor[[1, 8], pl.FP32], y: pl.Out[pl.Tensor[[1, 8], pl.FP32]], acc: pld.DistributedTensor[[1, 8], pl.FP32]) -> pl.Tensor[[1, 8], pl.FP32]:
        tx = pl.load(x, [0, 0], [1, 8])
        ta = pl.load(acc, [0, 0], [1, 8])
        s = pl.add(tx, ta)
        acc2 = pl.store(s, [0, 0], acc)
        y2 = pl.store(s, [0, 0], y)
        return y2

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.FP32], y: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]):
        buf = pld.alloc_window_buffer([1, 8], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            acc = pld.window(buf, [1, 8], dtype=pl.FP32)
            self.add_into(x[r], y[r], acc, device=r)
        return y
)";

// x of call k (1-based): rank r, element i = k * 10 + r * 100 + i.
HostArray X(int k) {
  std::vector<double> v;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < 8; ++i) v.push_back(k * 10 + r * 100 + i);
  return Make(DataType::kFP32, {2, 1, 8}, v);
}

// Sum of the x of calls first..last, element by element.
std::vector<double> SumX(int first, int last) {
  std::vector<double> v(16, 0);
  for (int k = first; k <= last; ++k) {
    auto xk = Values(X(k));
    for (size_t j = 0; j < v.size(); ++j) v[j] += xk[j];
  }
  return v;
}

struct Parsed {
  pypto::ir::Context ctx;
  const pypto::ir::Program* prog = nullptr;
};

void Parse(Parsed& p) {
  pypto::DiagnosticEngine diag(&p.ctx.sources());
  p.prog = pypto::ir::ParseProgram(p.ctx, kAccumulate, "session.pir", diag);
  INFO(diag.Render());
  REQUIRE(p.prog != nullptr);
}

}  // namespace

TEST_CASE("session: persistent windows carry state across three runs") {
  Parsed p;
  Parse(p);
  Session s(p.ctx, *p.prog, Opts(2), /*reset_windows=*/false);
  for (int k = 1; k <= 3; ++k) {
    auto res = s.Run({{"x", X(k)}});
    INFO(res.report);
    REQUIRE(res.exit_code == 0);
    CHECK(Values(res.outputs.at("y")) == SumX(1, k));
  }
  CHECK(s.runs() == 3);
  CHECK(s.NumWindows() == 1);  // the same allocation every run, not one per run
  int64_t bytes = 0;
  const uint8_t* w = s.WindowBytes("buf", 1, &bytes);
  REQUIRE(w != nullptr);
  CHECK(bytes == 32);
  float first = 0;
  std::memcpy(&first, w, 4);
  CHECK(first == 10 + 20 + 30 + 3 * 100);  // rank 1, element 0 after three calls
}

TEST_CASE("session: reset_windows zeroes the windows before every later run") {
  Parsed p;
  Parse(p);
  Session s(p.ctx, *p.prog, Opts(2), /*reset_windows=*/true);
  for (int k = 1; k <= 3; ++k) {
    auto res = s.Run({{"x", X(k)}});
    REQUIRE(res.exit_code == 0);
    CHECK(Values(res.outputs.at("y")) == SumX(k, k));
  }
}

TEST_CASE("session: ResetWindows() starts the accumulation again") {
  Parsed p;
  Parse(p);
  Session s(p.ctx, *p.prog, Opts(2), /*reset_windows=*/false);
  REQUIRE(s.Run({{"x", X(1)}}).exit_code == 0);
  REQUIRE(s.Run({{"x", X(2)}}).exit_code == 0);
  s.ResetWindows();
  auto res = s.Run({{"x", X(3)}});
  REQUIRE(res.exit_code == 0);
  CHECK(Values(res.outputs.at("y")) == SumX(3, 3));
}

TEST_CASE("session: a plain RunProgram does not persist") {
  Run a, b;
  Execute(a, kAccumulate, {{"x", X(1)}}, Opts(2));
  REQUIRE(a.result.exit_code == 0);
  Execute(b, kAccumulate, {{"x", X(2)}}, Opts(2));
  REQUIRE(b.result.exit_code == 0);
  CHECK(Values(b.result.outputs.at("y")) == SumX(2, 2));
}

TEST_CASE("session: a run with other ranks than the session's is a usage error") {
  Parsed p;
  Parse(p);
  Session s(p.ctx, *p.prog, Opts(2), false);
  auto res = s.Run({{"x", X(1)}}, Opts(3));
  CHECK(res.exit_code == 2);
  CHECK(res.report ==
        "error: a session run must keep the session's ranks (2), poison_nan and memory_limit\n");
}

TEST_CASE("session: a HOST SubWorker call without a bound callback names the way to run it") {
  Run r;
  Execute(r, R"(
import pypto.language as pl

@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def check(x: pl.Tensor[[4], pl.FP32]):
        ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[4], pl.FP32]):
        self.check(x)
)",
          {{"x", Make(DataType::kFP32, {4}, {1, 2, 3, 4})}}, Opts(1));
  CHECK(r.result.exit_code == 1);
  CHECK(r.result.report.find("test.pir:12:9: error: SubWorker 'check' is host Python, which "
                             "pypto-run cannot run; run the decorated program with "
                             "pypto.runtime (or pypto.sim.run), which calls the Python "
                             "function") != std::string::npos);
}

TEST_CASE("session: the SubWorker callback sees packed arguments and writes Out back") {
  Run r;
  pypto::sim::RunOptions o = Opts(1);
  std::vector<double> seen;
  o.subworker = [&seen](pypto::sim::SubWorkerCall& call) {
    REQUIRE(call.args.size() == 2);
    CHECK_FALSE(call.writable[0]);
    CHECK(call.writable[1]);
    seen = Values(call.args[0]);
    auto in = Values(call.args[0]);
    for (size_t i = 0; i < in.size(); ++i)
      pypto::sim::StoreElem(call.args[1].bytes.data() + 4 * i, DataType::kFP32, in[i] * 3);
    call.returned = false;
  };
  Execute(r, R"(
import pypto.language as pl

@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def triple(x: pl.Tensor[[2, 2], pl.FP32], y: pl.Out[pl.Tensor[[2, 2], pl.FP32]]):
        ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[4, 2], pl.FP32], y: pl.Out[pl.Tensor[[2, 2], pl.FP32]]):
        xs = pl.slice(x, [2, 2], [2, 0])
        self.triple(xs, y)
        return y
)",
          {{"x", Make(DataType::kFP32, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}}, o);
  INFO(r.result.report);
  REQUIRE(r.result.exit_code == 0);
  CHECK(seen == std::vector<double>{5, 6, 7, 8});  // the strided view, packed
  CHECK(Values(r.result.outputs.at("y")) == std::vector<double>{15, 18, 21, 24});
}
