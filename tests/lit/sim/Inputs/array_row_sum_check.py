"""Checks the outputs of sim/array_row_sum_reshape.pir (argv[2:] are output dirs
of runs before and after the pipeline) against numpy, given the input w.npy
(argv[1]): y = row sums of each rank's [16, 8] slice as a [1, 16] row (summed
left to right in FP32), c = [0, 10, 21, 31], z = row sums of the valid [10, 6]
box in rows 0..9 and 0 elsewhere. Exits 1 on any mismatch."""
import sys

import numpy as np

w = np.load(sys.argv[1])


def row_sums(x):
    acc = np.zeros(x.shape[:-1], np.float32)
    for k in range(x.shape[-1]):
        acc = (acc + x[..., k]).astype(np.float32)
    return acc


want_y = row_sums(w)[:, None, :]
want_c = np.tile(np.array([0, 10, 21, 31], np.int32).reshape(1, 4, 1), (w.shape[0], 1, 1))
want_z = np.zeros((w.shape[0], 16, 1), np.float32)
want_z[:, :10, 0] = row_sums(w[:, :10, :6])
bad = 0
for d in sys.argv[2:]:
    for name, want in (("y", want_y), ("c", want_c), ("z", want_z)):
        got = np.load(f"{d}/{name}.npy")
        ok = got.dtype == want.dtype and np.array_equal(got, want)
        bad += not ok
        print(f"{d} {name}: {'OK' if ok else 'MISMATCH'}")
sys.exit(1 if bad else 0)
