# pld.system.defer_wait: INT32 counters (ND and DN), integer thresholds, Ge.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: pld.system.defer_wait(sig, [3], 2147483647, cmp=pld.WaitCmp.Ge)
# CHECK: pld.system.defer_wait(dn, [0, 1], n, cmp=pld.WaitCmp.Ge)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class DeferWait:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pld.DistributedTensor[[8], pl.INT32], dn: pld.DistributedTensor[[4, 2], pl.INT32, pl.TensorView(stride=[1, 4], layout=pl.TensorLayout.DN)], n: pl.Scalar[pl.INDEX]):
        pld.system.defer_wait(sig, [3], 2147483647, cmp=pld.WaitCmp.Ge)
        pld.system.defer_wait(dn, [0, 1], n, cmp=pld.WaitCmp.Ge)
        return
