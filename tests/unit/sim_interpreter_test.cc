// Interpreter and I/O tests: for-loop iter args with break, while with pl.cond,
// if with yields, scalar casts, defer_wait completion, spmd/split_aiv threads,
// .npy round trips (incl. the BF16-as-<u2 convention), FP16/BF16 rounding,
// deterministic traces, NaN poisoning and parameter-binding errors.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "pypto/core/npy.h"
#include "sim_test_util.h"

using namespace simtest;

static const char* kMisc = R"PIR(# pypto.program: Misc
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Misc:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[2, 8], pl.FP32], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[2, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(sig)
        me = pld.rank(ctx)
        t: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [2, 8])
        for i, (acc,) in pl.range(0, 10, 1, init_values=(t,)):
            if i == 3:
                break
            nxt: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.add(acc, t)
            acc_out = pl.yield_(nxt)
        for (j,) in pl.while_(init_values=(0,)):
            pl.cond(j < 5)
            j2 = pl.yield_(j + 2)
        if me == 0:
            v = pl.yield_(j2)
        else:
            v = pl.yield_(j2 * 10)
        w = pl.tile.write(acc_out, [0, 0], pl.cast(v, pl.FP32))
        o = pl.tile.store(w, [0, 0], out)
        pld.system.notify(sig, me, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        return
)PIR";

TEST_CASE("control flow: for with break, while, if-yield, cast; defer_wait completes the task") {
  std::vector<double> x(32);
  for (int i = 0; i < 32; ++i) x[i] = i % 5 - 2;
  for (int mode = 0; mode < 2; ++mode) {
    Run r;
    auto o = mode == 0 ? Opts(2) : RandomOpts(2, 4);
    o.entry = "k";
    Execute(r, kMisc, {{"x", Make(DataType::kFP32, {2, 2, 8}, x)}}, o);
    INFO(r.result.report);
    REQUIRE(r.result.exit_code == 0);
    auto y = Values(r.result.outputs.at("out"));
    for (int rk = 0; rk < 2; ++rk)
      for (int i = 0; i < 16; ++i) {
        double want = i == 0 ? (rk == 0 ? 6 : 60) : 4 * x[rk * 16 + i];
        REQUIRE(y[rk * 16 + i] == want);
      }
  }
}

TEST_CASE("defer_wait that is never satisfied is a deadlock at task completion") {
  std::string prog = kMisc;
  prog.replace(prog.find("pld.system.defer_wait(sig, [0, 0], 1,"), 37,
               "pld.system.defer_wait(sig, [0, 0], 5,");
  Run r;
  auto o = RandomOpts(2, 1);
  o.entry = "k";
  Execute(r, prog, {{"x", Make(DataType::kFP32, {2, 2, 8}, std::vector<double>(32, 1.0))}}, o);
  CHECK(r.result.exit_code == 3);
  CHECK_THAT(
      r.result.report,
      Catch::Contains(
          "blocked in pld.system.defer_wait (task completion) in function 'k' at test.pir:30: "
          "signal 'sig' (window 'sig') cell [0, 0] >= 5 expected (Ge), actual 1"));
}

TEST_CASE("npy: round trip of every supported dtype; BF16 is written as <u2") {
  for (DataType dt : {DataType::kFP32, DataType::kFP16, DataType::kInt32, DataType::kInt64,
                      DataType::kBool, DataType::kFP64, DataType::kInt8, DataType::kUInt8}) {
    pypto::NpyArray a{dt, {2, 3}, {}};
    a.bytes.resize(6 * pypto::DTypeBytes(dt));
    for (size_t i = 0; i < a.bytes.size(); ++i)
      a.bytes[i] = static_cast<uint8_t>(dt == DataType::kBool ? i % 2 : i * 7);
    std::string s = pypto::SerializeNpy(a);
    CHECK((s.size() - a.bytes.size()) % 64 == 0);  // header padded to 64 bytes
    pypto::NpyArray b;
    std::string err;
    REQUIRE(pypto::ParseNpy(s, &b, &err));
    CHECK(b.dtype == dt);
    CHECK(b.shape == a.shape);
    CHECK(b.bytes == a.bytes);
  }
  pypto::NpyArray bf{DataType::kBF16, {2}, {0x80, 0x3f, 0x00, 0xc0}};
  std::string s = pypto::SerializeNpy(bf);
  CHECK(s.find("'descr': '<u2'") != std::string::npos);
  pypto::NpyArray back;
  std::string err;
  REQUIRE(pypto::ParseNpy(s, &back, &err));
  CHECK(back.dtype == DataType::kUInt16);
  CHECK(pypto::sim::BF16ToFloat(0x3f80) == 1.0f);
  CHECK_FALSE(pypto::ParseNpy("not numpy", &back, &err));
  CHECK(err == "not a .npy file (bad magic)");
  pypto::NpyArray sc{DataType::kFP32, {}, {0, 0, 128, 63}};
  REQUIRE(pypto::ParseNpy(pypto::SerializeNpy(sc), &back, &err));
  CHECK(back.shape.empty());
  CHECK(back.bytes.size() == 4);
}

