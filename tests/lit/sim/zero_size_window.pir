# A window parameter whose view has zero elements (the dynamic M binds to 0 from
# the input) and an empty host tensor run cleanly: nothing is copied, and the
# outputs come back with their empty shapes. (The executor passed the null
# data() of an empty input to memcpy, a UBSan report under pipeline_corpus_asan;
# an earlier fuzz campaign had reported it. The reproducer is
# tests/fuzz/corpus/pipeline/repro_zero_size_window.pir.)
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py arange %t.d/w.npy float32 2 4 0
# RUN: %python %S/Inputs/simtool.py arange %t.d/x.npy float32 2 4 0
# RUN: pypto-run %s --ranks 2 --entry k --input w=%t.d/w.npy --input x=%t.d/x.npy --output-dir %t.d 2>&1 | FileCheck %s
# CHECK: pypto-run: wrote {{.*}}w.npy
# RUN: %python -c "import numpy as np; a = np.load('%t.d/w.npy'); print(a.shape, a.dtype)" | FileCheck %s --check-prefix=SHAPE
# SHAPE: (2, 4, 0) float32
import pypto.language as pl
import pypto.language.distributed as pld

M = pl.dynamic("M")


@pl.program
class ZeroSize:
    @pl.function(type=pl.FunctionType.InCore)
    def k(self, w: pl.InOut[pld.DistributedTensor[[4, M], pl.FP32]], x: pl.Tensor[[4, M], pl.FP32]):
        return
