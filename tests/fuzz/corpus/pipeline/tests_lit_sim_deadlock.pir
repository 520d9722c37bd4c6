# Rank 1 skips its notify: rank 2 waits forever. Both schedules report exit 3
# with the blocked rank, function, line, signal cell, comparator and values.
# The random schedule is deterministic: the same seed gives the same trace bytes.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 4 --entry k --inputs-random=1 --output-dir %t.d | FileCheck %s
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 4 --entry k --inputs-random=1 --output-dir %t.d --schedule=random:3 --trace %t.d/a.json | FileCheck %s --check-prefixes=CHECK,RANDOM
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 4 --entry k --inputs-random=1 --output-dir %t.d --schedule=random:3 --trace %t.d/b.json
# RUN: diff %t.d/a.json %t.d/b.json
# RUN: FileCheck %s --check-prefix=TRACE < %t.d/a.json
# RANDOM: error: deadlock: no runnable thread remains (random schedule, seed 3)
# CHECK: rank 2 (thread rank2) blocked in pld.system.wait in function 'k' at {{.*}}deadlock.pir:[[@LINE+22]]: signal 'sig' (window 'sig') cell [0, 0] expected >= 1 (Ge), actual 0
# CHECK: exit code 3
# TRACE: "traceEvents"
# TRACE: "name": "rank2"
# TRACE: "name": "pld.tensor.put", "cat": "comm", "ph": "X"
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Deadlock:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, src: pl.Tensor[[2, 8], pl.FP32], dst: pl.InOut[pld.DistributedTensor[[2, 8], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(dst)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        peer = (me + 1) % n
        pld.tensor.put(dst, peer, src, atomic=pld.AtomicType.None_)
        if me != 1:
            pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        return
