# pld.tensor.allreduce verifier: dtype, mode, core_num, ring needs core_num=1 and an explicit signal, signal dtype/shapes.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadAllreduce:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, data: pld.DistributedTensor[[256], pl.FP32], idata: pld.DistributedTensor[[256], pl.INT32], sig: pld.DistributedTensor[[4, 1], pl.INT32], fsig: pld.DistributedTensor[[4, 1], pl.FP32], sq: pld.DistributedTensor[[4, 4], pl.INT32], ring: pld.DistributedTensor[[6, 4], pl.INT32]):
        # CHECK: allreduce_errors.pir:[[@LINE+1]]:34: error: pld.tensor.allreduce: argument 'target' has element type pl.INT32; allreduce supports pl.FP16 and pl.FP32
        a = pld.tensor.allreduce(idata, sig)
        # CHECK: allreduce_errors.pir:[[@LINE+1]]:50: error: pld.tensor.allreduce: keyword 'mode' is "tree"; expected "mesh" or "ring"
        b = pld.tensor.allreduce(data, sig, mode="tree")
        # CHECK: allreduce_errors.pir:[[@LINE+1]]:54: error: pld.tensor.allreduce: keyword 'core_num' is 0; core_num must be a positive integer
        c = pld.tensor.allreduce(data, sig, core_num=0)
        # CHECK: allreduce_errors.pir:[[@LINE+1]]:68: error: pld.tensor.allreduce: keyword 'core_num' is 2; mode="ring" requires core_num=1 (multi-core allreduce is mesh only)
        d = pld.tensor.allreduce(data, ring, mode="ring", core_num=2)
        # CHECK: allreduce_errors.pir:[[@LINE+1]]:13: error: pld.tensor.allreduce: mode="ring" requires an explicit signal argument (a [2 * (NR - 1), NR] INT32 window); only mesh signals are synthesized
        e = pld.tensor.allreduce(data, mode="ring")
        # CHECK: allreduce_errors.pir:[[@LINE+1]]:40: error: pld.tensor.allreduce: argument 'signal' must have element type pl.INT32 (barrier credit counters), got pl.FP32
        f = pld.tensor.allreduce(data, fsig)
        # CHECK: allreduce_errors.pir:[[@LINE+1]]:40: error: pld.tensor.allreduce: argument 'signal' has shape [4, 4]; a ring allreduce signal is [2 * (NR - 1), NR] or [2 * (NR - 1) + 1, NR] (one row per ring round, one cell per rank)
        g = pld.tensor.allreduce(data, sq, mode="ring")
        # CHECK: allreduce_errors.pir:[[@LINE+1]]:40: error: pld.tensor.allreduce: argument 'signal' has shape [4, 1]; a mesh allreduce signal [NR, stride] needs a static stride >= core_num (2)
        i = pld.tensor.allreduce(data, sig, core_num=2)
        # CHECK-NOT: error
        return
