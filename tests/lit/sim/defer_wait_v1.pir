# defer_wait V1 at run time: the counter is polled unsigned as the hardware
# does, so a cell holding -1 (4294967295 unsigned) satisfies a threshold of 5
# and the task completes; a 65th registration of one task is an error at the
# call; a threshold outside [0, 2147483647] computed at run time is an error.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python -c "import numpy as np; np.save('%t.d/m1.npy', np.full((2, 1, 1), -1, np.int32)); np.save('%t.d/n.npy', np.array(65)); np.save('%t.d/n64.npy', np.array(64)); np.save('%t.d/neg.npy', np.array(-3, np.int32))"
# RUN: pypto-run %s --ranks 2 --entry minus_one --input sig=%t.d/m1.npy --output-dir %t.d/a
# RUN: pypto-run %s --ranks 2 --entry many --input sig=%t.d/m1.npy --input n=%t.d/n64.npy --output-dir %t.d/b
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --entry many --input sig=%t.d/m1.npy --input n=%t.d/n.npy --output-dir %t.d/c | FileCheck %s --check-prefix=MANY
# MANY: defer_wait_v1.pir:[[@LINE+16]]:13: error: pld.system.defer_wait: the task registers more than 64 conditions (defer_wait V1 limit) (on rank {{[01]}})
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --entry negative --input sig=%t.d/m1.npy --input e=%t.d/neg.npy --output-dir %t.d/d | FileCheck %s --check-prefix=NEG
# NEG: defer_wait_v1.pir:[[@LINE+18]]:9: error: pld.system.defer_wait: threshold -3 is outside [0, 2147483647]; the counter is polled as an unsigned 32-bit value (on rank {{[01]}})
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class DeferWaitV1:
    @pl.function(type=pl.FunctionType.InCore)
    def minus_one(self, sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]]):
        pld.system.defer_wait(sig, [0, 0], 5, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def many(self, sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]], n: pl.Scalar[pl.INDEX]):
        for i in pl.range(n):
            pld.system.defer_wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def negative(self, sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]], e: pl.Scalar[pl.INT32]):
        pld.system.defer_wait(sig, [0, 0], e, cmp=pld.WaitCmp.Ge)
