# allgather/all_to_all verifier: distinct input/target, dtype, [1, SIZE]/[NR, SIZE] layouts, signal ranks.
# RUN: not pypto-opt %s 2>&1 | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class BadGather:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, chunk: pl.Tensor[[1, 64], pl.FP32], hc: pl.Tensor[[1, 64], pl.FP16], two: pl.Tensor[[2, 64], pl.FP32], g: pld.DistributedTensor[[4, 64], pl.FP32], g8: pld.DistributedTensor[[8, 64], pl.FP32], sig: pld.DistributedTensor[[4, 1], pl.INT32]):
        # CHECK: allgather_all_to_all_errors.pir:[[@LINE+1]]:38: error: pld.tensor.all_to_all: argument 'target' is the same value as 'input'; the two operands must be distinct buffers (aliasing them races the exchange)
        a = pld.tensor.all_to_all(g, g, sig)
        # CHECK: allgather_all_to_all_errors.pir:[[@LINE+1]]:34: error: pld.tensor.allgather: argument 'local_data' has element type pl.FP16 but 'target' has pl.FP32
        b = pld.tensor.allgather(hc, g, sig)
        # CHECK: allgather_all_to_all_errors.pir:[[@LINE+1]]:34: error: pld.tensor.allgather: argument 'local_data' has shape [2, 64] but 'target' is [4, 64]; expected [1, SIZE] or [NR, SIZE] with the same SIZE
        c = pld.tensor.allgather(two, g, sig)
        # CHECK: allgather_all_to_all_errors.pir:[[@LINE+1]]:41: error: pld.tensor.allgather: argument 'target' has 8 rows but 'signal' has 4 ranks; target is [NR, SIZE]
        d = pld.tensor.allgather(chunk, g8, sig)
        # CHECK: allgather_all_to_all_errors.pir:[[@LINE+1]]:35: error: pld.tensor.all_to_all: argument 'input' has shape [1, 64] but 'target' is [4, 64]; expected the same [NR, SIZE] shape
        e = pld.tensor.all_to_all(chunk, g, sig)
        # CHECK-NOT: error
        return
