// Whole-operation collectives (the semantic oracle for lowerings) against an
// independent C++ oracle: allreduce with every ReduceOp on FP32 and FP16,
// broadcast, reduce_scatter, allgather, all_to_all, all_to_all_v and barrier;
// shapes that are not tile multiples; P = 1, 2, 3, 4, 8; plus a host-rail
// collective and a collective-order mismatch.
#include <fmt/format.h>

#include "sim_test_util.h"

using namespace simtest;
using pypto::sim::RoundTo;

static std::string Header() {
  return "# pypto.program: C\nimport pypto.language as pl\nimport pypto.language.distributed as "
         "pld\n\n"
         "NR = pl.dynamic(\"NR\")\n\n\n@pl.program\nclass C:\n"
         "    @pl.function(type=pl.FunctionType.InCore)\n";
}

static double Val(int rank, int i, int salt) {
  return static_cast<double>(((i * 7 + rank * 13 + salt) % 7) - 3);
}

static std::vector<double> Data(int P, int n, int salt) {
  std::vector<double> v;
  for (int r = 0; r < P; ++r)
    for (int i = 0; i < n; ++i) v.push_back(Val(r, i, salt));
  return v;
}

static double Oracle(int op, DataType dt, double a, double b) {
  switch (op) {
    case 1:
      return RoundTo(dt, std::max(a, b));
    case 2:
      return RoundTo(dt, std::min(a, b));
    case 3:
      return RoundTo(dt, a * b);
    default:
      return RoundTo(dt, a + b);
  }
}

TEST_CASE("allreduce: every ReduceOp, FP32 and FP16, ragged shape, P = 1..8") {
  const char* ops[] = {"Sum", "Max", "Min", "Prod"};
  const int R = 3, Cn = 37, N = R * Cn;
  for (DataType dt : {DataType::kFP32, DataType::kFP16})
    for (int op = 0; op < 4; ++op)
      for (int P : {1, 2, 3, 4, 8}) {
        std::string dts(pypto::DTypeName(dt));
        std::string prog =
            Header() + fmt::format(
                           "    def k(self, data: pl.InOut[pld.DistributedTensor[[{0}, {1}], "
                           "pl.{2}]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):\n"
                           "        d2 = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.{3})\n"
                           "        return\n",
                           R, Cn, dts, ops[op]);
        INFO(dts << " " << ops[op] << " P=" << P);
        std::vector<double> x = Data(P, N, op);
        for (int mode = 0; mode < 2; ++mode) {
          auto o = mode == 0 ? Opts(P) : RandomOpts(P, 9);
          o.check_signals = true;
          Run r;
          Execute(r, prog, {{"data", Make(dt, {P, R, Cn}, x)}}, o);
          INFO(r.result.report);
          REQUIRE(r.result.exit_code == 0);
          std::vector<double> y = Values(r.result.outputs.at("data"));
          for (int i = 0; i < N; ++i) {
            double acc = RoundTo(dt, x[i]);
            for (int s = 1; s < P; ++s) acc = Oracle(op, dt, acc, RoundTo(dt, x[s * N + i]));
            for (int rk = 0; rk < P; ++rk) REQUIRE(y[rk * N + i] == acc);
          }
        }
      }
}

static void RunKernel(Run& r, const std::string& body_sig, const std::string& body,
                      std::map<std::string, HostArray> in, pypto::sim::RunOptions o) {
  Execute(r, Header() + "    def k(self, " + body_sig + "):\n" + body + "        return\n", in, o);
}

