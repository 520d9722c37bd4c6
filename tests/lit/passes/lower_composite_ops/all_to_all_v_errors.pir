# lower-composite-ops: all_to_all_v inside a for/while loop is rejected (recv_counts
# is published with Set: single-use protocol). Operand layouts the lowering
# cannot move: collective_operand_errors.pir.
# RUN: pypto-opt %s --verify-each --roundtrip-each > /dev/null
# RUN: not pypto-opt %s --passes=lower-composite-ops 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class AllToAllVErrors:
    @pl.function(type=pl.FunctionType.InCore)
    def in_for(self, x: pl.Tensor[[8, 16], pl.FP32], counts: pl.Tensor[[NR], pl.INT32], data: pl.InOut[pld.DistributedTensor[[8, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
        for i in pl.range(2):
            # CHECK: all_to_all_v_errors.pir:[[@LINE+1]]:13: error: pld.tensor.all_to_all_v: not supported inside a for/while loop (recv_counts is published with Set, a single-use protocol that a fast rank's next call would race with); call it once, outside loops
            pld.tensor.all_to_all_v(x, data, sig, counts, rc)
        return

    @pl.function(type=pl.FunctionType.InCore)
    def in_while(self, x: pl.Tensor[[8, 16], pl.FP32], counts: pl.Tensor[[NR], pl.INT32], data: pl.InOut[pld.DistributedTensor[[8, 16], pl.FP32]], sig: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], rc: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]], n: pl.Scalar[pl.INDEX]):
        for (k,) in pl.while_(init_values=(0,)):
            pl.cond(k < n)
            # CHECK: all_to_all_v_errors.pir:[[@LINE+1]]:13: error: pld.tensor.all_to_all_v: not supported inside a for/while loop
            out = pld.tensor.all_to_all_v(x, data, sig, counts, rc)
            k_next = pl.yield_(k + 1)
        return
