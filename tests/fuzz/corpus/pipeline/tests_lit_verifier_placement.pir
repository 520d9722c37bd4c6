# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Verifier: host-only ops only in the host orchestrator, kernel-only ops only in
# kernels or pl.at(level=CORE_GROUP) scopes. All errors are reported.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Placement:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[16, 64], pl.FP32]):
        # A host-only query inside a kernel.
        # CHECK: placement.pir:[[@LINE+1]]:34: error: pld.system.world_size: only allowed in the host orchestrator (@pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)), but used in kernel 'kernel' (InCore)
        n: pl.Scalar[pl.INT64] = pld.system.world_size()
        # A kernel-only op inside a kernel is fine.
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[16, 64], pl.FP32]):
        # A kernel-only op in an orchestration function.
        # CHECK: placement.pir:[[@LINE+1]]:53: error: pl.tile.load: only allowed in kernels (InCore/AIC/AIV functions or pl.at(level=pl.Level.CORE_GROUP) scopes), but used in orchestration function 'chip' (Orchestration)
        t: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])
        # ... but fine inside an InCore scope.
        with pl.at(level=pl.Level.CORE_GROUP):
            u: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [16, 64])
        return

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[16, 64], pl.FP32]):
        # The host orchestrator may query the world size.
        n: pl.Scalar[pl.INT64] = pld.system.world_size()
        # CHECK-NOT: error
        return