TEST_CASE("FP16 / BF16 conversions round to nearest even") {
  using pypto::sim::FloatToHalf;
  using pypto::sim::HalfToFloat;
  CHECK(FloatToHalf(1.0f) == 0x3c00);
  CHECK(FloatToHalf(65504.0f) == 0x7bff);
  CHECK(FloatToHalf(65520.0f) == 0x7c00);               // rounds up to +inf
  CHECK(FloatToHalf(2049.0f) == FloatToHalf(2048.0f));  // tie -> even
  CHECK(FloatToHalf(2051.0f) == FloatToHalf(2052.0f));
  CHECK(HalfToFloat(0x0001) == std::ldexp(1.0f, -24));    // smallest subnormal
  CHECK(FloatToHalf(std::ldexp(1.0f, -25)) == 0);         // tie below -> even (0)
  CHECK(pypto::sim::FloatToBF16(1.00390625f) == 0x3f80);  // tie -> even
  CHECK(pypto::sim::RoundTo(DataType::kFP16, 0.1) == static_cast<double>(HalfToFloat(0x2e66)));
  CHECK(pypto::sim::RoundTo(DataType::kInt32, 4294967297.0) == 1.0);  // integers wrap
}

TEST_CASE("random schedule: same seed gives a byte-identical trace") {
  std::string path1 = "/tmp/pypto_sim_trace_a.json", path2 = "/tmp/pypto_sim_trace_b.json";
  std::vector<double> x(32, 1.0);
  for (const std::string& p : {path1, path2}) {
    Run r;
    auto o = RandomOpts(2, 77);
    o.entry = "k";
    o.trace_path = p;
    Execute(r, kMisc, {{"x", Make(DataType::kFP32, {2, 2, 8}, x)}}, o);
    REQUIRE(r.result.exit_code == 0);
  }
  auto slurp = [](const std::string& p) {
    std::ifstream f(p);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  std::string a = slurp(path1), b = slurp(path2);
  CHECK(a == b);
  CHECK(a.find("\"name\": \"pld.system.notify\"") != std::string::npos);
  CHECK(a.find("\"args\": {\"name\": \"rank1\"}") != std::string::npos);
  std::remove(path1.c_str());
  std::remove(path2.c_str());
}

TEST_CASE("poison=nan: Out buffers start as NaN where the kernel does not write") {
  const char* prog = R"PIR(# pypto.program: P
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[2, 8], pl.FP32], out: pl.Out[pl.Tensor[[2, 8], pl.FP32]]):
        t: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [2, 8], [1, 8])
        o = pl.tile.store(t, [0, 0], out)
        return
)PIR";
  Run r;
  auto o = Opts(2);
  o.entry = "k";
  o.poison_nan = true;
  Execute(r, prog, {{"x", Make(DataType::kFP32, {2, 2, 8}, std::vector<double>(32, 3.0))}}, o);
  REQUIRE(r.result.exit_code == 0);
  auto y = Values(r.result.outputs.at("out"));
  for (int rk = 0; rk < 2; ++rk)
    for (int i = 0; i < 16; ++i) {
      if (i < 8)
        CHECK(y[rk * 16 + i] == 3.0);  // valid row stored
      else
        CHECK(std::isnan(y[rk * 16 + i]));  // row outside valid_shape never written
    }
}

