# RUN: pypto-opt %s > %t.1 && pypto-opt %t.1 > %t.2 && diff %t.1 %t.2
# RUN: FileCheck %s < %t.1
# Scope statements print as the with/for forms they are parsed from.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Scopes:
    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, a: pl.Tensor[[16, 64], pl.FP32], o: pl.Out[pl.Tensor[[16, 64], pl.FP32]]):
        # CHECK: with pl.at(level=pl.Level.CORE_GROUP):
        with pl.at(level=pl.Level.CORE_GROUP):
            # CHECK-NEXT: t: pl.Tile{{\[\[}}16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
            t = pl.load(a, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
            # CHECK-NEXT: o_1: pl.Tensor{{\[\[}}16, 64], pl.FP32] = pl.tile.store(t, [0, 0], o)
            o_1 = pl.store(t, [0, 0], o)
        # CHECK: with pl.at(level=pl.Level.CORE_GROUP, split=pl.SplitMode.UP_DOWN):
        with pl.at(level=pl.Level.CORE_GROUP, split=pl.SplitMode.UP_DOWN):
            pass
        # CHECK: with pl.spmd(4):
        with pl.spmd(4):
            pass
        return

    @pl.function(type=pl.FunctionType.InCore)
    def kern(self, a: pl.Tensor[[16, 64], pl.FP32]):
        # CHECK: for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            pass
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, 16, 64], pl.FP32]):
        # CHECK: with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):
        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):
            pass
        # CHECK: with pld.comm_domain(devices=[0, 1], slots=["buf"]):
        with pld.comm_domain(devices=[0, 1], slots=["buf"]):
            pass
        # CHECK: with pld.comm_domain(name="d1", devices=[], slots=["a", "b"]):
        with pld.comm_domain(name="d1", devices=[], slots=["a", "b"]):
            pass
