# tile.move Vec -> Mat (the vector core handing a tile to the cube core) is one
# pto.tmov on a5; a2a3 has no tmov between the cores, so the emitter rejects it at
# the move's line:col instead of writing PTO that ptoas refuses ("expects a
# supported tmov address-space pair for this target"). The ptoas tier assembles
# the a5 module.
# RUN: pypto-opt %s --emit=pto --target=a5 | FileCheck %s
# RUN: not pypto-opt %s --emit=pto 2>&1 | FileCheck %s --check-prefix=A2A3
# CHECK: pto.tmov ins(%v : !pto.tile_buf<loc=vec{{.*}}>) outs(%m : !pto.tile_buf<loc=mat{{.*}}>)
# A2A3: move_cross.pir:[[@LINE+10]]:13: error: tile.move: a pl.Mem.Vec -> pl.Mem.Mat move hands data from the vector core to the cube core, which the a2a3 target cannot do with one tmov (a5 can); store the tile to GM and pl.load it with target_memory=pl.Mem.Mat
# A2A3-NOT: error
import pypto.language as pl


@pl.program
class Cross:
    @pl.function(type=pl.FunctionType.AIV)
    def hand_over(self, a: pl.Tensor[[16, 16], pl.FP16]):
        v = pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Vec)
        m = pl.move(v, target_memory=pl.Mem.Mat)
        return
