# A return inside an InCore scope cannot be outlined: exit 1 with a located error.
# RUN: %python %S/../../tools/Inputs/expect_exit.py 1 pypto-opt %s --passes=outline-incore-scopes 2>&1 | FileCheck %s
# CHECK: errors.pir:[[@LINE+11]]:13: error: pl.at(level=pl.Level.CORE_GROUP): 'return' inside an InCore scope is not supported; compute values in the scope and return after it
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Bad:
    @pl.function
    def main(self, x: pl.Tensor[[16, 64], pl.FP32]):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
            return
