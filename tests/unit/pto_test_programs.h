// Kernel programs built in C++ (IRBuilder, i.e. MakeOpCall) for the PTO emitter
// tests: tile-level kernel IR as it exists after the kernel pipeline, with
// explicit CommCtx parameters paired with the DistributedTensor parameters.
// Shared by pto_emitter_test.cc and pto_golden_test.cc so the unit assertions
// and the golden modules cover the same inputs.
#pragma once

#include <string>
#include <vector>

#include "pypto/codegen/pto_emitter.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/comm.h"

namespace pto_test {

using namespace pypto;
using namespace pypto::ir;

inline Attr EnumInt(int v) { return Attr::Int(v); }

// kernel(signal: Dist[[16,16], INT32], peer: Scalar[INT32], ctx: CommCtx):
//   pld.system.notify(signal, peer, [0, 0], 1:i32, op=Set)
inline const Program* NotifyKernel(Context& ctx, FunctionType ft = FunctionType::kAIV,
                                   NotifyOp op = NotifyOp::kSet) {
  IRBuilder b(ctx);
  const Function* f =
      b.BuildFunction({"kernel", ft},
                      {{"signal", b.DistTensorT(b.Shape({16, 16}), DataType::kInt32)},
                       {"peer", b.ScalarT(DataType::kInt32)},
                       {"ctx", ctx.CommCtx()}},
                      [&](const std::vector<const Var*>& p) {
                        b.Eval(b.Op("pld.system.notify",
                                    {p[0], p[1], b.IndexTuple({0, 0}), b.Int(1, DataType::kInt32)},
                                    {{"op", EnumInt(static_cast<int>(op))}}));
                        b.Return();
                      });
  return b.BuildProgram("Notify", {f});
}

// wait(signal, [0, 0], 1:i32, cmp) followed by the consume-side cache invalidation.
inline const Program* WaitKernel(Context& ctx, WaitCmp cmp = WaitCmp::kGe) {
  IRBuilder b(ctx);
  const Function* f = b.BuildFunction(
      {"kernel", FunctionType::kAIV},
      {{"signal", b.DistTensorT(b.Shape({16, 16}), DataType::kInt32)}, {"ctx", ctx.CommCtx()}},
      [&](const std::vector<const Var*>& p) {
        b.Eval(b.Op("pld.system.wait", {p[0], b.IndexTuple({0, 0}), b.Int(1, DataType::kInt32)},
                    {{"cmp", EnumInt(static_cast<int>(cmp))}}));
        b.Eval(b.Op("system.cacheinvalid", {}));
        b.Return();
      });
  return b.BuildProgram("Wait", {f});
}

// put(dst, peer, src, stage[, stage2]) with dst, src: Dist[[16,64], FP16].
inline const Program* PutKernel(Context& ctx, bool two_stages = false,
                                AtomicType atomic = AtomicType::kNone, bool is_get = false) {
  IRBuilder b(ctx);
  const Function* f = b.BuildFunction(
      {"kernel", FunctionType::kAIV},
      {{"dst", b.DistTensorT(b.Shape({16, 64}), DataType::kFP16)},
       {"peer", b.ScalarT(DataType::kInt32)},
       {"src", b.DistTensorT(b.Shape({16, 64}), DataType::kFP16)},
       {"ctx_dst", ctx.CommCtx()},
       {"ctx_src", ctx.CommCtx()}},
      [&](const std::vector<const Var*>& p) {
        AttrList stage_kw = {{"dtype", Attr::DType(DataType::kFP16)},
                             {"target_memory", Attr::Int(static_cast<int>(MemorySpace::kVec))}};
        std::string base = is_get ? "tget_stage" : "tput_stage";
        const Var* s1 = b.Assign(two_stages ? base + "_ping" : base,
                                 b.Op("tile.create", {b.IndexTuple({16, 64})}, stage_kw));
        std::vector<const Expr*> args = {p[0], p[1], p[2], s1};
        if (two_stages)
          args.push_back(
              b.Assign(base + "_pong", b.Op("tile.create", {b.IndexTuple({16, 64})}, stage_kw)));
        AttrList kw;
        if (!is_get) kw.push_back({"atomic", EnumInt(static_cast<int>(atomic))});
        b.Eval(b.Op(is_get ? "pld.tile.get" : "pld.tile.put", args, kw));
        b.Eval(b.Op("system.fence", {}));
        b.Return();
      });
  return b.BuildProgram("Put", {f});
}

// remote_store of a loaded 16x32 FP16 tile into a rank-3 target [2, 16, 32].
inline const Program* RemoteStoreKernel(Context& ctx, AtomicType atomic = AtomicType::kAdd,
                                        DataType dt = DataType::kFP16) {
  IRBuilder b(ctx);
  const Function* f = b.BuildFunction(
      {"kernel", FunctionType::kAIV},
      {{"x", b.TensorT(b.Shape({16, 32}), dt)},
       {"target", b.DistTensorT(b.Shape({2, 16, 32}), dt)},
       {"peer", b.ScalarT(DataType::kInt32)},
       {"ctx", ctx.CommCtx()}},
      [&](const std::vector<const Var*>& p) {
        const Var* t = b.Assign(
            "t", b.Op("tile.load", {p[0], b.IndexTuple({0, 0}), b.IndexTuple({16, 32})},
                      {{"target_memory", Attr::Int(static_cast<int>(MemorySpace::kVec))}}));
        b.Eval(b.Op("pld.tile.remote_store", {t, p[1], p[2], b.IndexTuple({1, 0, 0})},
                    {{"atomic", EnumInt(static_cast<int>(atomic))}}));
        b.Return();
      });
  return b.BuildProgram("RemoteStore", {f});
}

// remote_load a peer tile, add it to a local one in a loop, store the sum.
inline const Program* RemoteLoadAddKernel(Context& ctx) {
  IRBuilder b(ctx);
  const Function* f = b.BuildFunction(
      {"kernel", FunctionType::kInCore},
      {{"x", b.TensorT(b.Shape({16, 64}), DataType::kFP32)},
       {"win", b.DistTensorT(b.Shape({16, 64}), DataType::kFP32)},
       {"out", b.TensorT(b.Shape({16, 64}), DataType::kFP32), ParamDirection::kOut},
       {"peer", b.ScalarT(DataType::kInt32)},
       {"ctx", ctx.CommCtx()}},
      [&](const std::vector<const Var*>& p) {
        AttrList vec = {{"target_memory", Attr::Int(static_cast<int>(MemorySpace::kVec))}};
        const Var* t = b.Assign(
            "t", b.Op("tile.load", {p[0], b.IndexTuple({0, 0}), b.IndexTuple({16, 64})}, vec));
        const Var* r = b.Assign("r", b.Op("pld.tile.remote_load", {p[1], p[3], b.IndexTuple({0, 0}),
                                                                   b.IndexTuple({16, 64})}));
        auto loop = b.For("i", b.Int(0), b.Int(4), b.Int(1), {{"acc", t}},
                          [&](const Var*, const std::vector<const IterArg*>& ia) {
                            const Var* nxt = b.Assign("nxt", b.Op("tile.add", {ia[0], r}));
                            b.Yield({nxt});
                          });
        b.Eval(b.Op("tile.store", {loop.results[0], b.IndexTuple({0, 0}), p[2]}));
        b.Return();
      });
  return b.BuildProgram("RemoteLoadAdd", {f});
}

// defer_wait on a [4, 8] INT32 counter at a static and at a dynamic offset.
inline const Program* DeferWaitKernel(Context& ctx) {
  IRBuilder b(ctx);
  const Function* f = b.BuildFunction(
      {"waiter", FunctionType::kAIV},
      {{"counter", b.DistTensorT(b.Shape({4, 8}), DataType::kInt32)},
       {"slot", b.ScalarT(DataType::kIndex)},
       {"ctx", ctx.CommCtx()}},
      [&](const std::vector<const Var*>& p) {
        b.Eval(b.Op("pld.system.defer_wait",
                    {p[0], b.IndexTuple({1, 2}), b.Int(3, DataType::kInt32)},
                    {{"cmp", EnumInt(static_cast<int>(WaitCmp::kGe))}}));
        b.Eval(b.Op("pld.system.defer_wait", {p[0], b.Tuple({p[1], b.Int(0)}), b.Int(1)},
                    {{"cmp", EnumInt(static_cast<int>(WaitCmp::kGe))}}));
        b.Return();
      });
  return b.BuildProgram("DeferWait", {f});
}

// rank / nranks through get_comm_ctx, scalar arithmetic, scf.if on the rank.
inline const Program* RankKernel(Context& ctx) {
  IRBuilder b(ctx);
  const Function* f = b.BuildFunction(
      {"kernel", FunctionType::kAIV},
      {{"signal", b.DistTensorT(b.Shape({8, 1}), DataType::kInt32)}, {"ctx", ctx.CommCtx()}},
      [&](const std::vector<const Var*>& p) {
        const Var* c = b.Assign("c", b.Op("pld.system.get_comm_ctx", {p[0]}));
        const Var* me = b.Assign("me", b.Op("pld.system.rank", {c}));
        const Var* n = b.Assign("n", b.Op("pld.system.nranks", {c}));
        const Var* nxt = b.Assign("nxt", b.FloorMod(b.Add(me, b.Int(1, DataType::kInt32)), n));
        b.If(
            b.Eq(me, b.Int(0, DataType::kInt32)),
            [&] {
              b.Eval(b.Op("pld.system.notify",
                          {p[0], nxt, b.Tuple({me, b.Int(0)}), b.Int(1, DataType::kInt32)},
                          {{"op", EnumInt(static_cast<int>(NotifyOp::kAtomicAdd))}}));
            },
            [&] {
              b.Eval(b.Op("pld.system.wait",
                          {p[0], b.Tuple({me, b.Int(0)}), b.Int(1, DataType::kInt32)},
                          {{"cmp", EnumInt(static_cast<int>(WaitCmp::kEq))}}));
            });
        b.Return();
      });
  return b.BuildProgram("Rank", {f});
}

// A Group's AIC + AIV pair: the AIV half waits and the AIC half is empty.
inline const Program* GroupProgram(Context& ctx) {
  IRBuilder b(ctx);
  const Function* aic = b.BuildFunction({"k_aic", FunctionType::kAIC},
                                        {{"x", b.TensorT(b.Shape({16, 16}), DataType::kFP32)}},
                                        [&](const std::vector<const Var*>&) { b.Return(); });
  const Function* aiv = b.BuildFunction({"k_aiv", FunctionType::kAIV},
                                        {{"x", b.TensorT(b.Shape({16, 16}), DataType::kFP32)}},
                                        [&](const std::vector<const Var*>&) {
                                          b.Eval(b.Op("system.fence", {}));
                                          b.Return();
                                        });
  const Function* group = b.BuildFunction({"k", FunctionType::kGroup},
                                          {{"x", b.TensorT(b.Shape({16, 16}), DataType::kFP32)}},
                                          [&](const std::vector<const Var*>& p) {
                                            b.Eval(b.CallFunction(*aic, {p[0]}));
                                            b.Eval(b.CallFunction(*aiv, {p[0]}));
                                            b.Return();
                                          });
  const Function* orch = b.BuildFunction({"orch", FunctionType::kOrchestration},
                                         {{"x", b.TensorT(b.Shape({16, 16}), DataType::kFP32)}},
                                         [&](const std::vector<const Var*>& p) {
                                           b.Eval(b.CallFunction(*group, {p[0]}));
                                           b.Return();
                                         });
  return b.BuildProgram("Grouped", {aic, aiv, group, orch});
}

inline std::string EmitOne(Context& ctx, const Program* p, DiagnosticEngine& diag,
                           codegen::PtoOptions opts = {}) {
  std::vector<codegen::PtoModule> mods;
  if (!codegen::EmitPto(ctx, *p, opts, &mods, diag)) return "<failed>\n" + diag.Render();
  std::string all;
  for (const auto& m : mods) all += m.text;
  return all;
}

}  // namespace pto_test
