import pypto.language as pl


@pl.program
class MoveAfterVecUse:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, a: pl.Tensor[[16, 16], pl.FP16], c: pl.Out[pl.Tensor[[16, 16], pl.FP32]], y: pl.Out[pl.Tensor[[16, 16], pl.FP16]]):
        v = pl.load(a, [0, 0], [16, 16])
        w = pl.add(v, v)
        pl.store(w, [0, 0], y)
        l = pl.move(v, target_memory=pl.Mem.Left)
        r = pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        pl.store(pl.matmul(l, r), [0, 0], c)
        return
