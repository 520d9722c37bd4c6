"""Oracle for early_return.pir: checks y.npy and z.npy of every run directory.

  check_early_return.py DIR P RUN...
k  (rank r, x = x[r]): r == 0: 2x; r == 1: x*x; else 2*x*x.
k2 (rank r):           r == 2: 2x; r >= 3: x*x; else x.
"""
import os
import sys

import numpy as np


def main():
    d, p, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    x = np.load(os.path.join(d, "x%d.npy" % p))
    y = np.zeros_like(x)
    z = np.zeros_like(x)
    for r in range(p):
        sq = x[r] * x[r]
        y[r] = x[r] + x[r] if r == 0 else sq if r == 1 else sq + sq
        z[r] = x[r] + x[r] if r == 2 else sq if r >= 3 else x[r]
    bad = 0
    for run in runs:
        for name, ref in (("y", y), ("z", z)):
            got = np.load(os.path.join(d, run, name + ".npy"))
            if got.dtype != ref.dtype or not np.array_equal(got, ref):
                print("%s/%s: MISMATCH at %s" % (run, name, np.argwhere(got != ref)[:3].tolist()))
                bad += 1
            else:
                print("%s/%s: OK" % (run, name))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
