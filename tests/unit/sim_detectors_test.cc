// Detector tests: a deadlock (one rank skips its notify) reported with every
// blocked rank in both schedules; a racy program (read before the peer's
// notify) flagged and its correct twin not; out-of-bounds peer access; signal
// residue; and 1,000 random seeds of a barrier-protected exchange.
#include "sim_test_util.h"

using namespace simtest;

static std::string Ring(bool skip_notify_on_1, bool read_before_wait, bool reset,
                        const char* peer_expr = "(me + 1) % n") {
  std::string s = R"PIR(# pypto.program: R
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class R:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, src: pl.Tensor[[2, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[2, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(dst)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
)PIR";
  s += std::string("        peer = ") + peer_expr + "\n";
  s += "        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)\n";
  if (skip_notify_on_1)
    s += "        if me != 1:\n    ";
  else
    s += "        if me >= 0:\n    ";
  s += "        pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), "
       "op=pld.NotifyOp.AtomicAdd)\n";
  std::string load =
      "        t: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(dst, [0, 0], [2, 8])\n";
  if (read_before_wait) s += load;
  s += "        pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)\n";
  if (reset)
    s += "        pld.system.notify(sig, me, [0, 0], pl.const(-1, pl.INT32), "
         "op=pld.NotifyOp.AtomicAdd)\n";
  if (!read_before_wait) s += load;
  s += "        o = pl.tile.store(t, [0, 0], out)\n        return\n";
  return s;
}

static std::map<std::string, HostArray> In(int P) {
  std::vector<double> x(static_cast<size_t>(P) * 16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  return {{"src", Make(DataType::kFP32, {P, 2, 8}, x)}};
}

TEST_CASE("deadlock: a skipped notify is reported with the blocked rank, line, cell and values") {
  const std::string blocked =
      "  rank 2 (thread rank2) blocked in pld.system.wait in function 'k' at test.pir:19: signal "
      "'sig' (window 'sig') cell [0, 0] expected >= 1 (Ge), actual 0\n";
  for (int mode = 0; mode < 4; ++mode) {
    INFO("mode " << mode);
    auto o = mode == 0 ? Opts(4) : RandomOpts(4, static_cast<uint64_t>(mode));
    Run r;
    Execute(r, Ring(true, false, true), In(4), o);
    INFO(r.result.report);
    CHECK(r.result.exit_code == 3);
    CHECK_THAT(r.result.report, Catch::StartsWith("error: deadlock: "));
    CHECK_THAT(r.result.report, Catch::Contains(blocked));
    // Only rank 2 (whose left neighbour skipped its notify) is blocked.
    CHECK_THAT(r.result.report, !Catch::Contains("rank 0 (thread"));
    CHECK_THAT(r.result.report, !Catch::Contains("rank 3 (thread"));
    CHECK(r.result.outputs.empty());
  }
  Run r;
  Execute(r, Ring(true, false, true), In(4), RandomOpts(4, 5));
  CHECK_THAT(r.result.report,
             Catch::Contains("no runnable thread remains (random schedule, seed 5)"));
}

TEST_CASE("race: reading the window before the peer's notify is flagged; the twin is not") {
  for (int mode = 0; mode < 3; ++mode) {
    INFO("mode " << mode);
    auto o = mode == 0 ? Opts(2) : RandomOpts(2, static_cast<uint64_t>(mode));
    o.detect_races = true;
    Run racy;
    Execute(racy, Ring(false, true, true), In(2), o);
    INFO(racy.result.report);
    CHECK(racy.result.exit_code == 3);
    CHECK_THAT(racy.result.report, Catch::Contains("error: data race on window 'dst' of rank"));
    CHECK_THAT(racy.result.report, Catch::Contains("pld.tensor.put at test.pir:16"));
    CHECK_THAT(racy.result.report, Catch::Contains("tile.load at test.pir:19"));
    Run good;
    Execute(good, Ring(false, false, true), In(2), o);
    INFO(good.result.report);
    CHECK(good.result.exit_code == 0);
    CHECK(good.result.report.empty());
  }
}

TEST_CASE("race report text is deterministic under a random schedule") {
  auto o = RandomOpts(2, 11);
  o.detect_races = true;
  Run a, b;
  Execute(a, Ring(false, true, true), In(2), o);
  Execute(b, Ring(false, true, true), In(2), o);
  CHECK(a.result.report == b.result.report);
  CHECK_THAT(a.result.report, Catch::Contains("are not ordered by happens-before"));
}

TEST_CASE("out-of-bounds peer access names op, rank and line") {
  Run r;
  Execute(r, Ring(false, false, true, "me + 1"), In(2), Opts(2));
  INFO(r.result.report);
  CHECK(r.result.exit_code == 1);
  CHECK_THAT(r.result.report,
             Catch::Contains(
                 "test.pir:16:9: error: pld.tensor.put: out-of-bounds peer access: peer 2 is "
                 "not a rank of the comm domain {0, 1} of window 'dst' (2 ranks) (on rank 1)"));
}

TEST_CASE("signal residue: a counter left at 1 is named; the reset twin is clean") {
  auto o = Opts(3);
  o.check_signals = true;
  Run r;
  Execute(r, Ring(false, false, false), In(3), o);
  CHECK(r.result.exit_code == 1);
  CHECK_THAT(r.result.report,
             Catch::Contains("error: signal residue at the end of the run: signal 'sig' "
                             "(window 'sig') on rank 1 cell [0, 0] = 1"));
  Run ok;
  Execute(ok, Ring(false, false, true), In(3), o);
  CHECK(ok.result.exit_code == 0);
}

TEST_CASE("1,000 random seeds of a barrier-protected exchange: no failure") {
  pypto::ir::Context ctx;
  pypto::DiagnosticEngine diag(&ctx.sources());
  const pypto::ir::Program* p =
      pypto::ir::ParseProgram(ctx, Ring(false, false, true), "test.pir", diag);
  REQUIRE(p);
  auto in = In(3);
  int failures = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    auto o = RandomOpts(3, seed);
    o.check_signals = true;
    auto res = pypto::sim::RunProgram(ctx, *p, in, o);
    bool ok = res.exit_code == 0;
    if (ok) {
      auto y = Values(res.outputs.at("out"));
      for (int rk = 0; rk < 3 && ok; ++rk)
        for (int i = 0; i < 16; ++i) ok = ok && y[rk * 16 + i] == ((rk + 2) % 3) * 16 + i;
    }
    if (!ok) {
      ++failures;
      UNSCOPED_INFO("seed " << seed << ": " << res.report);
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("parallel --deadline: a wait starved by a spinning rank is reported") {
  const char* prog = R"PIR(# pypto.program: D
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class D:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(sig)
        me = pld.rank(ctx)
        if me == 0:
            for (j,) in pl.while_(init_values=(0,)):
                pl.cond(j >= 0)
                j2 = pl.yield_(j + 1)
        else:
            pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        return
)PIR";
  auto o = Opts(2);
  o.deadline_s = 0.3;
  Run r;
  Execute(r, prog, {}, o);
  INFO(r.result.report);
  CHECK(r.result.exit_code == 3);
  CHECK_THAT(r.result.report, Catch::StartsWith("error: deadlock: a wait made no progress for "));
  CHECK_THAT(
      r.result.report,
      Catch::Contains(
          "(--deadline 0.3)\n  rank 1 (thread rank1) blocked in pld.system.wait in function 'k' at "
          "test.pir:19: signal 'sig' (window 'sig') cell [0, 0] expected >= 1 (Ge), actual 0"));
}
