# Two scopes in one parent are numbered in order; a tensor read and written in
# the kernel is InOut; several live-outs come back as a tuple; a scope inside a
# loop uses the loop variable as a scalar param; the host orchestrator keeps its
# kind (not promoted to Orchestration).
# RUN: pypto-opt %s --passes=outline-incore-scopes --verify-each --roundtrip-each | FileCheck %s
# CHECK:      def host_incore_0(self, a: pl.InOut[pl.Tensor{{\[\[}}16, 64], pl.FP32]], i: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]]:
# CHECK:          return j, q
# CHECK:      def host_incore_1(self, b: pl.Tensor{{\[\[}}16, 64], pl.FP32]):
# CHECK-NEXT:     s: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(b, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
# CHECK-NEXT:     return
# CHECK:      @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
# CHECK-NEXT: def host(self, a: pl.Tensor{{\[\[}}16, 64], pl.FP32], b: pl.Tensor{{\[\[}}16, 64], pl.FP32]):
# CHECK-NEXT:     for i in pl.range(4):
# CHECK-NEXT:         host_incore_0_ret: pl.Tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]] = self.host_incore_0(a, i)
# CHECK-NEXT:         j: pl.Scalar[pl.INDEX] = host_incore_0_ret[0]
# CHECK-NEXT:         q: pl.Scalar[pl.INDEX] = host_incore_0_ret[1]
# CHECK-NEXT:         w: pl.Scalar[pl.INDEX] = j + q
# CHECK-NEXT:     self.host_incore_1(b)
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Multi:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, a: pl.Tensor[[16, 64], pl.FP32], b: pl.Tensor[[16, 64], pl.FP32]):
        for i in pl.range(4):
            with pl.at(level=pl.Level.CORE_GROUP):
                t = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
                pl.tile.store(t, [0, 0], a)
                j = i * 2
                q = i + 3
            w = j + q

        with pl.at(level=pl.Level.CORE_GROUP):
            s = pl.tile.load(b, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
        return
