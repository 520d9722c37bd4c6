# Schedules pct:SEED[:DEPTH[:STEPS]], --sweep, --keep-going, --expect and
# --max-steps. `k` has a planted protocol bug: its round-1 wait compares Eq 1,
# but the peer's round-2 notify may land first (the cell is then 2 and the wait
# never holds). Seed 3 of random misses it (seeds 1, 2 catch it); PCT catches it
# on most seeds and a sweep stops at the first failing one, which replays
# identically.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-run %s --ranks 2 --entry k --output-dir %t.d --check-signals --schedule=random:3 2>&1 | FileCheck %s --check-prefix=MISS
# MISS-NOT: error
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 2 --entry k --output-dir %t.d --check-signals --schedule=random:1 --sweep 200 | FileCheck %s --check-prefix=SWEEP
# SWEEP: error: deadlock: no runnable thread remains (random schedule, seed [[SEED:[0-9]+]])
# SWEEP: blocked in pld.system.wait in function 'k' at {{.*}}schedules.pir:[[@LINE+38]]: signal 'sig' (window 'sig') cell [0, 0] expected == 1 (Eq), actual 2
# SWEEP: pypto-run: sweep: --schedule=random:[[SEED]] failed (exit 3, seed {{[0-9]+}} of 200); replay it with --schedule=random:[[SEED]]
# SWEEP: exit code 3
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 2 --entry k --output-dir %t.d --check-signals --schedule=pct:1 --trace %t.d/a.json | FileCheck %s --check-prefix=PCT
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 2 --entry k --output-dir %t.d --check-signals --schedule=pct:1:3:64 --trace %t.d/b.json
# RUN: diff %t.d/a.json %t.d/b.json
# PCT: error: deadlock: no runnable thread remains (schedule pct:1:3:64)
# PCT: exit code 3
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --entry k --output-dir %t.d --check-signals --schedule=pct:1 --sweep 100 --keep-going | FileCheck %s --check-prefix=KEEP
# KEEP: pypto-run: sweep: {{[0-9]+}} of 100 schedules failed (pct:1:3:64 .. pct:100:3:64)
# RUN: pypto-run %s --ranks 2 --entry ok --output-dir %t.d --check-signals --schedule=pct:5:2:16 --sweep 50 2>&1 | FileCheck %s --check-prefix=PASS
# PASS: pypto-run: sweep: 50 schedules passed (pct:5:2:16 .. pct:54:2:16)
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --entry spin --output-dir %t.d --max-steps 1000 | FileCheck %s --check-prefix=STEPS
# STEPS: schedules.pir:[[@LINE+45]]:{{[0-9]+}}: error: the run exceeded its step budget (--max-steps 1000: loop iterations plus schedule switch points, summed over all threads); raise --max-steps or look for an endless loop
# STEPS: exit code 1
# RUN: %python %S/Inputs/simtool.py arange %t.d/y.npy float32 2 4
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --entry spin --max-steps 100000000 --output-dir %t.d --expect y=%t.d/y.npy | FileCheck %s --check-prefix=EXPECT
# EXPECT: pypto-run: error: output 'y' differs from the --expect file
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --ranks 2 --sweep 3 | FileCheck %s --check-prefix=NEEDSEED
# NEEDSEED: pypto-run: error: --sweep needs --schedule=random:SEED or --schedule=pct:SEED[:DEPTH[:STEPS]]
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --ranks 2 --schedule=pct:1:0 | FileCheck %s --check-prefix=DEPTH
# DEPTH: pypto-run: error: bad --schedule 'pct:1:0'; expected parallel, random:SEED or pct:SEED[:DEPTH[:STEPS]] (DEPTH 1..64, default 3; STEPS >= 1, default 64)
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --ranks 2 --keep-going | FileCheck %s --check-prefix=KEEPONLY
# KEEPONLY: pypto-run: error: --keep-going needs --sweep N
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Schedules:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(sig)
        me = pld.rank(ctx)
        peer = (me + 1) % pld.nranks(ctx)
        pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Eq)
        pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.notify(sig, me, [0, 0], pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def ok(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(sig)
        me = pld.rank(ctx)
        peer = (me + 1) % pld.nranks(ctx)
        pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], pl.const(2, pl.INT32), cmp=pld.WaitCmp.Ge)
        pld.system.notify(sig, me, [0, 0], pl.const(-2, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def spin(self, y: pl.Out[pl.Tensor[[4], pl.FP32]]):
        for i in pl.range(1000000):
            pass
        return y
