"""Oracle for early_return.pir: checks y.npy and z.npy of every run directory.

  check_early_return.py DIR P RUN...
k  (rank r, x = x[r]): r == 0: 2x; r == 1: x*x; else 2*x*x.
k2 (rank r):           r == 2: 2x; r >= 3: x*x; else x.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from lit_oracle import compare_runs  # noqa: E402


def main():
    d, p, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    x = np.load(os.path.join(d, "x%d.npy" % p))
    y = np.zeros_like(x)
    z = np.zeros_like(x)
    for r in range(p):
        sq = x[r] * x[r]
        y[r] = x[r] + x[r] if r == 0 else sq if r == 1 else sq + sq
        z[r] = x[r] + x[r] if r == 2 else sq if r >= 3 else x[r]
    bad = compare_runs(d, runs, (("y", y), ("z", z)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
