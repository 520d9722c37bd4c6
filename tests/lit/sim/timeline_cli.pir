# pypto-run --timeline writes one self-contained HTML page of the run, for a
# clean run and for a deadlocked one (the blocked wait marked with its cell and
# values); unwritable --timeline / --trace paths are refused before the run.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-run %s --ranks 2 --entry k --output-dir %t.d --schedule=random:1 --timeline %t.d/ok.html
# RUN: FileCheck %s --check-prefix=OK < %t.d/ok.html
# OK: <title>pypto-run timeline: timeline_cli.pir</title>
# OK: 2 ranks &middot; schedule random:1 &middot; time in steps
# OK: <svg xmlns="http://www.w3.org/2000/svg"
# OK: <rect class="bar comm" {{.*}}<title>pld.system.notify [comm] at {{.*}}timeline_cli.pir:[[@LINE+34]]
# OK: <line class="arrow"
# OK: <tr class="rank" data-device="1"><td>rank 1</td>
# OK-NOT: class="blocked"
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %s --ranks 3 --entry k --output-dir %t.d --schedule=random:1 --timeline %t.d/dead.html
# RUN: FileCheck %s --check-prefix=DEAD < %t.d/dead.html
# DEAD: <pre class="outcome">error: deadlock: no runnable thread remains (random schedule, seed 1)
# DEAD: <rect class="blocked" data-tid="1"
# DEAD: <text class="blocked-label" {{.*}}>pld.system.wait: signal 'sig' (window 'sig') cell [0, 0] expected &gt;= 1 (Ge), actual 0</text>
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --ranks 2 --entry k --timeline %t.d/no/such/dir/t.html | FileCheck %s --check-prefix=NOTL
# NOTL: error: cannot write timeline '{{.*}}no/such/dir/t.html'
# NOTL: exit code 2
# RUN: %python %S/Inputs/simtool.py expect-exit 2 -- pypto-run %s --ranks 2 --entry k --trace %t.d/no/such/dir/t.json | FileCheck %s --check-prefix=NOTR
# NOTR: error: cannot write trace '{{.*}}no/such/dir/t.json'
# NOTR: exit code 2
# RUN: pypto-run --help 2>&1 | FileCheck %s --check-prefix=HELP
# HELP: [--timeline FILE.html]
# HELP: --timeline
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class TimelineCli:
    # Rank r notifies rank r+1 and waits for rank r-1; on 3 ranks rank 2 skips
    # its notify and rank 0 waits forever.
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        ctx = pld.get_comm_ctx(sig)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        if me != 2:
            pld.system.notify(sig, (me + 1) % n, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
        return
