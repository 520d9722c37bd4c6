// Outside-project example: build the ring exchange (the program of
// examples/ring_exchange.pir) with the C++ IRBuilder, run the default pipeline,
// emit PTO and run it on 4 simulated ranks through the C++ executor API; exits
// nonzero unless every rank received its left neighbour's block. Each block of
// builder calls below is one line of the DSL program, quoted in its comment.
#include <cstdio>
#include <vector>

#include "pypto/ir/attr.h"
#include "pypto/ir/builder.h"
#include "pypto/ir/comm.h"
#include "pypto/ir/context.h"
#include "pypto/ir/printer.h"
#include "pypto/ops/ops.h"
#include "ring_check.h"

using namespace pypto;
using namespace pypto::ir;

static AttrList EnumKw(const char* key, EnumKind kind, int value) {
  return {{key, Attr::Enum(kind, value)}};
}

int main() {
  Context ctx;
  IRBuilder b(ctx);
  const Var* nr = b.DynamicDim("NR");
  const TensorType* block = b.TensorT(b.Shape({16, 64}), DataType::kFP32);
  const DistributedTensorType* inbox_t = b.DistTensorT(b.Shape({16, 64}), DataType::kFP32);
  const DistributedTensorType* signal_t = b.DistTensorT(b.Shape({1, 1}), DataType::kInt32);
  const TensorType* world = b.TensorT({nr, b.Int(16), b.Int(64)}, DataType::kFP32);

  // def ring_kernel(self, src, inbox, signal, out: pl.Out[...]) (InCore)
  const Function* kernel = b.BuildFunction(
      {"ring_kernel", FunctionType::kInCore, std::nullopt, std::nullopt, {block}},
      {{"src", block},
       {"inbox", inbox_t},
       {"signal", signal_t},
       {"out", block, ParamDirection::kOut}},
      [&](const std::vector<const Var*>& p) {
        const Var *src = p[0], *inbox = p[1], *signal = p[2], *out = p[3];
        // ctx = pld.get_comm_ctx(inbox); me = pld.rank(ctx); n = pld.nranks(ctx)
        const Var* comm = b.Assign("ctx", b.Op(ops::kPldGetCommCtx, {inbox}));
        const Var* me = b.Assign("me", b.Op(ops::kPldRank, {comm}));
        const Var* n = b.Assign("n", b.Op(ops::kPldNranks, {comm}));
        // right = (me + 1) % n
        const Var* right = b.Assign("right", b.FloorMod(b.Add(me, b.Int(1, DataType::kInt32)), n));
        // pld.tensor.put(inbox, right, src, atomic=pld.AtomicType.None_)
        b.Eval(b.Op(ops::kPldTensorPut, {inbox, right, src},
                    EnumKw("atomic", EnumKind::kAtomicType, static_cast<int>(AtomicType::kNone))));
        // pld.system.notify(signal, right, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        const AttrList add =
            EnumKw("op", EnumKind::kNotifyOp, static_cast<int>(NotifyOp::kAtomicAdd));
        b.Eval(b.Op(ops::kPldNotify,
                    {signal, right, b.IndexTuple({0, 0}), b.Int(1, DataType::kInt32)}, add));
        // pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        b.Eval(b.Op(ops::kPldWait, {signal, b.IndexTuple({0, 0}), b.Int(1, DataType::kInt32)},
                    EnumKw("cmp", EnumKind::kWaitCmp, static_cast<int>(WaitCmp::kGe))));
        // pld.system.notify(signal, me, [0, 0], -1, op=pld.NotifyOp.AtomicAdd): consume the credit
        b.Eval(b.Op(ops::kPldNotify,
                    {signal, me, b.IndexTuple({0, 0}), b.Int(-1, DataType::kInt32)}, add));
        // t = pl.load(inbox, [0, 0], [16, 64]); out = pl.store(t, [0, 0], out)
        const Var* t = b.Assign(
            "t", b.Op(ops::kTileLoad, {inbox, b.IndexTuple({0, 0}), b.IndexTuple({16, 64})}));
        const Var* stored =
            b.Assign("out_1", b.Op(ops::kTileStore, {t, b.IndexTuple({0, 0}), out}));
        b.Return({stored});
      });

  // def chip(self, src, inbox, signal, out) (Orchestration): out = self.ring_kernel(...)
  const Function* chip = b.BuildFunction(
      {"chip", FunctionType::kOrchestration, std::nullopt, std::nullopt, {block}},
      {{"src", block},
       {"inbox", inbox_t},
       {"signal", signal_t},
       {"out", block, ParamDirection::kOut}},
      [&](const std::vector<const Var*>& p) {
        const Var* out = b.Assign("out_1", b.CallFunction(*kernel, {p[0], p[1], p[2], p[3]}));
        b.Return({out});
      });

  // def host_orch(self, x: [NR, 16, 64], y: pl.Out[[NR, 16, 64]]) (HOST Orchestrator)
  const Function* host = b.BuildFunction(
      {"host_orch", FunctionType::kOpaque, Level::kHost, Role::kOrchestrator},
      {{"x", world}, {"y", world, ParamDirection::kOut}}, [&](const std::vector<const Var*>& p) {
        const Var *x = p[0], *y = p[1];
        // inbox = pld.window(pld.alloc_window_buffer(16 * 64 * 4), [16, 64], dtype=pl.FP32);
        // the parser names each window allocation after its variable, the builder is told.
        const Var* inbox_buf =
            b.Assign("inbox_buf", b.Op(ops::kPldAllocWindowBuffer, {b.Int(16 * 64 * 4)},
                                       {{"name", Attr::Str("inbox_buf")}}));
        const Var* signal_buf = b.Assign("signal_buf", b.Op(ops::kPldAllocWindowBuffer, {b.Int(4)},
                                                            {{"name", Attr::Str("signal_buf")}}));
        const Var* inbox =
            b.Assign("inbox", b.Op(ops::kPldWindow, {inbox_buf, b.IndexTuple({16, 64})},
                                   {{"dtype", Attr::DType(DataType::kFP32)}}));
        const Var* signal =
            b.Assign("signal", b.Op(ops::kPldWindow, {signal_buf, b.IndexTuple({1, 1})},
                                    {{"dtype", Attr::DType(DataType::kInt32)}}));
        // for r in pl.range(pld.world_size()): self.chip(x[r], inbox, signal, y[r], device=r)
        b.For("r", b.Int(0), b.Op(ops::kPldWorldSize, {}), b.Int(1), {},
              [&](const Var* r, const std::vector<const IterArg*>&) {
                auto row = [&](const Var* t) {  // t[r]: slice(t, [1, 16, 64], [r, 0, 0], [], [0])
                  return b.Op(ops::kTensorSlice,
                              {t, b.IndexTuple({1, 16, 64}), b.Tuple({r, b.Int(0), b.Int(0)}),
                               b.Tuple({}), b.IndexTuple({0})});
                };
                b.Eval(b.CallFunction(*chip, {row(x), inbox, signal, row(y)},
                                      {{"device", Attr::Of(r)}}));
              });
      });

  const Program* prog = b.BuildProgram("RingExchange", {kernel, chip, host}, {nr});
  std::printf("built program %s:\n%s", prog->name.c_str(), PrintProgram(*prog).c_str());
  return ring_example::CompileRunAndCheck(ctx, *prog, 4);
}
