import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Zero:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, w: pl.InOut[pld.DistributedTensor[[0, 4], pl.FP32]], x: pl.Tensor[[0, 4], pl.FP32]):
        return
