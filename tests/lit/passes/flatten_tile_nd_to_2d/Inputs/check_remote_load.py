"""Oracle for remote_load.pir: checks y.npy of every run directory given.

  check_remote_load.py DIR P RUN...
Rank r (right = (r + 1) % P, rows = r % 2 + 1):
  y[r][0:2, 2:4, :] = x[right][1:3, 1:3, :] (rows >= 2 of the window zero-padded) + x[r][2:4, 1:3, :]
  y[r][2:2 + rows, :, :] = x[r][0:rows, :, :]
everything else 0.
"""
import os
import sys

import numpy as np


def main():
    d, p, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    x = np.load(os.path.join(d, "x%d.npy" % p))
    ref = np.zeros_like(x)
    for r in range(p):
        right, rows = (r + 1) % p, r % 2 + 1
        recv = np.zeros((2, 2, 16), np.float32)
        recv[:rows] = x[right][1:1 + rows, 1:3, :]
        ref[r][0:2, 2:4, :] = recv + x[r][2:4, 1:3, :]
        ref[r][2:2 + rows, :, :] = x[r][0:rows, :, :]
    bad = 0
    for run in runs:
        y = np.load(os.path.join(d, run, "y.npy"))
        if not np.array_equal(y, ref):
            print("%s: MISMATCH at %s" % (run, np.argwhere(y != ref)[:3].tolist()))
            bad += 1
        else:
            print("%s: OK" % run)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
