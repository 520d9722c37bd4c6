# A pass whose required property is not established by the input or an earlier
# pass is a usage error (exit 2) naming the pass that produces it.
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --passes=convert-tensor-to-tile-ops 2>&1 | FileCheck %s
# CHECK: pypto-opt: error: pass convert-tensor-to-tile-ops requires property SplitIncoreOrch, produced by pass outline-incore-scopes; add it earlier in the pipeline
# RUN: %python %S/Inputs/expect_exit.py 0 pypto-opt %s --passes=outline-incore-scopes,convert-tensor-to-tile-ops --verify-each --roundtrip-each
import pypto.language as pl


@pl.program
class NeedsOutline:
    @pl.function
    def main(self, x: pl.Tensor[[16, 64], pl.FP32]):
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.tile.load(x, [0, 0], [16, 64], target_memory=pl.Mem.Vec)
            pl.tile.store(t, [0, 0], x)
        return
