// PTO emitter unit tests: exact module text for the reference notify kernel,
// per-op line formats (reference-anatomy §5.3/§5.4), signature and pairing
// rules, diagnostics with line:col, op-table coverage of the whole registry, and
// determinism across contexts.
#include <catch2/catch.hpp>
#include <sstream>

#include "pto_test_programs.h"
#include "pypto/codegen/pto_function_emitter.h"
#include "pypto/ir/op_registry.h"
#include "pypto/ops/ops.h"

using namespace pto_test;

namespace {

std::vector<std::string> Lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  for (std::string l; std::getline(is, l);) {
    size_t b = l.find_first_not_of(' ');
    out.push_back(b == std::string::npos ? "" : l.substr(b));
  }
  return out;
}

// Index of the first line starting with `prefix` (-1 when absent).
int Find(const std::vector<std::string>& lines, const std::string& prefix, int from = 0) {
  for (size_t i = from; i < lines.size(); ++i)
    if (lines[i].rfind(prefix, 0) == 0) return static_cast<int>(i);
  return -1;
}

bool Has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

}  // namespace

TEST_CASE("notify kernel emits the reference module exactly", "[pto]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  std::string got = EmitOne(ctx, NotifyKernel(ctx), diag);
  const char* want =
      R"(module attributes {pto.target_arch = "a2a3"} {
  func.func @kernel(%arg0: !pto.ptr<i32>, %arg1: i32, %arg2: !pto.ptr<i64>) attributes {pto.kernel_kind = #pto.kernel_kind<vector>} {
    %c16_index = arith.constant 16 : index
    %c1_index = arith.constant 1 : index
    %c2_index = arith.constant 2 : index
    %c4_index = arith.constant 4 : index
    %c4_i64 = arith.constant 4 : i64
    %c0_index = arith.constant 0 : index
    %c1_i32 = arith.constant 1 : i32
    %signal_view = pto.make_tensor_view %arg0, shape = [%c16_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xi32>
    %0 = arith.index_cast %arg1 : i32 to index
    %1 = pto.load_scalar %arg2[%c2_index] : !pto.ptr<i64> -> i64
    %2 = arith.trunci %1 : i64 to i32
    %3 = arith.index_cast %2 : i32 to index
    %4 = arith.addi %c4_index, %3 : index
    %5 = pto.load_scalar %arg2[%4] : !pto.ptr<i64> -> i64
    %6 = arith.addi %c4_index, %0 : index
    %7 = pto.load_scalar %arg2[%6] : !pto.ptr<i64> -> i64
    %8 = arith.subi %7, %5 : i64
    %9 = arith.divsi %8, %c4_i64 : i64
    %10 = arith.index_cast %9 : i64 to index
    %11 = pto.addptr %arg0, %10 : !pto.ptr<i32> -> !pto.ptr<i32>
    %12 = pto.make_tensor_view %11, shape = [%c16_index, %c16_index], strides = [%c16_index, %c1_index] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xi32>
    %signal_peer_pview = pto.partition_view %12, offsets = [%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : !pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>
    pto.barrier <PIPE_ALL>
    pto.comm.tnotify(%signal_peer_pview, %c1_i32 : !pto.partition_tensor_view<1x1xi32>, i32) {notifyOp = #pto<notify_op set>}
    return
  }
}
)";
  CHECK(got == want);
}

TEST_CASE("notify: atomic_add attr, InCore emits as vector, a5 target", "[pto]") {
  Context ctx;
  ctx.target_arch = "a5";
  DiagnosticEngine diag(&ctx.sources());
  std::string got =
      EmitOne(ctx, NotifyKernel(ctx, FunctionType::kInCore, NotifyOp::kAtomicAdd), diag);
  CHECK(Has(got, "module attributes {pto.target_arch = \"a5\"} {"));
  CHECK(Has(got, "attributes {pto.kernel_kind = #pto.kernel_kind<vector>}"));
  CHECK(Has(got, "{notifyOp = #pto<notify_op atomic_add>}"));
  codegen::PtoOptions opts;
  opts.target_arch = "a2a3";  // options override the context
  Context ctx2;
  ctx2.target_arch = "a5";
  CHECK(Has(EmitOne(ctx2, NotifyKernel(ctx2), diag, opts), "pto.target_arch = \"a2a3\""));
}

TEST_CASE("wait uses the local view and the cmp attr", "[pto]") {
  for (auto [cmp, name] : {std::pair{WaitCmp::kGe, "ge"}, std::pair{WaitCmp::kEq, "eq"}}) {
    Context ctx;
    DiagnosticEngine diag(&ctx.sources());
    auto lines = Lines(EmitOne(ctx, WaitKernel(ctx, cmp), diag));
    int pv = Find(lines,
                  "%signal_local_pview = pto.partition_view %signal_view, offsets = "
                  "[%c0_index, %c0_index], sizes = [%c1_index, %c1_index] : "
                  "!pto.tensor_view<?x?xi32> -> !pto.partition_tensor_view<1x1xi32>");
    REQUIRE(pv >= 0);
    CHECK(lines[pv + 1] == std::string("pto.comm.twait(%signal_local_pview, %c1_i32 : "
                                       "!pto.partition_tensor_view<1x1xi32>, i32) {cmp = "
                                       "#pto<wait_cmp ") +
                               name + ">}");
    CHECK(lines[pv + 2] == "pto.cmo.cacheinvalid all #pto.address_space<gm>");
    CHECK(Find(lines, "pto.load_scalar") < 0);  // no peer arithmetic
  }
}

TEST_CASE("put: staging tile, barriers, tput attr, cacheinvalid, fence", "[pto]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  std::string text = EmitOne(ctx, PutKernel(ctx), diag);
  auto lines = Lines(text);
  const std::string tb =
      "!pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=64, v_row=16, v_col=64, "
      "blayout=row_major, slayout=none_box, fractal=512, pad=0>";
  CHECK(Find(lines, "%tput_stage = pto.alloc_tile addr = %c0_i64 : " + tb) >= 0);
  CHECK(Find(lines, "%c2_i64 = arith.constant 2 : i64") >= 0);  // f16 element bytes
  int d = Find(lines, "%dst_peer_pview = pto.partition_view %");
  REQUIRE(d >= 0);
  CHECK(Has(lines[d],
            "offsets = [%c0_index, %c0_index], sizes = [%c16_index, %c64_index] : "
            "!pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<16x64xf16>"));
  CHECK(lines[d + 1] ==
        "%src_local_pview = pto.partition_view %src_view, offsets = [%c0_index, %c0_index], "
        "sizes = [%c16_index, %c64_index] : !pto.tensor_view<?x?xf16> -> "
        "!pto.partition_tensor_view<16x64xf16>");
  CHECK(lines[d + 2] == "pto.barrier <PIPE_ALL>");
  CHECK(lines[d + 3] ==
        "pto.comm.tput(%dst_peer_pview, %src_local_pview, buf(%tput_stage) : "
        "!pto.partition_tensor_view<16x64xf16>, !pto.partition_tensor_view<16x64xf16>, " +
            tb + ") {atomicType = #pto<atomic_type atomic_none>}");
  CHECK(lines[d + 4] == "pto.barrier <PIPE_ALL>");
  CHECK(lines[d + 5] ==
        "pto.cmo.cacheinvalid %dst_peer_pview single_cache_line : "
        "!pto.partition_tensor_view<16x64xf16>");
  CHECK(lines[d + 6] == "pto.fence.barrier_all #pto.fence_scope<gm>");
  // Args: dst %arg0, src %arg1, peer %arg2, ctx_dst %arg3, ctx_src %arg4; the dst
  // peer view goes through ctx_dst.
  CHECK(Find(lines, "%1 = pto.load_scalar %arg3[%c2_index]") >= 0);
}

TEST_CASE("put/get: ping-pong stages and atomic add; get has no attr", "[pto]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  std::string put = EmitOne(ctx, PutKernel(ctx, true, AtomicType::kAdd), diag);
  CHECK(Has(put, "%tput_stage_pong = pto.alloc_tile addr = %c2048_i64 : "));
  CHECK(Has(put, "buf(%tput_stage_ping, %tput_stage_pong) : "));
  CHECK(Has(put, "{atomicType = #pto<atomic_type atomic_add>}"));
  Context ctx2;
  auto lines = Lines(EmitOne(ctx2, PutKernel(ctx2, true, AtomicType::kNone, true), diag));
  int g = Find(lines,
               "pto.comm.tget(%dst_local_pview, %src_peer_pview, "
               "buf(%tget_stage_ping, %tget_stage_pong) : ");
  REQUIRE(g >= 0);
  CHECK(lines[g].back() == ')');  // no attribute dict
  CHECK(lines[g - 1] == "pto.barrier <PIPE_ALL>");
  CHECK(lines[g + 1] == "pto.barrier <PIPE_ALL>");
  CHECK(lines[g + 2] == "pto.fence.barrier_all #pto.fence_scope<gm>");  // no cacheinvalid
  // The src peer view goes through ctx_src (%arg4: second ctx param, src is dist #2).
  CHECK(Find(lines, "%1 = pto.load_scalar %arg4[%c2_index]") >= 0);
}

TEST_CASE("remote_store: leading 1s, atomic add, cacheinvalid; BF16 add rejected on a5", "[pto]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  auto lines = Lines(EmitOne(ctx, RemoteStoreKernel(ctx), diag));
  int s = Find(lines, "%target_peer_pview = pto.partition_view %");
  REQUIRE(s >= 0);
  CHECK(Has(lines[s],
            "offsets = [%c1_index, %c0_index, %c0_index], sizes = [%c1_index, "
            "%c16_index, %c32_index] : !pto.tensor_view<?x?x?xf16> -> "
            "!pto.partition_tensor_view<1x16x32xf16>"));
  CHECK(lines[s + 1] ==
        "pto.tstore ins(%t : !pto.tile_buf<loc=vec, dtype=f16, rows=16, cols=32, v_row=16, "
        "v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs("
        "%target_peer_pview : !pto.partition_tensor_view<1x16x32xf16>) {atomicType = "
        "#pto<atomic_type atomic_add>}");
  CHECK(lines[s + 2] ==
        "pto.cmo.cacheinvalid %target_peer_pview single_cache_line : "
        "!pto.partition_tensor_view<1x16x32xf16>");
  Context plain;
  std::string none = EmitOne(plain, RemoteStoreKernel(plain, AtomicType::kNone), diag);
  CHECK(!Has(none, "atomicType"));
  // IR built (and type-checked) for a2a3, then emitted for a5.
  Context a5;
  DiagnosticEngine d5(&a5.sources());
  std::vector<codegen::PtoModule> mods;
  codegen::PtoOptions opts;
  opts.target_arch = "a5";
  CHECK_FALSE(codegen::EmitPto(a5, *RemoteStoreKernel(a5, AtomicType::kAdd, DataType::kBF16), opts,
                               &mods, d5));
  REQUIRE(d5.diagnostics().size() == 1);
  CHECK(d5.diagnostics()[0].message ==
        "pld.tile.remote_store: atomic add on BF16 is only supported on the a2a3 (Ascend910B) "
        "target, not a5");
}

TEST_CASE("remote_load + scf.for with a tile iter arg + tile.store", "[pto]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  std::string text = EmitOne(ctx, RemoteLoadAddKernel(ctx), diag);
  INFO(text);
  auto lines = Lines(text);
  CHECK(Find(lines,
             "func.func @kernel(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: "
             "!pto.ptr<f32>, %arg3: i32, %arg4: !pto.ptr<i64>) attributes") >= 0);
  CHECK(Find(lines, "%t = pto.alloc_tile addr = %c0_i64 : ") >= 0);
  CHECK(Find(lines, "%r = pto.alloc_tile addr = %c4096_i64 : ") >= 0);
  CHECK(Find(lines, "%nxt = pto.alloc_tile addr = %c8192_i64 : ") >= 0);
  int rl = Find(lines, "%r_peer_pview = pto.partition_view %");
  REQUIRE(rl >= 0);
  CHECK(Has(lines[rl + 1],
            "pto.tload ins(%r_peer_pview : !pto.partition_tensor_view<16x64xf32>) "
            "outs(%r : !pto.tile_buf<loc=vec, dtype=f32"));
  int loop = Find(lines,
                  "%acc_out = scf.for %i = %c0_index to %c4_index step %c1_index "
                  "iter_args(%acc = %t) -> (!pto.tile_buf<");
  REQUIRE(loop >= 0);
  CHECK(Has(lines[loop + 1], "pto.tadd ins(%acc, %r : !pto.tile_buf<"));
  CHECK(Has(lines[loop + 1], "outs(%nxt : !pto.tile_buf<"));
  CHECK(Has(lines[loop + 2], "scf.yield %nxt : !pto.tile_buf<"));
  CHECK(lines[loop + 3] == "}");
  CHECK(Has(lines[loop + 5], "pto.tstore ins(%acc_out : "));
  CHECK(Has(lines[loop + 4],
            "%out_pview = pto.partition_view %out_view, offsets = [%c0_index, "
            "%c0_index], sizes = [%c16_index, %c64_index]"));
}

TEST_CASE("defer_wait: checked offsets, adapter call, hidden arg, private declaration", "[pto]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  std::string text = EmitOne(ctx, DeferWaitKernel(ctx), diag);
  INFO(text);
  auto lines = Lines(text);
  CHECK(Find(lines,
             "func.func @waiter(%arg0: !pto.ptr<i32>, %arg1: index, %arg2: !pto.ptr<i64>, "
             "%__pypto_deferred_raw_args: !pto.ptr<i64>) attributes") >= 0);
  // Static [1, 2] in [4, 8] -> element 10.
  CHECK(Find(lines,
             "func.call @pypto_register_counter_completion(%__pypto_deferred_raw_args, "
             "%arg0, %c10_i64, %c3_i64) : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()") >= 0);
  CHECK(Find(lines, "%4 = arith.select %2, %3, %cn1_index : index") >= 0);
  CHECK(Find(lines,
             "func.call @pypto_register_counter_completion(%__pypto_deferred_raw_args, "
             "%arg0, %5, %c1_i64)") >= 0);
  CHECK(Find(lines,
             "func.func private @pypto_register_counter_completion(!pto.ptr<i64>, "
             "!pto.ptr<i32>, i64, i64)") >= 0);
  CHECK(Find(lines, "pto.comm.twait") < 0);
}

TEST_CASE("rank / nranks / get_comm_ctx, scalar arithmetic and scf.if", "[pto]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  std::string text = EmitOne(ctx, RankKernel(ctx), diag);
  INFO(text);
  auto lines = Lines(text);
  // [8, 1] column vector without a view: DN strides.
  CHECK(Find(lines,
             "%signal_view = pto.make_tensor_view %arg0, shape = [%c8_index, %c1_index], "
             "strides = [%c1_index, %c8_index] {layout = #pto.layout<dn>}") >= 0);
  CHECK(Find(lines, "%0 = pto.load_scalar %arg1[%c2_index] : !pto.ptr<i64> -> i64") >= 0);
  CHECK(Find(lines, "%1 = arith.trunci %0 : i64 to i32") >= 0);
  CHECK(Find(lines, "%3 = arith.shrui %2, %c32_i64 : i64") >= 0);
  CHECK(Find(lines, "%4 = arith.trunci %3 : i64 to i32") >= 0);
  CHECK(Find(lines, "%6 = arith.floordivsi %5, %4 : i32") >= 0);
  CHECK(Find(lines, "scf.if %") >= 0);
  CHECK(Find(lines, "} else {") >= 0);
  CHECK(Has(text, "{notifyOp = #pto<notify_op atomic_add>}"));
  CHECK(Has(text, "{cmp = #pto<wait_cmp eq>}"));
}

TEST_CASE("group: AIC + AIV in one module; orchestration skipped", "[pto]") {
  Context ctx;
  DiagnosticEngine diag(&ctx.sources());
  std::vector<codegen::PtoModule> mods;
  REQUIRE(codegen::EmitPto(ctx, *GroupProgram(ctx), {}, &mods, diag));
  REQUIRE(mods.size() == 1);
  CHECK(mods[0].name == "k");
  auto lines = Lines(mods[0].text);
  int aic = Find(lines,
                 "func.func @k_aic(%arg0: !pto.ptr<f32>) attributes {pto.kernel_kind = "
                 "#pto.kernel_kind<cube>} {");
  int aiv = Find(lines,
                 "func.func @k_aiv(%arg0: !pto.ptr<f32>) attributes {pto.kernel_kind = "
                 "#pto.kernel_kind<vector>} {");
  CHECK(aic >= 0);
  CHECK(aiv > aic);
}

TEST_CASE("missing CommCtx pairing and unsupported ops are diagnosed at line:col", "[pto]") {
  Context ctx;
  int file =
      ctx.sources().AddFile("k.pir", "line1\nline2\nline3\n        pld.tensor.allreduce(x)\n");
  IRBuilder b(ctx);
  b.SetSpan({file, 2, 5, 1});
  const Function* f = b.BuildFunction({"kernel", FunctionType::kAIV},
                                      {{"x", b.DistTensorT(b.Shape({16, 16}), DataType::kFP32)},
                                       {"sig", b.DistTensorT(b.Shape({4, 1}), DataType::kInt32)},
                                       {"c0", ctx.CommCtx()},
                                       {"c1", ctx.CommCtx()}},
                                      [&](const std::vector<const Var*>& p) {
                                        b.SetSpan({file, 4, 9, 20});
                                        b.Assign("y", b.Op("pld.tensor.allreduce", {p[0], p[1]}));
                                        b.Return();
                                      });
  DiagnosticEngine diag(&ctx.sources());
  CHECK_FALSE(codegen::EmitPto(ctx, *b.BuildProgram("P", {f}), {}, nullptr, diag));
  REQUIRE(diag.ErrorCount() == 1);
  CHECK(diag.diagnostics()[0].span.line == 4);
  CHECK(diag.diagnostics()[0].span.col == 9);
  CHECK(diag.diagnostics()[0].message == "pld.tensor.allreduce: not supported by the PTO backend");
  CHECK(Has(diag.Render(),
            "k.pir:4:9: error: pld.tensor.allreduce: not supported by the PTO "
            "backend"));

  Context ctx2;
  IRBuilder b2(ctx2);
  const Function* g = b2.BuildFunction({"kernel", FunctionType::kAIV},
                                       {{"x", b2.DistTensorT(b2.Shape({16, 16}), DataType::kFP32)}},
                                       [&](const std::vector<const Var*>&) { b2.Return(); });
  DiagnosticEngine d2(&ctx2.sources());
  CHECK_FALSE(codegen::EmitPto(ctx2, *b2.BuildProgram("P", {g}), {}, nullptr, d2));
  REQUIRE(d2.ErrorCount() == 1);
  CHECK(d2.diagnostics()[0].message ==
        "kernel: kernel has 1 DistributedTensor parameter(s) but 0 CommCtx parameter(s); run "
        "materialize-dist-tensor-ctx before PTO emission");
}

TEST_CASE("the PTO op table and the op registry cover each other", "[pto]") {
  const codegen::PtoOpTable& table = codegen::GetPtoOpTable();
  const OpRegistry& reg = pypto::ops::Registry();
  // Table -> registry: every entry (emitter or declared reason) is a registered op;
  // a PTO spelling only comes with an emitter.
  for (uint16_t id = 0; id < codegen::PtoOpTable::size(); ++id) {
    const codegen::PtoOpEntry& e = table[OpHandle{id}];
    if (!e.declared()) continue;
    INFO("table entry #" << id);
    CHECK(reg.Has(OpHandle{id}));
    CHECK((e.emit != nullptr) != (e.unsupported != codegen::PtoUnsupported::kNone));
    if (!e.spelling.empty()) CHECK(e.emit != nullptr);
  }
  // Registry -> table: every registered op (internal ones too) has an emitter or
  // a declared reason it is not supported by the PTO backend.
  std::vector<std::string> missing;
  for (const OpDef* op : reg.All())
    if (!table[op->handle].declared()) missing.push_back(op->name);
  INFO("ops with neither a PTO emitter nor a declared reason: " << [&] {
    std::string s;
    for (const auto& m : missing) s += m + " ";
    return s;
  }());
  CHECK(missing.empty());
}

TEST_CASE("an op without a PTO emitter is reported with its declared reason", "[pto]") {
  // The note each reason prints, pinned by the op's text name as the emitter
  // reported it before the table was keyed by handle.
  auto expected_note = [](const std::string& n) -> std::string {
    if (n == "pld.system.world_size" || n == "pld.tensor.alloc_window_buffer" ||
        n == "pld.tensor.window")
      return "host-side op: it belongs in the host orchestrator, which is not emitted as PTO";
    if (n.rfind("tensor.", 0) == 0 || n.rfind("pld.tensor.", 0) == 0)
      return "tensor-level op: lower it to tile ops (convert-tensor-to-tile-ops / "
             "lower-composite-ops, part of --pipeline=default) before PTO emission";
    if (n.rfind("builtin.", 0) == 0)
      return "builtin collective kernels are dispatched by the host runtime, not emitted as PTO";
    return "";
  };
  // Each unsupported op is reported with the exact diagnostic at the call's span
  // (a raw Call node: this checks dispatch, not the op's argument rules).
  int unsupported = 0;
  for (const OpDef* op : OpRegistry::Global().All()) {
    const codegen::PtoOpEntry& e = codegen::GetPtoOpTable()[op->handle];
    if (e.emit) continue;
    ++unsupported;
    INFO(op->name);
    Context ctx;
    int file = ctx.sources().AddFile("u.pir", "x\n");
    IRBuilder b(ctx);
    const Function* f =
        b.BuildFunction({"kernel", FunctionType::kAIV}, {}, [&](const std::vector<const Var*>&) {
          b.Emit(
              ctx.Make<EvalStmt>(ctx.Make<Call>(op, "", std::vector<const Expr*>{}, AttrList{},
                                                AttrList{}, ctx.Unknown(), Span{file, 1, 3, 1})));
        });
    DiagnosticEngine diag(&ctx.sources());
    CHECK_FALSE(codegen::EmitPto(ctx, *b.BuildProgram("P", {f}), {}, nullptr, diag));
    REQUIRE(diag.ErrorCount() == 1);
    const Diagnostic& d = diag.diagnostics()[0];
    CHECK(d.message == op->name + ": not supported by the PTO backend");
    CHECK(d.span.col == 3);
    REQUIRE(d.notes.size() == 1);
    CHECK(d.notes[0].message == expected_note(op->name));
    CHECK(d.notes[0].message == codegen::PtoUnsupportedHint(e.unsupported));
  }
  CHECK(unsupported > 0);
}

TEST_CASE("emission is byte-identical across runs and contexts", "[pto]") {
  auto run = [](const Program* (*make)(Context&)) {
    Context ctx;
    DiagnosticEngine diag(&ctx.sources());
    return EmitOne(ctx, make(ctx), diag);
  };
  for (auto make :
       {+[](Context& c) { return RemoteLoadAddKernel(c); },
        +[](Context& c) { return PutKernel(c, true); }, +[](Context& c) { return RankKernel(c); },
        +[](Context& c) { return DeferWaitKernel(c); }}) {
    std::string a = run(make), b = run(make);
    CHECK(a == b);
    CHECK(a.rfind("module attributes", 0) == 0);
  }
}

TEST_CASE("emit_source_loc appends loc(...) to op lines but not constants", "[pto]") {
  Context ctx;
  int file = ctx.sources().AddFile("dir/k.pir", "a\nb\n");
  IRBuilder b(ctx);
  b.SetSpan({file, 2, 7, 1});
  const Function* f =
      b.BuildFunction({"kernel", FunctionType::kAIV}, {}, [&](const std::vector<const Var*>&) {
        b.Eval(b.Op("system.fence", {}));
        b.Return();
      });
  codegen::PtoOptions opts;
  opts.emit_source_loc = true;
  DiagnosticEngine diag(&ctx.sources());
  std::string text = EmitOne(ctx, b.BuildProgram("P", {f}), diag, opts);
  CHECK(Has(text, "    pto.fence.barrier_all #pto.fence_scope<gm> loc(\"dir/k.pir\":2:7)\n"));
}

TEST_CASE("while loop lowers to scf.while with before/after regions", "[pto]") {
  Context ctx;
  IRBuilder b(ctx);
  const Function* f = b.BuildFunction(
      {"kernel", FunctionType::kAIV}, {{"n", b.ScalarT(DataType::kIndex)}},
      [&](const std::vector<const Var*>& p) {
        b.While(
            {{"x", b.Int(0)}},
            [&](const std::vector<const IterArg*>& ia) { return b.Lt(ia[0], p[0]); },
            [&](const std::vector<const IterArg*>& ia) {
              b.Eval(b.Op("system.fence", {}));
              b.Yield({b.Add(ia[0], b.Int(1))});
            },
            {"x_out"});
        b.Return();
      });
  DiagnosticEngine diag(&ctx.sources());
  std::string text = EmitOne(ctx, b.BuildProgram("P", {f}), diag);
  INFO(text);
  auto lines = Lines(text);
  int w = Find(lines, "%x_out = scf.while (%x = %c0_index) : (index) -> (index) {");
  REQUIRE(w >= 0);
  CHECK(lines[w + 1] == "%0 = arith.cmpi slt, %x, %arg0 : index");
  CHECK(lines[w + 2] == "scf.condition(%0) %x : index");
  CHECK(lines[w + 3] == "} do {");
  CHECK(lines[w + 4] == "^bb0(%x_1: index):");
  CHECK(lines[w + 5] == "pto.fence.barrier_all #pto.fence_scope<gm>");
  CHECK(lines[w + 6] == "%1 = arith.addi %x_1, %c1_index : index");
  CHECK(lines[w + 7] == "scf.yield %1 : index");
  CHECK(lines[w + 8] == "}");
}
