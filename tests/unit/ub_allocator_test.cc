// UB allocation for the PTO emitter (ub_allocator.h): live intervals of tile
// buffers (straight-line code, values used inside loops, loop-carried and
// if-yielded tiles, in-place aliases), first-fit addresses, coalesced carried
// groups, determinism, the bump-or-reuse policy through EmitPto, and the
// overflow diagnostic.
#include "pypto/codegen/ub_allocator.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "pypto/codegen/pto_emitter.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "pypto/ir/visitor.h"

using namespace pypto;
using namespace pypto::ir;
using pypto::codegen::PlanTileMemory;
using pypto::codegen::UbAllocator;
using pypto::codegen::UbPlan;

namespace {

constexpr int64_t kA2a3 = 192 * 1024;

const char* kHeader =
    "import pypto.language as pl\n"
    "\n"
    "\n"
    "@pl.program\n"
    "class P:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n";

// `T` = a 64 KiB Vec tile type.
std::string Kernel(const std::string& params, const std::string& body) {
  std::string b = body;
  std::string t = "pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec]";
  for (size_t p; (p = b.find("$T")) != std::string::npos;) b.replace(p, 2, t);
  return std::string(kHeader) + "    def kernel(self, " + params + "):\n" + b + "        return\n";
}

const char* kXYO =
    "x: pl.Tensor[[128, 128], pl.FP32], y: pl.Tensor[[128, 128], pl.FP32], "
    "out: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]";

const Function* Parse(Context& ctx, const std::string& text) {
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, text, "k.pir", diag);
  INFO(diag.Render());
  REQUIRE(p != nullptr);
  REQUIRE_FALSE(diag.HasErrors());
  return p->Find("kernel");
}

// "name:[start,end]@addr" per tile, in program order.
std::string Layout(const UbPlan& plan) {
  std::vector<std::string> parts;
  for (const auto& t : plan.tiles)
    parts.push_back(
        fmt::format("{}:[{},{}]@{}", t.name.empty() ? "_" : t.name, t.start, t.end, t.addr));
  return fmt::format("{}", fmt::join(parts, " "));
}

std::string PlanOf(const std::string& text, int64_t cap = kA2a3) {
  Context ctx;
  return Layout(PlanTileMemory(*Parse(ctx, text), cap));
}

// Sequential 64 KiB tiles: 5 * 64 KiB of buffers, at most 3 live at once.
const std::string kSequential = Kernel(kXYO,
                                       "        a: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
                                       "        b: $T = pl.tile.load(y, [0, 0], [128, 128])\n"
                                       "        c: $T = pl.tile.add(a, b)\n"
                                       "        o1 = pl.tile.store(c, [0, 0], out)\n"
                                       "        d: $T = pl.tile.load(out, [0, 0], [128, 128])\n"
                                       "        e: $T = pl.tile.mul(d, d)\n"
                                       "        o2 = pl.tile.store(e, [0, 0], out)\n");

// Every loop iter_arg of a function.
struct IterArgs : IRVisitor {
  std::set<const Var*> all;
  void Visit_ForStmt(const ForStmt* s) override {
    for (const IterArg* ia : s->iter_args) all.insert(ia);
    IRVisitor::Visit_ForStmt(s);
  }
};

// The layout with every loop group offered for coalescing, and whether each
// iter_arg's group became one buffer ("one" / "two").
std::string CoalescedOf(const std::string& text) {
  Context ctx;
  const Function* f = Parse(ctx, text);
  IterArgs ias;
  ias.VisitStmt(f->body);
  UbPlan plan = pypto::codegen::AnalyzeTileIntervals(*f, ias.all);
  pypto::codegen::LayOutSpace(plan, MemorySpace::kVec, 0);
  std::string out = Layout(plan);
  for (const Var* ia : ias.all) out += plan.one_buffer.count(ia) ? " one" : " two";
  return out;
}

}  // namespace

