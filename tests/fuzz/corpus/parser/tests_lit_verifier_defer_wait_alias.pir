# defer_wait V1 takes the kernel's own window-bound parameter: an SSA alias of it
# (`s = sig`) parses (the deducer cannot see where a Var came from) but the
# verifier rejects it; passing the parameter directly is accepted.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class DeferAlias:
    @pl.function(type=pl.FunctionType.InCore)
    def waiter(self, sig: pld.DistributedTensor[[8], pl.INT32]):
        pld.system.defer_wait(sig, [0], 1, cmp=pld.WaitCmp.Ge)
        s = sig
        # CHECK: defer_wait_alias.pir:[[@LINE+1]]:9: error: pld.system.defer_wait: argument 'signal' must be a window-bound parameter of the kernel itself, but 's' is an assigned variable (V1 rejects slices, views and SSA aliases; pass the parameter directly)
        pld.system.defer_wait(s, [1], 1, cmp=pld.WaitCmp.Ge)
        # CHECK-NOT: error
