// Executor tests of each pld primitive with exact expected values: ring put,
// ring get, remote_store of two half tiles released by a Set notify, atomic-add
// put reduce-to-root, notify/wait followed by a self-notify credit reset (the
// run is checked for signal residue and races), and two overlapping comm
// domains on 3 ranks. P = 1, 2, 3, 4, 8; parallel and random schedules.
#include "sim_test_util.h"

using namespace simtest;

static const char* kPrims = R"PIR(# pypto.program: Prims
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Prims:
    @pl.function(type=pl.FunctionType.InCore)
    def ring_put(self, src: pl.Tensor[[4, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(dst)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        peer = (me + 1) % n
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.notify(signal, me, [0, 0], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(dst, [0, 0], [4, 8])
        o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def ring_get(self, src: pl.Tensor[[4, 8], pl.FP32], data: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(data)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [4, 8])
        d2 = pl.tile.store(t, [0, 0], data)
        pld.system.notify(signal, (me + n - 1) % n, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.notify(signal, me, [0, 0], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.tensor.get(out, (me + 1) % n, data)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def halves(self, src: pl.Tensor[[4, 8], pl.FP32], data: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(data)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        peer = (me + 1) % n
        top: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [2, 8])
        bot: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [2, 0], [2, 8])
        pld.tile.remote_store(top, data, peer, [0, 0])
        pld.tile.remote_store(bot, data, peer, [2, 0])
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.Set)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Eq)
        pld.system.notify(signal, me, [0, 0], pl.const(0, pl.INT32), op=pld.NotifyOp.Set)
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(data, [0, 0], [4, 8])
        o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def to_root(self, src: pl.Tensor[[4, 8], pl.FP32], acc: pl.InOut[pld.DistributedTensor[[4, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(acc)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        pld.tensor.put(acc, 0, src, atomic=pld.AtomicType.Add)
        pld.system.notify(signal, 0, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        if me == 0:
            pld.system.wait(signal, [0, 0], n, cmp=pld.WaitCmp.Ge)
            pld.system.notify(signal, 0, [0, 0], 0 - n, op=pld.NotifyOp.AtomicAdd)
            t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(acc, [0, 0], [4, 8])
            o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y_put: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]], y_get: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]], y_half: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]], y_root: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        b1 = pld.tensor.alloc_window_buffer(128)
        b2 = pld.tensor.alloc_window_buffer(128)
        b3 = pld.tensor.alloc_window_buffer(128)
        b4 = pld.tensor.alloc_window_buffer(128)
        s1 = pld.tensor.alloc_window_buffer(64)
        s2 = pld.tensor.alloc_window_buffer(64)
        s3 = pld.tensor.alloc_window_buffer(64)
        s4 = pld.tensor.alloc_window_buffer(64)
        d1 = pld.tensor.window(b1, [4, 8], dtype=pl.FP32)
        d2 = pld.tensor.window(b2, [4, 8], dtype=pl.FP32)
        d3 = pld.tensor.window(b3, [4, 8], dtype=pl.FP32)
        d4 = pld.tensor.window(b4, [4, 8], dtype=pl.FP32)
        g1 = pld.tensor.window(s1, [NR, 1], dtype=pl.INT32)
        g2 = pld.tensor.window(s2, [NR, 1], dtype=pl.INT32)
        g3 = pld.tensor.window(s3, [NR, 1], dtype=pl.INT32)
        g4 = pld.tensor.window(s4, [NR, 1], dtype=pl.INT32)
        for r in pl.range(pld.system.world_size()):
            self.ring_put(x[r], d1, g1, y_put[r], device=r)
            self.ring_get(x[r], d2, g2, y_get[r], device=r)
            self.halves(x[r], d3, g3, y_half[r], device=r)
            self.to_root(x[r], d4, g4, y_root[r], device=r)
)PIR";

static std::vector<double> Input(int P) {
  std::vector<double> v(static_cast<size_t>(P) * 32);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<double>(static_cast<int>(i % 23) - 11) + 0.5;
  return v;
}

static void CheckPrims(int P, const pypto::sim::RunOptions& o) {
  std::vector<double> x = Input(P);
  Run r;
  Execute(r, kPrims, {{"x", Make(DataType::kFP32, {P, 4, 8}, x)}}, o);
  INFO(r.result.report);
  REQUIRE(r.result.exit_code == 0);
  REQUIRE(r.result.report.empty());
  std::vector<double> put = Values(r.result.outputs.at("y_put"));
  std::vector<double> get = Values(r.result.outputs.at("y_get"));
  std::vector<double> half = Values(r.result.outputs.at("y_half"));
  std::vector<double> root = Values(r.result.outputs.at("y_root"));
  for (int rk = 0; rk < P; ++rk)
    for (int i = 0; i < 32; ++i) {
      int prev = (rk + P - 1) % P, next = (rk + 1) % P;
      REQUIRE(put[rk * 32 + i] == x[prev * 32 + i]);   // rank r received rank r-1's put
      REQUIRE(half[rk * 32 + i] == x[prev * 32 + i]);  // both half tiles landed
      REQUIRE(get[rk * 32 + i] == x[next * 32 + i]);   // rank r read rank r+1's window
      double sum = 0;
      for (int s = 0; s < P; ++s) sum += x[s * 32 + i];
      REQUIRE(root[rk * 32 + i] == (rk == 0 ? sum : 0.0));  // only the root stores the sum
    }
}

TEST_CASE("primitives: exact results on P = 1, 2, 3, 4, 8 (parallel)") {
  for (int P : {1, 2, 3, 4, 8}) {
    INFO("P=" << P);
    auto o = Opts(P);
    o.check_signals = true;
    o.detect_races = true;
    CheckPrims(P, o);
  }
}

TEST_CASE("primitives: exact results under random schedules") {
  for (int P : {2, 3, 4}) {
    for (uint64_t seed : {1u, 2u, 3u, 42u}) {
      INFO("P=" << P << " seed=" << seed);
      auto o = RandomOpts(P, seed);
      o.check_signals = true;
      o.detect_races = true;
      CheckPrims(P, o);
    }
  }
}

static const char* kDomains = R"PIR(# pypto.program: Domains
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Domains:
    @pl.function(type=pl.FunctionType.InCore)
    def ring(self, src: pl.Tensor[[2, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]], signal: pl.InOut[pld.DistributedTensor[[2, 1], pl.INT32]], out: pl.Out[pl.Tensor[[2, 8], pl.FP32]]):
        ctx = pld.get_comm_ctx(dst)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        peer = (me + 1) % n
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.notify(signal, me, [0, 0], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        t: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(dst, [0, 0], [2, 8])
        o = pl.tile.store(t, [0, 0], out)
        w: pl.Tile[[2, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(out, [0, 0], [2, 8])
        o2 = pl.tile.write(w, [0, 0], pl.cast(n, pl.FP32))
        o3 = pl.tile.store(o2, [0, 0], out)
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[3, 2, 8], pl.FP32], y: pl.Out[pl.Tensor[[3, 2, 8], pl.FP32]], z: pl.Out[pl.Tensor[[3, 2, 8], pl.FP32]]):
        ba = pld.tensor.alloc_window_buffer(64)
        sa = pld.tensor.alloc_window_buffer(8)
        bb = pld.tensor.alloc_window_buffer(64)
        sb = pld.tensor.alloc_window_buffer(8)
        da = pld.tensor.window(ba, [2, 8], dtype=pl.FP32)
        ga = pld.tensor.window(sa, [2, 1], dtype=pl.INT32)
        db = pld.tensor.window(bb, [2, 8], dtype=pl.FP32)
        gb = pld.tensor.window(sb, [2, 1], dtype=pl.INT32)
        for r in pl.range(2):
            self.ring(x[r], da, ga, y[r], device=r)
        self.ring(x[1], db, gb, z[1], device=1)
        self.ring(x[2], db, gb, z[2], device=2)
)PIR";

TEST_CASE("two overlapping comm domains {0,1} and {1,2} on 3 ranks") {
  for (int mode = 0; mode < 3; ++mode) {
    INFO("mode " << mode);
    std::vector<double> x(48);
    for (int i = 0; i < 48; ++i) x[i] = 100 * (i / 16) + (i % 16);
    auto o = mode == 0 ? Opts(3) : RandomOpts(3, static_cast<uint64_t>(mode));
    o.check_signals = true;
    o.detect_races = true;
    Run r;
    Execute(r, kDomains, {{"x", Make(DataType::kFP32, {3, 2, 8}, x)}}, o);
    INFO(r.result.report);
    REQUIRE(r.result.exit_code == 0);
    std::vector<double> y = Values(r.result.outputs.at("y")), z = Values(r.result.outputs.at("z"));
    // Domain {0,1}: ranks 0 and 1 swap; element [0,0] is overwritten with nranks = 2.
    for (int i = 1; i < 16; ++i) {
      CHECK(y[0 * 16 + i] == x[1 * 16 + i]);
      CHECK(y[1 * 16 + i] == x[0 * 16 + i]);
      CHECK(z[1 * 16 + i] == x[2 * 16 + i]);  // domain {1,2}: device 1 is rank 0 there
      CHECK(z[2 * 16 + i] == x[1 * 16 + i]);
      CHECK(y[2 * 16 + i] == 0);  // device 2 is not in domain {0,1}
      CHECK(z[0 * 16 + i] == 0);
    }
    CHECK(y[0] == 2);
    CHECK(y[16] == 2);
    CHECK(z[16] == 2);
    CHECK(z[32] == 2);
  }
}