TEST_CASE("ub_allocator: straight-line intervals and first-fit addresses") {
  // Points: a=1 b=2 c=3 o1=4 d=5 e=6 o2=7. Intervals are inclusive, so c does not
  // take a's or b's memory; d and e reuse a's and b's.
  CHECK(PlanOf(kSequential) == "a:[1,3]@0 b:[2,3]@65536 c:[3,4]@131072 d:[5,6]@0 e:[6,7]@65536");
  Context ctx;
  UbPlan plan = PlanTileMemory(*Parse(ctx, kSequential), kA2a3);
  const auto& vec = plan.pools.at(static_cast<int>(MemorySpace::kVec));
  CHECK(vec.bump_bytes == 5 * 65536);
  CHECK(vec.reuse_bytes == 3 * 65536);
  CHECK(vec.peak_bytes == 3 * 65536);
  CHECK(plan.tiles[vec.peak_tile].name == "c");
  CHECK(vec.overflow_tile == -1);
}

TEST_CASE("ub_allocator: a value used inside a loop lives to the loop's end; carried tiles") {
  // Points: t=1 s=2 for-head=3 loop-start=4 (cond)=5 u=6 nxt=7 w=8 yield=9 loop-end=10
  // exit=11 r=12. `s` is defined before the loop and used in it: live to 10. The
  // carried class {t, acc, nxt, acc_out} spans [1, 12] for both of its buffers.
  std::string text = Kernel(kXYO,
                            "        t: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
                            "        s: $T = pl.tile.load(y, [0, 0], [128, 128])\n"
                            "        for i, (acc,) in pl.range(0, 4, 1, init_values=(t,)):\n"
                            "            u: $T = pl.tile.add(s, s)\n"
                            "            nxt: $T = pl.tile.add(acc, u)\n"
                            "            w: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
                            "            acc_out: $T = pl.yield_(nxt)\n"
                            "        r = pl.tile.store(acc_out, [0, 0], out)\n");
  CHECK(PlanOf(text, 0) ==
        "t:[1,12]@0 s:[2,10]@131072 u:[6,7]@196608 nxt:[1,12]@65536 w:[8,8]@196608");
}

TEST_CASE("ub_allocator: a carried group offered for coalescing is one buffer when safe") {
  // The loop of the test above: nxt = add(acc, u) writes in place what acc names,
  // and nothing reads t or acc afterwards, so nxt takes t's address (0).
  std::string body =
      "        t: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
      "        s: $T = pl.tile.load(y, [0, 0], [128, 128])\n"
      "        for i, (acc,) in pl.range(0, 4, 1, init_values=(t,)):\n"
      "            u: $T = pl.tile.add(s, s)\n"
      "            nxt: $T = pl.tile.add(acc, u)\n"
      "            w: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
      "            acc_out: $T = pl.yield_(nxt)\n"
      "        r = pl.tile.store(acc_out, [0, 0], out)\n";
  CHECK(CoalescedOf(Kernel(kXYO, body)) ==
        "t:[1,12]@0 s:[2,10]@65536 u:[6,7]@131072 nxt:[1,12]@0 w:[8,8]@131072 one");
  // The init read in the body after nxt is written: two buffers.
  std::string reads_init = body;
  reads_init.replace(reads_init.find("pl.tile.load(x, [0, 0], [128, 128])\n            acc_out"),
                     std::string("pl.tile.load(x, [0, 0], [128, 128])").size(),
                     "pl.tile.add(t, nxt)");
  std::string two = CoalescedOf(Kernel(kXYO, reads_init));
  CHECK(two.find("nxt:[1,12]@0") == std::string::npos);
  CHECK(two.substr(two.size() - 4) == " two");
  // The iter_arg read after nxt is written (in the body): two buffers.
  std::string reads_acc = body;
  reads_acc.replace(reads_acc.find("pl.tile.load(x, [0, 0], [128, 128])\n            acc_out"),
                    std::string("pl.tile.load(x, [0, 0], [128, 128])").size(),
                    "pl.tile.add(acc, acc)");
  CHECK(CoalescedOf(Kernel(kXYO, reads_acc)).find(" two") != std::string::npos);
  // The init used after the loop: two buffers.
  std::string after = body + "        r2 = pl.tile.store(t, [0, 0], out)\n";
  CHECK(CoalescedOf(Kernel(kXYO, after)).find(" two") != std::string::npos);
}