TEST_CASE("binding errors: missing input, wrong dtype, unknown entry") {
  Run r;
  auto o = Opts(2);
  o.entry = "k";
  Execute(r, kMisc, {}, o);
  CHECK(r.result.exit_code == 1);
  CHECK(r.result.report ==
        "error: input 'x' is missing: expected shape [2, 2, 8] dtype FP32 (pl.Tensor[[2, 8], "
        "pl.FP32]); "
        "pass --input x=FILE.npy\n");
  Run r2;
  Execute(r2, kMisc, {{"x", Make(DataType::kInt32, {2, 2, 8}, {})}}, o);
  CHECK(r2.result.exit_code == 1);
  CHECK_THAT(r2.result.report, Catch::Contains("got [2, 2, 8] INT32"));
  Run r3;
  o.entry = "nope";
  Execute(r3, kMisc, {}, o);
  CHECK(r3.result.exit_code == 2);
}

TEST_CASE("split_aiv: each sub-block is its own logical thread with its aiv_id") {
  const char* prog = R"PIR(# pypto.program: S
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class S:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            t: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [aiv_id * 2, 0], [2, 8])
            u: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.add(t, t)
            o = pl.tile.store(u, [aiv_id * 2, 0], out)
        return
)PIR";
  std::vector<double> x(64);
  for (int i = 0; i < 64; ++i) x[i] = i;
  for (int mode = 0; mode < 2; ++mode) {
    Run r;
    auto o = mode == 0 ? Opts(2) : RandomOpts(2, 8);
    o.entry = "k";
    o.detect_races = true;
    Execute(r, prog, {{"x", Make(DataType::kFP32, {2, 4, 8}, x)}}, o);
    INFO(r.result.report);
    REQUIRE(r.result.exit_code == 0);
    auto y = Values(r.result.outputs.at("out"));
    for (int i = 0; i < 64; ++i) REQUIRE(y[i] == 2 * x[i]);
  }
}

static const char* kTyped = R"PIR(# pypto.program: Typed
import pypto.language as pl


@pl.program
class Typed:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[2, 8], pl.INT32], b: pl.Tensor[[2, 8], pl.INT32], f: pl.Tensor[[2, 8], pl.FP32], g: pl.Tensor[[2, 8], pl.FP32], io: pl.Out[pl.Tensor[[2, 8], pl.INT32]], fo: pl.Out[pl.Tensor[[2, 8], pl.FP32]]):
        ta: pl.Tile[[2, 8], pl.INT32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [2, 8])
        tb: pl.Tile[[2, 8], pl.INT32, pl.Mem.Vec] = pl.tile.load(b, [0, 0], [2, 8])
        tf: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(f, [0, 0], [2, 8])
        tg: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(g, [0, 0], [2, 8], valid_shape=[2, 5])
        m: pl.Tile[[2, 8], pl.INT32, pl.Mem.Vec] = pl.tile.mul(ta, tb)
        x: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.maximum(tf, tg)
        o1 = pl.tile.store(m, [0, 0], io)
        o2 = pl.tile.store(x, [0, 0], fo)
        return
)PIR";

// The typed FP32 / INT32 kernels keep the double-then-round definition: INT32
// products wrap modulo 2^32, FP32 maximum with a NaN operand is NaN, and only
// the valid box (min of the operands' valid shapes) is computed and stored.
TEST_CASE("typed tiles: INT32 mul wraps, FP32 maximum propagates NaN, valid box only") {
  std::vector<double> a(16), b(16), f(16), g(16);
  for (int i = 0; i < 16; ++i) {
    a[i] = 70000 + 1000 * i;
    b[i] = i % 2 ? -70001 : 3;
    f[i] = i - 8;
    g[i] = i == 2 ? NAN : 8 - i;
  }
  Run r;
  auto o = Opts(1);
  o.entry = "k";
  Execute(r, kTyped,
          {{"a", Make(DataType::kInt32, {1, 2, 8}, a)},
           {"b", Make(DataType::kInt32, {1, 2, 8}, b)},
           {"f", Make(DataType::kFP32, {1, 2, 8}, f)},
           {"g", Make(DataType::kFP32, {1, 2, 8}, g)}},
          o);
  INFO(r.result.report);
  REQUIRE(r.result.exit_code == 0);
  auto io = Values(r.result.outputs.at("io"));
  auto fo = Values(r.result.outputs.at("fo"));
  for (int i = 0; i < 16; ++i) {
    int64_t p = static_cast<int64_t>(a[i]) * static_cast<int64_t>(b[i]);
    REQUIRE(io[i] == static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(p))));
    if (i % 8 >= 5) {
      REQUIRE(fo[i] == 0);  // outside the valid box: not stored
    } else if (i == 2) {
      REQUIRE(std::isnan(fo[i]));
    } else {
      REQUIRE(fo[i] == std::max(f[i], g[i]));
    }
  }
}
