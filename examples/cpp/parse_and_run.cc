// Outside-project example: parse a distributed program from IR text (the ring
// exchange of examples/ring_exchange.pir), run the default pipeline, emit PTO
// and run it on 4 simulated ranks; exits nonzero unless every rank received its
// left neighbour's block. Built against an installed pypto (examples/cpp/README.md).
#include <cstdio>

#include "pypto/ir/context.h"
#include "pypto/ir/parser.h"
#include "ring_check.h"

static const char kRingExchange[] = R"(import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class RingExchange:
    @pl.function(type=pl.FunctionType.InCore)
    def ring_kernel(self, src: pl.Tensor[[16, 64], pl.FP32],
                    inbox: pld.DistributedTensor[[16, 64], pl.FP32],
                    signal: pld.DistributedTensor[[1, 1], pl.INT32],
                    out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        ctx = pld.get_comm_ctx(inbox)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        right = (me + 1) % n
        pld.tensor.put(inbox, right, src, atomic=pld.AtomicType.None_)
        pld.system.notify(signal, right, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.notify(signal, me, [0, 0], -1, op=pld.NotifyOp.AtomicAdd)
        t = pl.load(inbox, [0, 0], [16, 64])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[16, 64], pl.FP32],
             inbox: pld.DistributedTensor[[16, 64], pl.FP32],
             signal: pld.DistributedTensor[[1, 1], pl.INT32],
             out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        out = self.ring_kernel(src, inbox, signal, out)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 16, 64], pl.FP32],
                  y: pl.Out[pl.Tensor[[NR, 16, 64], pl.FP32]]):
        inbox_buf = pld.alloc_window_buffer(16 * 64 * 4)
        signal_buf = pld.alloc_window_buffer(4)
        inbox = pld.window(inbox_buf, [16, 64], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(x[r], inbox, signal, y[r], device=r)
)";

int main() {
  pypto::ir::Context ctx;
  pypto::DiagnosticEngine diag(&ctx.sources());
  const pypto::ir::Program* prog =
      pypto::ir::ParseProgram(ctx, kRingExchange, "ring_exchange.pir", diag);
  if (prog == nullptr) {
    std::fprintf(stderr, "%s", diag.Render().c_str());
    return 1;
  }
  std::printf("parsed program %s\n", prog->name.c_str());
  return ring_example::CompileRunAndCheck(ctx, *prog, 4);
}
