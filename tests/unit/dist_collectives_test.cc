// Verifier rules of the pld.tensor.* collectives and the internal
// builtin.tensor.* dispatches: window-as-result types, signal shapes/dtype,
// ReduceOp and dtype support, root range, mode/core_num rules, distinct-operand
// and packed-layout rules. Exact diagnostics and argument positions.
#include "dist_test_util.h"
#include "pypto/ir/comm.h"

using namespace dist_test;

static NamedAttr ROp(int v) { return Fx::KEnum("op", EnumKind::kReduceOp, v); }

TEST_CASE("allreduce: window-as-result, modes and signals", "[dist][allreduce]") {
  Fx f;
  const Var* data = f.V("data", f.Dist({256}, DataType::kFP32));
  const Call* c = f.Mk("pld.tensor.allreduce", {data});
  Accepts(f, c);
  CHECK(c->type == data->type);
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  const Var* sig1 = f.V("sig1", f.Dist({4}, DataType::kInt32));
  const Var* sig4 = f.V("sig4", f.Dist({4, 4}, DataType::kInt32));
  for (int op = 0; op < 4; ++op) {
    c = f.Mk("pld.tensor.allreduce", {data, sig}, {ROp(op)});
    Accepts(f, c);
    CHECK(c->type == data->type);
  }
  Accepts(f, f.Mk("pld.tensor.allreduce", {data, sig1}));
  Accepts(f, f.Mk("pld.tensor.allreduce", {data, sig4}, {Fx::KInt("core_num", 4)}));
  const Var* half = f.V("half", f.Dist({16, 64}, DataType::kFP16));
  Accepts(f, f.Mk("pld.tensor.allreduce", {half, sig}, {ROp(3)}));
  const Var* ring = f.V("ring", f.Dist({6, 4}, DataType::kInt32));
  const Var* ring_host = f.V("ringh", f.Dist({7, 4}, DataType::kInt32));
  Accepts(f, f.Mk("pld.tensor.allreduce", {data, ring}, {Fx::KStr("mode", "ring")}));
  Accepts(f, f.Mk("pld.tensor.allreduce", {data, ring_host}, {Fx::KStr("mode", "ring")}));
  const Var* nr = f.V("NR", f.Sc(DataType::kIndex));
  const Var* dyn = f.V("dyn", f.DistS({nr, f.ctx.Int(1)}, DataType::kInt32));
  Accepts(f, f.Mk("pld.tensor.allreduce", {data, dyn}));
}

