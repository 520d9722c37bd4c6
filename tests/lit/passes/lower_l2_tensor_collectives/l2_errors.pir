# lower-l2-tensor-collectives: a collective the composite lowering rejects (here an
# allreduce without a signal) is an error at the call on the CHIP rail; all_to_all_v
# inside a loop of a CHIP orchestration is rejected (single-use recv_counts).
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# RUN: not pypto-opt %s --passes=lower-l2-tensor-collectives 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class L2Errors:
    @pl.function(type=pl.FunctionType.Orchestration)
    def no_signal(self, data: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]]):
        # CHECK: l2_errors.pir:[[@LINE+2]]:9: error: pld.tensor.allreduce: an InCore allreduce needs an explicit signal (only host-orchestrator calls get one synthesized); pass an INT32 [NR, 1] window as the second argument
        # CHECK-NEXT: {{^}}        data = pld.tensor.allreduce(data)
        data = pld.tensor.allreduce(data)

    @pl.function(type=pl.FunctionType.Orchestration)
    def in_loop(self, x: pl.Tensor[[8, 16], pl.FP32], counts: pl.Tensor[[NR], pl.INT32], data: pl.InOut[pld.DistributedTensor[[8, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        for i in pl.range(2):
            # CHECK: l2_errors.pir:[[@LINE+1]]:13: error: pld.tensor.all_to_all_v: not supported inside a for/while loop of CHIP orchestration 'in_loop' (recv_counts is published with Set, a single-use protocol that a fast rank's next call would race with); call it once, outside loops
            pld.tensor.all_to_all_v(x, data, sig, counts, rc)
