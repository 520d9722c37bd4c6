# pld.system.wait: Eq and Ge, literal and scalar expected values.
# RUN: pypto-opt %s > %t && pypto-opt %t | diff %t -
# RUN: pypto-opt %s | FileCheck %s
# CHECK: pld.system.wait(sig, [peer, 0], 1, cmp=pld.WaitCmp.Ge)
# CHECK: pld.system.wait(sig, [0, 0], n, cmp=pld.WaitCmp.Eq)
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Wait:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, sig: pld.DistributedTensor[[NR, 1], pl.INT32], peer: pl.Scalar[pl.INT32], n: pl.Scalar[pl.INT32]):
        pld.system.wait(sig, [peer, 0], 1, cmp=pld.WaitCmp.Ge)
        pld.system.wait(sig, [0, 0], n, cmp=pld.WaitCmp.Eq)
        return