TEST_CASE("broadcast, reduce_scatter, allgather, all_to_all, barrier: exact, P = 1..8") {
  const int Cn = 19;
  for (int P : {1, 2, 3, 4, 8})
    for (int mode = 0; mode < 2; ++mode) {
      INFO("P=" << P << " mode=" << mode);
      auto o = mode == 0 ? Opts(P) : RandomOpts(P, 3);
      o.check_signals = true;
      std::string sig = "sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]";
      {  // broadcast from the last rank
        std::vector<double> x = Data(P, 2 * Cn, 1);
        Run r;
        RunKernel(r, "data: pl.InOut[pld.DistributedTensor[[2, 19], pl.FP32]], " + sig,
                  fmt::format("        d2 = pld.tensor.broadcast(data, sig, root={})\n", P - 1),
                  {{"data", Make(DataType::kFP32, {P, 2, Cn}, x)}}, o);
        INFO(r.result.report);
        REQUIRE(r.result.exit_code == 0);
        auto y = Values(r.result.outputs.at("data"));
        for (int rk = 0; rk < P; ++rk)
          for (int i = 0; i < 2 * Cn; ++i) REQUIRE(y[rk * 2 * Cn + i] == x[(P - 1) * 2 * Cn + i]);
      }
      {  // reduce_scatter: row r of rank r = sum over ranks of row r; other rows untouched
        std::vector<double> x = Data(P, P * Cn, 2);
        Run r;
        RunKernel(r, "data: pl.InOut[pld.DistributedTensor[[NR, 19], pl.FP32]], " + sig,
                  "        d2 = pld.tensor.reduce_scatter(data, sig, op=pld.ReduceOp.Sum)\n",
                  {{"data", Make(DataType::kFP32, {P, P, Cn}, x)}}, o);
        INFO(r.result.report);
        REQUIRE(r.result.exit_code == 0);
        auto y = Values(r.result.outputs.at("data"));
        for (int rk = 0; rk < P; ++rk)
          for (int row = 0; row < P; ++row)
            for (int j = 0; j < Cn; ++j) {
              double want = x[(rk * P + row) * Cn + j];
              if (row == rk) {
                want = 0;
                for (int s = 0; s < P; ++s) want += x[(s * P + row) * Cn + j];
              }
              REQUIRE(y[(rk * P + row) * Cn + j] == want);
            }
      }
      {  // allgather: target[src, :] = input of src on every rank
        std::vector<double> x = Data(P, Cn, 3);
        Run r;
        RunKernel(r,
                  "inp: pl.Tensor[[1, 19], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, "
                  "19], pl.FP32]], " +
                      sig,
                  "        d2 = pld.tensor.allgather(inp, data, sig)\n",
                  {{"inp", Make(DataType::kFP32, {P, 1, Cn}, x)}}, o);
        INFO(r.result.report);
        REQUIRE(r.result.exit_code == 0);
        auto y = Values(r.result.outputs.at("data"));
        for (int rk = 0; rk < P; ++rk)
          for (int s = 0; s < P; ++s)
            for (int j = 0; j < Cn; ++j) REQUIRE(y[(rk * P + s) * Cn + j] == x[s * Cn + j]);
      }
      {  // all_to_all: target[src, :] on rank r = input_src[r, :]
        std::vector<double> x = Data(P, P * Cn, 4);
        Run r;
        RunKernel(r,
                  "inp: pl.Tensor[[NR, 19], pl.FP32], data: pl.InOut[pld.DistributedTensor[[NR, "
                  "19], pl.FP32]], " +
                      sig,
                  "        d2 = pld.tensor.all_to_all(inp, data, sig)\n",
                  {{"inp", Make(DataType::kFP32, {P, P, Cn}, x)}}, o);
        INFO(r.result.report);
        REQUIRE(r.result.exit_code == 0);
        auto y = Values(r.result.outputs.at("data"));
        for (int rk = 0; rk < P; ++rk)
          for (int s = 0; s < P; ++s)
            for (int j = 0; j < Cn; ++j)
              REQUIRE(y[(rk * P + s) * Cn + j] == x[(s * P + rk) * Cn + j]);
      }
      {  // barrier: pure synchronisation, leaves the signal clean
        Run r;
        RunKernel(r, sig,
                  "        s2 = pld.tensor.barrier(sig)\n        s3 = pld.tensor.barrier(sig)\n",
                  {}, o);
        INFO(r.result.report);
        REQUIRE(r.result.exit_code == 0);
      }
    }
}