TEST_CASE("allreduce verifier", "[dist][allreduce]") {
  Fx f;
  const Var* data = f.V("data", f.Dist({256}, DataType::kFP32));
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  const Var* idata = f.V("idata", f.Dist({256}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.allreduce", {idata, sig}), idata,
            "pld.tensor.allreduce: argument 'target' has element type pl.INT32; allreduce "
            "supports pl.FP16 and pl.FP32");
  const Var* plain = f.V("plain", f.Tensor({256}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.allreduce", {plain}), plain,
            "pld.tensor.allreduce: argument 'target' must be a pld.DistributedTensor "
            "(window-bound), got pl.Tensor[[256], pl.FP32]");
  Rejects(f, f.Mk("pld.tensor.allreduce", {data, sig}, {Fx::KInt("op", 4)}),
          "pld.tensor.allreduce: keyword 'op' value 4 is out of range for pld.ReduceOp "
          "(pld.ReduceOp.Sum=0, pld.ReduceOp.Max=1, pld.ReduceOp.Min=2, pld.ReduceOp.Prod=3)");
  Rejects(f, f.Mk("pld.tensor.allreduce", {data, sig}, {Fx::KStr("mode", "tree")}),
          "pld.tensor.allreduce: keyword 'mode' is \"tree\"; expected \"mesh\" or \"ring\"");
  Rejects(f, f.Mk("pld.tensor.allreduce", {data, sig}, {Fx::KInt("core_num", 0)}),
          "pld.tensor.allreduce: keyword 'core_num' is 0; core_num must be a positive integer");
  const Var* ring = f.V("ring", f.Dist({6, 4}, DataType::kInt32));
  Rejects(f,
          f.Mk("pld.tensor.allreduce", {data, ring},
               {Fx::KStr("mode", "ring"), Fx::KInt("core_num", 2)}),
          "pld.tensor.allreduce: keyword 'core_num' is 2; mode=\"ring\" requires core_num=1 "
          "(multi-core allreduce is mesh only)");
  Rejects(f, f.Mk("pld.tensor.allreduce", {data}, {Fx::KStr("mode", "ring")}),
          "pld.tensor.allreduce: mode=\"ring\" requires an explicit signal argument (a [2 * (NR - "
          "1), NR] INT32 window); only mesh signals are synthesized");
  const Var* sq = f.V("sq", f.Dist({4, 4}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.allreduce", {data, sq}, {Fx::KStr("mode", "ring")}), sq,
            "pld.tensor.allreduce: argument 'signal' has shape [4, 4]; a ring allreduce signal is "
            "[2 * (NR - 1), NR] or [2 * (NR - 1) + 1, NR] (one row per ring round, one cell per "
            "rank)");
  const Var* fsig = f.V("fsig", f.Dist({4, 1}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.allreduce", {data, fsig}), fsig,
            "pld.tensor.allreduce: argument 'signal' must have element type pl.INT32 (barrier "
            "credit counters), got pl.FP32");
  const Var* sig1 = f.V("sig1", f.Dist({4}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.allreduce", {data, sig1}, {Fx::KInt("core_num", 2)}), sig1,
            "pld.tensor.allreduce: argument 'signal' has shape [4]; a rank-1 [NR] signal has one "
            "lane per rank, so it only serves core_num=1 — use a [NR, stride] signal with stride "
            ">= 2");
  RejectsAt(f, f.Mk("pld.tensor.allreduce", {data, sig}, {Fx::KInt("core_num", 2)}), sig,
            "pld.tensor.allreduce: argument 'signal' has shape [4, 1]; a mesh allreduce signal "
            "[NR, stride] needs a static stride >= core_num (2)");
  const Var* s3 = f.V("s3", f.Dist({4, 1, 1}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.allreduce", {data, s3}), s3,
            "pld.tensor.allreduce: argument 'signal' has shape [4, 1, 1]; a mesh allreduce signal "
            "is [NR] or [NR, stride] (one counter per rank and core)");
  const Var* psig = f.V("psig", f.Tensor({4, 1}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.allreduce", {data, psig}), psig,
            "pld.tensor.allreduce: argument 'signal' must be a pld.DistributedTensor "
            "(window-bound), got pl.Tensor[[4, 1], pl.INT32]");
}

TEST_CASE("barrier, broadcast, reduce_scatter", "[dist][collectives]") {
  Fx f;
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  const Call* c = f.Mk("pld.tensor.barrier", {sig});
  Accepts(f, c);
  CHECK(c->type == sig->type);
  const Var* wide = f.V("wide", f.Dist({4, 2}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.barrier", {wide}), wide,
            "pld.tensor.barrier: argument 'signal' must have shape [NR] or [NR, 1] (one barrier "
            "cell per rank), got [4, 2]");

  const Var* data = f.V("data", f.Dist({4, 64}, DataType::kFP32));
  c = f.Mk("pld.tensor.broadcast", {data, sig}, {Fx::KInt("root", 3)});
  Accepts(f, c);
  CHECK(c->type == data->type);
  Rejects(f, f.Mk("pld.tensor.broadcast", {data, sig}),
          "pld.tensor.broadcast: missing required keyword argument 'root'");
  Rejects(f, f.Mk("pld.tensor.broadcast", {data, sig}, {Fx::KInt("root", -1)}),
          "pld.tensor.broadcast: keyword 'root' is -1; the root rank must be >= 0");
  Rejects(f, f.Mk("pld.tensor.broadcast", {data, sig}, {Fx::KInt("root", 4)}),
          "pld.tensor.broadcast: keyword 'root' is 4 but 'signal' has 4 ranks; the root rank "
          "must be < NR");
  const Var* nr = f.V("NR", f.Sc(DataType::kIndex));
  const Var* dsig = f.V("dsig", f.DistS({nr, f.ctx.Int(1)}, DataType::kInt32));
  Accepts(f, f.Mk("pld.tensor.broadcast", {data, dsig}, {Fx::KInt("root", 100)}));

  c = f.Mk("pld.tensor.reduce_scatter", {data, sig});
  Accepts(f, c);
  CHECK(c->type == data->type);
  for (int op = 1; op < 4; ++op)  // Max, Min, Prod
    Accepts(f, f.Mk("pld.tensor.reduce_scatter", {data, sig}, {ROp(op)}));
  const Var* flat = f.V("flat", f.Dist({256}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.reduce_scatter", {flat, sig}), flat,
            "pld.tensor.reduce_scatter: argument 'target' must be 2-D [NR, SIZE], got shape [256]");
  const Var* six = f.V("six", f.Dist({6, 64}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.reduce_scatter", {six, sig}), six,
            "pld.tensor.reduce_scatter: argument 'target' has shape [6, 64] but 'signal' has 4 "
            "ranks; the layout is [NR * k, SIZE]");
}

TEST_CASE("allgather and all_to_all", "[dist][collectives]") {
  Fx f;
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  const Var* chunk = f.V("chunk", f.Tensor({1, 64}, DataType::kFP32));
  const Var* gathered = f.V("g", f.Dist({4, 64}, DataType::kFP32));
  const Call* c = f.Mk("pld.tensor.allgather", {chunk, gathered, sig});
  Accepts(f, c);
  CHECK(c->type == gathered->type);
  const Var* staged = f.V("staged", f.Dist({4, 64}, DataType::kFP32));
  Accepts(f, f.Mk("pld.tensor.allgather", {staged, gathered, sig}));
  // In place (upstream's two-operand HOST form): the pre-staged window is both.
  Accepts(f, f.Mk("pld.tensor.allgather", {gathered, gathered, sig}));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all", {gathered, gathered, sig}), gathered,
            "pld.tensor.all_to_all: argument 'target' is the same value as 'input'; the two "
            "operands must be distinct buffers (aliasing them races the exchange)");
  const Var* hchunk = f.V("hc", f.Tensor({1, 64}, DataType::kFP16));
  RejectsAt(f, f.Mk("pld.tensor.allgather", {hchunk, gathered, sig}), hchunk,
            "pld.tensor.allgather: argument 'local_data' has element type pl.FP16 but 'target' has "
            "pl.FP32");
  const Var* two = f.V("two", f.Tensor({2, 64}, DataType::kFP32));
  RejectsAt(
      f, f.Mk("pld.tensor.allgather", {two, gathered, sig}), two,
      "pld.tensor.allgather: argument 'local_data' has shape [2, 64] but 'target' is [4, 64]; "
      "expected [1, SIZE] or [NR, SIZE] with the same SIZE");
  const Var* eight = f.V("eight", f.Dist({8, 64}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.allgather", {chunk, eight, sig}), eight,
            "pld.tensor.allgather: argument 'target' has 8 rows but 'signal' has 4 ranks; target "
            "is [NR, SIZE]");
  const Var* flat = f.V("flat", f.Tensor({64}, DataType::kFP32));
  RejectsAt(
      f, f.Mk("pld.tensor.allgather", {flat, gathered, sig}), flat,
      "pld.tensor.allgather: argument 'local_data' must be 2-D [1, SIZE] (or [NR, SIZE]), got "
      "shape [64]");
  const Var* sig64 = f.V("sig64", f.Dist({4, 1}, DataType::kInt64));
  RejectsAt(f, f.Mk("pld.tensor.allgather", {chunk, gathered, sig64}), sig64,
            "pld.tensor.allgather: argument 'signal' must have element type pl.INT32 (barrier "
            "credit counters), got pl.INT64");

  const Var* send = f.V("send", f.Tensor({4, 64}, DataType::kFP32));
  c = f.Mk("pld.tensor.all_to_all", {send, gathered, sig});
  Accepts(f, c);
  CHECK(c->type == gathered->type);
  RejectsAt(f, f.Mk("pld.tensor.all_to_all", {chunk, gathered, sig}), chunk,
            "pld.tensor.all_to_all: argument 'input' has shape [1, 64] but 'target' is [4, 64]; "
            "expected the same [NR, SIZE] shape");
  RejectsAt(f, f.Mk("pld.tensor.all_to_all", {gathered, gathered, sig}), gathered,
            "pld.tensor.all_to_all: argument 'target' is the same value as 'input'; the two "
            "operands must be distinct buffers (aliasing them races the exchange)");
}

TEST_CASE("all_to_all_v layout and operand rules", "[dist][collectives]") {
  Fx f;
  const Var* in = f.V("in", f.Tensor({8, 32}, DataType::kFP32));
  const Var* out = f.V("out", f.Dist({8, 32}, DataType::kFP32));
  const Var* sig = f.V("sig", f.Dist({4, 1}, DataType::kInt32));
  const Var* send = f.V("send", f.Tensor({4}, DataType::kInt32));
  const Var* recv = f.V("recv", f.Dist({4, 1}, DataType::kInt32));
  const Call* c = f.Mk("pld.tensor.all_to_all_v", {in, out, sig, send, recv});
  Accepts(f, c);
  CHECK(c->type == out->type);
  Rejects(f, f.Mk("pld.tensor.all_to_all_v", {in, out, sig, send, recv}, {Fx::KInt("core_num", 2)}),
          "pld.tensor.all_to_all_v: keyword 'core_num' is 2; every all_to_all_v rail is "
          "single-block today, so only core_num=1 is accepted (multi-block launch is planned for "
          "the CHIP rail)");
  Rejects(f, f.Mk("pld.tensor.all_to_all_v", {in, out, sig, send, recv}, {Fx::KInt("core_num", 0)}),
          "pld.tensor.all_to_all_v: keyword 'core_num' is 0; core_num must be a positive integer");
  const Var* din = f.V("din", f.Dist({8, 32}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {din, din, sig, send, recv}), din,
            "pld.tensor.all_to_all_v: argument 'target' is the same value as 'input'; the two "
            "operands must be distinct buffers (aliasing them races the exchange)");
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in, out, sig, send, sig}), sig,
            "pld.tensor.all_to_all_v: argument 'recv_counts' is the same value as 'signal'; the "
            "two operands must be distinct buffers (aliasing them races the exchange)");
  TensorView dn;
  dn.layout = TensorLayout::kDN;
  const Var* dnin = f.V("dnin", f.Tensor({8, 32}, DataType::kFP32, dn));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {dnin, out, sig, send, recv}), dnin,
            "pld.tensor.all_to_all_v: argument 'input' has layout pl.TensorLayout.DN; it is "
            "addressed by flat element arithmetic, so it must be a packed row-major (ND) view");
  TensorView strided;
  strided.stride = f.S({64, 1});
  const Var* sout = f.V("sout", f.Dist({8, 32}, DataType::kFP32, strided));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in, sout, sig, send, recv}), sout,
            "pld.tensor.all_to_all_v: argument 'target' has strides [64, 1] for shape [8, 32]; it "
            "is addressed by flat element arithmetic, so it needs the packed row-major strides");
  TensorView packed;
  packed.stride = f.S({32, 1});
  const Var* pout = f.V("pout", f.Dist({8, 32}, DataType::kFP32, packed));
  Accepts(f, f.Mk("pld.tensor.all_to_all_v", {in, pout, sig, send, recv}));
  TensorView part;
  part.valid_shape = f.S({4, 32});
  const Var* vin = f.V("vin", f.Tensor({8, 32}, DataType::kFP32, part));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {vin, out, sig, send, recv}), vin,
            "pld.tensor.all_to_all_v: argument 'input' has valid_shape [4, 32] narrower than its "
            "shape [8, 32]; all_to_all_v needs the full valid shape");
  const Var* sig1 = f.V("sig1", f.Dist({4}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in, out, sig1, send, recv}), sig1,
            "pld.tensor.all_to_all_v: argument 'signal' must have shape [NR, 1] (one barrier cell "
            "per rank), got [4]");
  const Var* fsend = f.V("fsend", f.Tensor({4}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in, out, sig, fsend, recv}), fsend,
            "pld.tensor.all_to_all_v: argument 'send_counts' must have element type pl.INT32 (row "
            "counts), got pl.FP32");
  const Var* wsend = f.V("wsend", f.Tensor({4, 2}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in, out, sig, wsend, recv}), wsend,
            "pld.tensor.all_to_all_v: argument 'send_counts' must have shape [NR] or [NR, 1] (one "
            "count per rank), got [4, 2]");
  const Var* recv1 = f.V("recv1", f.Dist({4}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in, out, sig, send, recv1}), recv1,
            "pld.tensor.all_to_all_v: argument 'recv_counts' must have shape [NR, 1] (one count "
            "per rank), got [4]");
  const Var* precv = f.V("precv", f.Tensor({4, 1}, DataType::kInt32));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in, out, sig, send, precv}), precv,
            "pld.tensor.all_to_all_v: argument 'recv_counts' must be a pld.DistributedTensor "
            "(window-bound), got pl.Tensor[[4, 1], pl.INT32]");
  const Var* in6 = f.V("in6", f.Tensor({6, 32}, DataType::kFP32));
  const Var* out6 = f.V("out6", f.Dist({6, 32}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in6, out6, sig, send, recv}), out6,
            "pld.tensor.all_to_all_v: argument 'target' has shape [6, 32] but 'signal' has 4 "
            "ranks; the layout is [NR * MAX_RECV, SIZE]");
  const Var* in16 = f.V("in16", f.Tensor({8, 16}, DataType::kFP32));
  RejectsAt(f, f.Mk("pld.tensor.all_to_all_v", {in16, out, sig, send, recv}), in16,
            "pld.tensor.all_to_all_v: argument 'input' has shape [8, 16] but 'target' is [8, 32]; "
            "both are the flat [NR * MAX_RECV, SIZE] staging layout");
}