TEST_CASE("ub_allocator: yielding the iter_arg back through an if is no read") {
  // The mesh allreduce's shape: acc_next = add(acc, recv) on one branch, the
  // iter_arg itself yielded on the other; with one buffer that yield is a no-op.
  std::string text = Kernel(std::string(kXYO) + ", me: pl.Scalar[pl.INDEX]",
                            "        t: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
                            "        for p, (acc,) in pl.range(0, 4, 1, init_values=(t,)):\n"
                            "            if p != me:\n"
                            "                recv: $T = pl.tile.load(y, [0, 0], [128, 128])\n"
                            "                nxt: $T = pl.tile.add(acc, recv)\n"
                            "                sel: $T = pl.yield_(nxt)\n"
                            "            else:\n"
                            "                sel: $T = pl.yield_(acc)\n"
                            "            acc_out: $T = pl.yield_(sel)\n"
                            "        r = pl.tile.store(acc_out, [0, 0], out)\n");
  // Points: t=1 head=2 start=3 (cond)=4 if=5 recv=6 nxt=7 yield=8 yield=9 join=10
  // yield=11 end=12 exit=13 r=14.
  CHECK(CoalescedOf(text) == "t:[1,14]@0 recv:[6,7]@65536 nxt:[1,14]@0 one");
  // Yielding the init (from before the loop) instead is a real read: two buffers.
  std::string init_yield = text;
  init_yield.replace(init_yield.find("pl.yield_(acc)"), 14, "pl.yield_(t)");
  CHECK(CoalescedOf(init_yield).find(" two") != std::string::npos);
}

TEST_CASE("ub_allocator: while loops; one pool per memory space") {
  // Points: t=1 m=2 head=3 loop-start=4 cond=5 u=6 v=7 n2=8 yield=9 loop-end=10
  // exit=11 r=12 w=13. {t, acc, v, acc_out} is one carried class over [1, 12]; the
  // Mat tile m has its own pool (address 0 too); w reuses t's memory.
  std::string text = Kernel(
      "x: pl.Tensor[[128, 128], pl.FP32], out: pl.InOut[pl.Tensor[[128, 128], pl.FP32]]",
      "        t: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
      "        m: pl.Tile[[128, 128], pl.FP32, pl.Mem.Mat] = pl.tile.load(x, [0, 0], [128, 128], "
      "target_memory=pl.Mem.Mat)\n"
      "        for (n, acc) in pl.while_(init_values=(0, t)):\n"
      "            pl.cond(n < 4)\n"
      "            u: $T = pl.tile.add(acc, acc)\n"
      "            v: $T = pl.tile.add(u, u)\n"
      "            n2 = n + 1\n"
      "            n_out, acc_out = pl.yield_(n2, v)\n"
      "        r = pl.tile.store(acc_out, [0, 0], out)\n"
      "        w: $T = pl.tile.load(x, [0, 0], [128, 128])\n");
  CHECK(PlanOf(text) == "t:[1,12]@0 m:[2,2]@0 u:[6,7]@131072 v:[1,12]@65536 w:[13,13]@0");
  Context ctx;
  UbAllocator ub(*Parse(ctx, text), kA2a3, "a2a3");
  CHECK(ub.vec_mode() == UbAllocator::Mode::kReuse);  // Vec bump: 256 KiB
  CHECK(ub.plan().pools.at(static_cast<int>(MemorySpace::kMat)).bump_bytes == 65536);
}

TEST_CASE("ub_allocator: if results alias the yields of both branches") {
  // Points: a=1 cond=2 b=3 yield=4 c=5 yield=6 join=7 o=8 d=9. `a` is last used in
  // the else branch; {b, c, r} spans [3, 8]; d reuses a's memory.
  std::string text = Kernel(std::string(kXYO) + ", flag: pl.Scalar[pl.INT32]",
                            "        a: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
                            "        if flag > 0:\n"
                            "            b: $T = pl.tile.load(y, [0, 0], [128, 128])\n"
                            "            r: $T = pl.yield_(b)\n"
                            "        else:\n"
                            "            c: $T = pl.tile.add(a, a)\n"
                            "            r: $T = pl.yield_(c)\n"
                            "        o = pl.tile.store(r, [0, 0], out)\n"
                            "        d: $T = pl.tile.load(x, [0, 0], [128, 128])\n");
  CHECK(PlanOf(text, 0) == "a:[1,5]@0 b:[3,8]@65536 c:[3,8]@131072 d:[9,9]@0");
}

