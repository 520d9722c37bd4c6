# lower-composite-ops: an InCore allreduce whose signal has the other mode's
# layout is an error at the call (mesh: [NR] / [NR, 1], cell [rank, 0]; ring:
# [2 * (NR - 1), NR], cell [row, rank]) — one signal shared by a mesh and a ring
# allreduce is rejected at lowering, not kept. (Wrong ranks and static row
# counts are the deducer's: tests/unit/dist_collectives_test.cc.)
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# RUN: not pypto-opt %s --passes=lower-composite-ops 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class AllreduceSignalErrors:
    @pl.function(type=pl.FunctionType.InCore)
    def shared(self, a: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]], b: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[6, 4], pl.INT32]]):
        # CHECK: allreduce_signal_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'signal' has shape [6, 4]; an InCore mode="mesh" allreduce needs an [NR] or [NR, 1] signal; one signal cannot serve both: mesh uses [NR, 1] (cell [rank, 0]), ring [2 * (NR - 1), NR] (cell [row, rank])
        pld.tensor.allreduce(a, sig)
        pld.tensor.allreduce(b, sig, mode="ring")
        return

    @pl.function(type=pl.FunctionType.InCore)
    def ring_mesh_signal(self, a: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        # CHECK: allreduce_signal_errors.pir:[[@LINE+1]]:9: error: pld.tensor.allreduce: argument 'signal' has shape [NR, 1]; mode="ring" needs one column per rank ([2 * (NR - 1), NR]); one signal cannot serve both
        pld.tensor.allreduce(a, sig, mode="ring")
        return