TEST_CASE("all_to_all_v: clamped counts, rows copied, recv_counts published") {
  const int M = 3, Cn = 5;
  for (int P : {1, 2, 3, 4}) {
    INFO("P=" << P);
    std::vector<double> x = Data(P, P * M * Cn, 5);
    std::vector<double> counts;  // send_counts[src][dst]: includes negative and > MAX_RECV
    for (int s = 0; s < P; ++s)
      for (int d = 0; d < P; ++d) counts.push_back(static_cast<double>((s * 3 + d * 2) % 6) - 1);
    Run r;
    Execute(r,
            Header() +
                "    def k(self, inp: pl.Tensor[[NR * 3, 5], pl.FP32], data: "
                "pl.InOut[pld.DistributedTensor[[NR * 3, 5], pl.FP32]], "
                "sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], sc: pl.Tensor[[NR, 1], "
                "pl.INT32], "
                "rc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):\n"
                "        d2 = pld.tensor.all_to_all_v(inp, data, sig, sc, rc)\n        return\n",
            {{"inp", Make(DataType::kFP32, {P, P * M, Cn}, x)},
             {"sc", Make(DataType::kInt32, {P, P, 1}, counts)}},
            Opts(P));
    INFO(r.result.report);
    REQUIRE(r.result.exit_code == 0);
    auto y = Values(r.result.outputs.at("data"));
    auto rc = Values(r.result.outputs.at("rc"));
    for (int d = 0; d < P; ++d)
      for (int s = 0; s < P; ++s) {
        int cnt = std::clamp(static_cast<int>(counts[s * P + d]), 0, M);
        REQUIRE(rc[d * P + s] == cnt);
        for (int row = 0; row < M; ++row)
          for (int j = 0; j < Cn; ++j) {
            double got = y[((d * P * M) + s * M + row) * Cn + j];
            double want =
                row < cnt ? x[((s * P * M) + d * M + row) * Cn + j] : 0.0;  // untouched rows stay 0
            REQUIRE(got == want);
          }
      }
  }
}

TEST_CASE("host-rail allreduce is a per-rank rendezvous over the window's domain") {
  const char* prog = R"PIR(# pypto.program: H
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class H:
    @pl.function(type=pl.FunctionType.InCore)
    def stage(self, x: pl.Tensor[[2, 9], pl.FP32], data: pl.InOut[pld.DistributedTensor[[2, 9], pl.FP32]]):
        t: pl.Tile[[2, 9], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [2, 9])
        d2 = pl.tile.store(t, [0, 0], data)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def unstage(self, data: pl.InOut[pld.DistributedTensor[[2, 9], pl.FP32]], y: pl.Out[pl.Tensor[[2, 9], pl.FP32]]):
        t: pl.Tile[[2, 9], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [2, 9])
        y2 = pl.tile.store(t, [0, 0], y)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 2, 9], pl.FP32], y: pl.Out[pl.Tensor[[NR, 2, 9], pl.FP32]]):
        buf = pld.tensor.alloc_window_buffer(72)
        sbuf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [2, 9], dtype=pl.FP32)
        sig = pld.tensor.window(sbuf, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.stage(x[r], data, device=r)
        data = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Max)
        for r in pl.range(pld.system.world_size()):
            self.unstage(data, y[r], device=r)
)PIR";
  for (int P : {1, 3, 4}) {
    std::vector<double> x = Data(P, 18, 6);
    Run r;
    Execute(r, prog, {{"x", Make(DataType::kFP32, {P, 2, 9}, x)}}, Opts(P));
    INFO(r.result.report);
    REQUIRE(r.result.exit_code == 0);
    auto y = Values(r.result.outputs.at("y"));
    for (int i = 0; i < 18; ++i) {
      double m = x[i];
      for (int s = 1; s < P; ++s) m = std::max(m, x[s * 18 + i]);
      for (int rk = 0; rk < P; ++rk) REQUIRE(y[rk * 18 + i] == m);
    }
  }
}

TEST_CASE("ranks that disagree on the next collective are reported") {
  const char* prog = R"PIR(# pypto.program: M
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class M:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, data: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(data)
        me = pld.rank(ctx)
        if me == 0:
            s2 = pld.tensor.barrier(sig)
        else:
            d2 = pld.tensor.allreduce(data, sig, op=pld.ReduceOp.Sum)
        return
)PIR";
  Run r;
  Execute(r, prog, {}, Opts(2));
  CHECK(r.result.exit_code == 1);
  CHECK_THAT(r.result.report,
             Catch::Contains(
                 "collective mismatch on comm domain {0, 1}: collective #0 is pld.tensor.barrier "
                 "on rank 0 (test.pir:15) but pld.tensor.allreduce on rank 1 (test.pir:17)"));
}