TEST_CASE("ub_allocator: in-place results alias their operand; discarded results") {
  // fillpad_inplace's result names t's buffer: t stays live to the store at 4.
  // The discarded load at 5 is live at its own point only.
  std::string text = Kernel(kXYO,
                            "        t: $T = pl.tile.load(x, [0, 0], [128, 128], [64, 128])\n"
                            "        u: $T = pl.tile.load(y, [0, 0], [128, 128])\n"
                            "        f: $T = pl.tile.fillpad_inplace(t)\n"
                            "        o = pl.tile.store(f, [0, 0], out)\n"
                            "        pl.tile.load(y, [0, 0], [128, 128])\n");
  std::string got = PlanOf(text, 0);
  CHECK(got == "t:[1,4]@0 u:[2,2]@65536 _:[5,5]@0");
}

TEST_CASE("ub_allocator: a value read before its definition (not SSA) is live everywhere") {
  // store(t) at point 1 reads t, which is only assigned at point 2; u at 3 must
  // not take t's memory (points: store=1 load=2 u=3 return=4).
  Context ctx;
  IRBuilder b(ctx);
  const TileType* tt = b.TileT(b.Shape({128, 128}), DataType::kFP32);
  const Function* f = b.BuildFunction(
      {"kernel", FunctionType::kInCore},
      {{"x", b.TensorT(b.Shape({128, 128}), DataType::kFP32)},
       {"out", b.TensorT(b.Shape({128, 128}), DataType::kFP32)}},
      [&](const std::vector<const Var*>& p) {
        const Var* t = ctx.NewVar("t", tt);
        b.Eval(b.Op("tile.store", {t, b.IndexTuple({0, 0}), p[1]}));
        b.AssignTo(t, b.Op("tile.load", {p[0], b.IndexTuple({0, 0}), b.IndexTuple({128, 128})}));
        b.Assign("u", b.Op("tile.load", {p[0], b.IndexTuple({0, 0}), b.IndexTuple({128, 128})}));
        b.Return();
      });
  CHECK(Layout(PlanTileMemory(*f, 0)) == "t:[0,5]@0 u:[3,3]@65536");
}

TEST_CASE("ub_allocator: determinism across contexts") {
  std::string a = PlanOf(kSequential), b = PlanOf(kSequential);
  CHECK(a == b);
}

TEST_CASE("ub_allocator: policy keeps the bump layout when it fits") {
  Context ctx;
  const Function* f = Parse(ctx, kSequential);
  UbAllocator big(*f, 1 << 20, "a2a3");  // 5 * 64 KiB fits in 1 MiB
  CHECK(big.vec_mode() == UbAllocator::Mode::kBump);
  const auto& tiles = big.plan().tiles;
  std::vector<int64_t> addrs;
  for (const auto& t : tiles) addrs.push_back(big.Place(t.var, t.call, t.space, 65536).addr);
  CHECK(addrs == std::vector<int64_t>{0, 65536, 131072, 196608, 262144});

  UbAllocator ub(*f, kA2a3, "a2a3");
  CHECK(ub.vec_mode() == UbAllocator::Mode::kReuse);
  addrs.clear();
  for (const auto& t : tiles) addrs.push_back(ub.Place(t.var, t.call, t.space, 65536).addr);
  CHECK(addrs == std::vector<int64_t>{0, 65536, 131072, 0, 65536});
}

TEST_CASE("ub_allocator: EmitPto reuses addresses only when the bump layout overflows") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, kSequential, "k.pir", diag);
  REQUIRE(p);
  std::vector<codegen::PtoModule> mods;
  REQUIRE(codegen::EmitPto(ctx, *p, {}, &mods, diag));
  REQUIRE(mods.size() == 1);
  const std::string& s = mods[0].text;
  CHECK(s.find("%d = pto.alloc_tile addr = %c0_i64 :") != std::string::npos);
  CHECK(s.find("%e = pto.alloc_tile addr = %c65536_i64 :") != std::string::npos);
  CHECK(s.find("262144") == std::string::npos);

  // On a5 (256 KiB) the same kernel still overflows the bump layout (320 KiB).
  mods.clear();
  codegen::PtoOptions a5;
  a5.target_arch = "a5";
  REQUIRE(codegen::EmitPto(ctx, *p, a5, &mods, diag));
  CHECK(mods[0].text.find("%d = pto.alloc_tile addr = %c0_i64 :") != std::string::npos);
}

