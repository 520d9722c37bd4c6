"""Oracle for nested_calls.pir: checks y.npy and z.npy of every run directory.

  check_nested_calls.py DIR P RUN...
k  (rank r): s = a + b*b + a + a; y[r] = s - b on rank 1, else s.
k3 (rank r): z[r] = a[r].
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
from lit_oracle import compare_runs  # noqa: E402


def main():
    d, p, runs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    a = np.load(os.path.join(d, "a%d.npy" % p))
    b = np.load(os.path.join(d, "b%d.npy" % p))
    y = np.zeros_like(a)
    for r in range(p):
        s = a[r] + b[r] * b[r]
        for _ in range(2):
            s = s + a[r]
        y[r] = s - b[r] if r == 1 else s
    z = a.copy()
    bad = compare_runs(d, runs, (("y", y), ("z", z)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