TEST_CASE("builtin.tensor.* dispatch checks", "[dist][builtins]") {
  Fx f;
  const Var* data = f.V("data", f.Dist({256}, DataType::kFP32));
  const Var* sig = f.V("sig", f.Dist({4}, DataType::kInt32));
  AttrList fp32 = {Fx::KDt("dtype", DataType::kFP32)};
  const Call* c = f.Mk("builtin.tensor.allreduce", {data, sig}, fp32);
  Accepts(f, c);
  CHECK(c->type == data->type);
  Rejects(f, f.Mk("builtin.tensor.allreduce", {data, sig}, {Fx::KDt("dtype", DataType::kFP16)}),
          "builtin.tensor.allreduce: keyword 'dtype' is pl.FP16 but argument 'src' has element "
          "type pl.FP32; they must match");
  Rejects(f, f.Mk("builtin.tensor.allreduce", {data, sig}),
          "builtin.tensor.allreduce: missing required keyword argument 'dtype'");
  const Var* sig42 = f.V("sig42", f.Dist({4, 2}, DataType::kInt32));
  RejectsAt(f,
            f.Mk("builtin.tensor.allreduce", {data, sig42},
                 {Fx::KDt("dtype", DataType::kFP32), Fx::KInt("core_num", 4)}),
            sig42,
            "builtin.tensor.allreduce: argument 'signal' has shape [4, 2]; a mesh allreduce signal "
            "[NR, stride] needs a static stride >= core_num (4)");
  const Var* ring7 = f.V("ring7", f.Dist({7, 4}, DataType::kInt32));
  Accepts(f, f.Mk("builtin.tensor.allreduce_ring", {data, ring7}, fp32));
  const Var* ring6 = f.V("ring6", f.Dist({6, 4}, DataType::kInt32));
  RejectsAt(f, f.Mk("builtin.tensor.allreduce_ring", {data, ring6}, fp32), ring6,
            "builtin.tensor.allreduce_ring: argument 'signal' has shape [6, 4]; a ring allreduce "
            "signal is [2 * (NR - 1) + 1, NR] (one row per ring round, one cell per rank)");
  const Var* rows = f.V("rows", f.Dist({4, 64}, DataType::kFP32));
  Accepts(f, f.Mk("builtin.tensor.barrier", {sig}));
  Rejects(f,
          f.Mk("builtin.tensor.broadcast", {rows, sig},
               {Fx::KInt("root", 5), Fx::KDt("dtype", DataType::kFP32)}),
          "builtin.tensor.broadcast: keyword 'root' is 5; the root rank must lie in [0, NR)");
  for (int op = 0; op < 4; ++op)  // Sum, Max, Min, Prod
    Accepts(f, f.Mk("builtin.tensor.reduce_scatter", {rows, sig},
                    {ROp(op), Fx::KDt("dtype", DataType::kFP32)}));
  const Var* chunk = f.V("chunk", f.Tensor({1, 64}, DataType::kFP32));
  Accepts(f, f.Mk("builtin.tensor.allgather", {chunk, rows, sig}, fp32));
  const Var* in = f.V("in", f.Tensor({8, 32}, DataType::kFP32));
  const Var* out = f.V("out", f.Dist({8, 32}, DataType::kFP32));
  const Var* sig2 = f.V("sig2", f.Dist({4, 1}, DataType::kInt32));
  const Var* send = f.V("send", f.Dist({4}, DataType::kInt32));
  const Var* recv = f.V("recv", f.Dist({4, 1}, DataType::kInt32));
  RejectsAt(f, f.Mk("builtin.tensor.all_to_all_v", {in, out, sig2, send, recv}, fp32), in,
            "builtin.tensor.all_to_all_v: argument 'input' must be a pld.DistributedTensor "
            "(window-bound), got pl.Tensor[[8, 32], pl.FP32]");
  const Var* din = f.V("din", f.Dist({8, 32}, DataType::kFP32));
  Accepts(f, f.Mk("builtin.tensor.all_to_all_v", {din, out, sig2, send, recv}, fp32));
}