TEST_CASE("ub_allocator: overflow names the peak point and the live tiles") {
  // At `e = a + b` (line 12, column 55 of the text) a, b, c, d and e are live.
  std::string text = Kernel(kXYO,
                            "        a: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
                            "        b: $T = pl.tile.load(y, [0, 0], [128, 128])\n"
                            "        c: $T = pl.tile.load(x, [0, 0], [128, 128])\n"
                            "        d: $T = pl.tile.load(y, [0, 0], [128, 128])\n"
                            "        e: $T = pl.tile.add(a, b)\n"
                            "        f: $T = pl.tile.add(c, d)\n"
                            "        g: $T = pl.tile.add(e, f)\n"
                            "        o = pl.tile.store(g, [0, 0], out)\n");
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  const Program* p = ParseProgram(ctx, text, "k.pir", diag);
  REQUIRE(p);
  CHECK_FALSE(codegen::EmitPto(ctx, *p, {}, nullptr, diag));
  REQUIRE(diag.ErrorCount() == 1);
  const auto& d = diag.diagnostics()[0];
  CHECK(d.span.line == 12);
  CHECK(d.span.col == 55);
  CHECK(d.message ==
        "tile.add: kernel tiles need 327680 bytes of UB at once here (5 tiles live: a (65536 "
        "B), b (65536 B), c (65536 B), d (65536 B), e (65536 B)) but the a2a3 target has 196608; "
        "use smaller tiles (smaller chunk_rows / chunk_cols) or keep fewer tiles live at the same "
        "time");
}

TEST_CASE("ub_allocator: first-fit fragmentation past the capacity is reported as such") {
  // a[1,4]@0 b[2,8]@32 c[3,5]@64; at 6 only b is live, but the 32-byte hole below
  // it cannot hold the 64-byte d, which lands at 64..128 > 96 although at most
  // 96 bytes are ever live at once.
  std::string text = std::string(kHeader) +
                     "    def kernel(self, x: pl.Tensor[[1, 16], pl.FP32], "
                     "o8: pl.InOut[pl.Tensor[[1, 8], pl.FP32]], "
                     "o16: pl.InOut[pl.Tensor[[1, 16], pl.FP32]]):\n"
                     "        a = pl.tile.load(x, [0, 0], [1, 8])\n"
                     "        b = pl.tile.load(x, [0, 0], [1, 8])\n"
                     "        c = pl.tile.load(x, [0, 0], [1, 8])\n"
                     "        s1 = pl.tile.store(a, [0, 0], o8)\n"
                     "        s2 = pl.tile.store(c, [0, 0], o8)\n"
                     "        d = pl.tile.load(x, [0, 0], [1, 16])\n"
                     "        s3 = pl.tile.store(d, [0, 0], o16)\n"
                     "        s4 = pl.tile.store(b, [0, 0], o8)\n"
                     "        return\n";
  CHECK(PlanOf(text, 96) == "a:[1,4]@0 b:[2,8]@32 c:[3,5]@64 d:[6,7]@64");
  Context ctx;
  const Function* f = Parse(ctx, text);
  UbAllocator ub(*f, 96, "a2a3");
  CHECK(ub.vec_mode() == UbAllocator::Mode::kOverflow);
  const auto& t0 = ub.plan().tiles[0];
  auto r = ub.Place(t0.var, t0.call, t0.space, 32);
  CHECK_FALSE(r.ok);
  CHECK(r.error_span.line == 13);
  CHECK(r.error ==
        "tile.load: kernel tiles need at most 96 bytes of UB at once, but their first-fit "
        "placement needs 128 bytes and the a2a3 target has 96; use smaller tiles (smaller "
        "chunk_rows / chunk_cols) or keep fewer tiles live at the same time");
}
