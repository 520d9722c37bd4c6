# pl.manual_scope(): tasks are ordered only by deps=[...]. Each rank runs a
# blocking waiter task BEFORE its publisher in program order; the consumer
# depends on the waiter. In the manual scope the publisher does not wait for
# the waiter, so both ranks publish and the run completes with rank r's output
# holding rank r-1's payload (peer = r+1 publishes into r+1). Without the manual
# scope the tasks run in program order and both ranks block in their waiter:
# a deadlock (exit 3), as the sed variant shows. Bit-exact before and after the
# default pipeline (the task ids move to the kernel calls), on both schedules.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; np.save('%t.d/x.npy', (np.arange(16).reshape(2, 1, 8) + 1).astype(np.int32))"
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/a --check-signals --detect-races
# RUN: %python %S/Inputs/simtool.py expect-roll %t.d/x.npy %t.d/a/y.npy 1 | FileCheck %s --check-prefix=ROLL
# RUN: pypto-run %s --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/b --schedule=random:5 --detect-races
# RUN: %python %S/Inputs/simtool.py expect-roll %t.d/x.npy %t.d/b/y.npy 1 | FileCheck %s --check-prefix=ROLL
# RUN: pypto-opt %s --pipeline=default --verify-each --roundtrip-each -o %t.d/lowered.pir
# RUN: FileCheck %s --check-prefix=LOWERED < %t.d/lowered.pir
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/c --check-signals --detect-races
# RUN: %python %S/Inputs/simtool.py expect-roll %t.d/x.npy %t.d/c/y.npy 1 | FileCheck %s --check-prefix=ROLL
# RUN: pypto-run %t.d/lowered.pir --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/d --schedule=random:11
# RUN: %python %S/Inputs/simtool.py expect-roll %t.d/x.npy %t.d/d/y.npy 1 | FileCheck %s --check-prefix=ROLL
# RUN: sed -e 's/with pl.manual_scope():/if True:/' %s > %t.d/auto.pir
# RUN: %python %S/Inputs/simtool.py expect-exit 3 -- pypto-run %t.d/auto.pir --ranks 2 --input x=%t.d/x.npy --output-dir %t.d/e --schedule=random:5 | FileCheck %s --check-prefix=AUTO
# ROLL: roll OK
# LOWERED: with pl.manual_scope():
# LOWERED: self.chip_incore_0(sig, {{.*}}attrs={"task_id": "w"})
# LOWERED: self.chip_incore_1({{.*}}attrs={"deps": ["w"]})
# AUTO: error: deadlock
# AUTO: rank 0 (thread rank0) blocked in pld.system.wait in function 'chip' at {{.*}}auto.pir:[[@LINE+14]]
# AUTO: exit code 3
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class ManualScopeWait:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, inp: pl.Tensor[[1, 8], pl.INT32], out: pl.Out[pl.Tensor[[1, 8], pl.INT32]],
             payload: pl.InOut[pld.DistributedTensor[[1, 8], pl.INT32]], sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
             peer: pl.Scalar[pl.INT32]) -> pl.Tensor[[1, 8], pl.INT32]:
        with pl.manual_scope():
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as w:
                pld.system.wait(sig, [0, 0], pl.const(1, pl.INT32), cmp=pld.WaitCmp.Ge)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="consumer", deps=[w]):
                received = pl.load(payload, [0, 0], [1, 8])
                out = pl.store(received, [0, 0], out)
                me = pld.rank(pld.get_comm_ctx(sig))
                pld.system.notify(sig, me, [0, 0], pl.const(-1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="publisher"):
                t = pl.load(inp, [0, 0], [1, 8])
                pld.tile.remote_store(t, target=payload, peer=peer, offsets=[0, 0])
                pld.system.notify(sig, peer, [0, 0], pl.const(1, pl.INT32), op=pld.NotifyOp.AtomicAdd)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[2, 1, 8], pl.INT32], y: pl.Out[pl.Tensor[[2, 1, 8], pl.INT32]]):
        pbuf = pld.alloc_window_buffer(32)
        sbuf = pld.alloc_window_buffer(4)
        for r in pl.range(pld.world_size()):
            payload = pld.window(pbuf, [1, 8], dtype=pl.INT32)
            sig = pld.window(sbuf, [1, 1], dtype=pl.INT32)
            self.chip(x[r], y[r], payload, sig, (r + 1) % pld.world_size(), device=r)
