# A kernel's DistributedTensor values that are not parameters still find their
# ctx: the write-back result of `pl.tile.store(t, offs, w)` (a store's
# destination, not its first argument), an if's return var (through what its
# branches yield) and a while's carried value.
# RUN: pypto-opt %s --passes=materialize-dist-tensor-ctx --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def kernel(self, x: pl.Tensor{{\[\[}}1, 64], pl.FP32], w: pl.InOut[pld.DistributedTensor{{\[\[}}1, 64], pl.FP32]], w_ctx: pld.CommCtx):
# CHECK:          me: pl.Scalar[pl.INT32] = pld.system.rank(w_ctx)
# CHECK:          n1: pl.Scalar[pl.INT32] = pld.system.nranks(w_ctx)
# CHECK:          n2: pl.Scalar[pl.INT32] = pld.system.nranks(w_ctx)
# CHECK:          n3: pl.Scalar[pl.INT32] = pld.system.nranks(w_ctx)
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Derived:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[1, 64], pl.FP32], w: pl.InOut[pld.DistributedTensor[[1, 64], pl.FP32]]):
        c = pld.system.get_comm_ctx(w)
        me = pld.system.rank(c)
        t = pl.tile.load(x, [0, 0], [1, 64], target_memory=pl.Mem.Vec)
        stored = pl.tile.store(t, [0, 0], w)
        c1 = pld.system.get_comm_ctx(stored)
        n1 = pld.system.nranks(c1)
        if me == 0:
            w_then = pl.tile.store(t, [0, 0], stored)
            w_if = pl.yield_(w_then)
        else:
            w_if = pl.yield_(stored)
        c2 = pld.system.get_comm_ctx(w_if)
        n2 = pld.system.nranks(c2)
        for (k, w_loop) in pl.while_(init_values=(0, w_if)):
            pl.cond(k < 2)
            w_next = pl.tile.store(t, [0, 0], w_loop)
            k_next = k + 1
            k_out, w_out = pl.yield_(k_next, w_next)
        c3 = pld.system.get_comm_ctx(w_out)
        n3 = pld.system.nranks(c3)
        return
