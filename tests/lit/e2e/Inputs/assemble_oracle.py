"""Oracle for e2e/assemble_slices.pir: compares every output of the runs before
(s<P>) and after (l<P>) --pipeline=default with numpy, bit-exactly (dtype too)."""
import sys

import numpy as np

d = sys.argv[1]
bad = []
for p in (2, 3):
    x = np.load(f"{d}/x{p}.npy")
    h = np.load(f"{d}/h{p}.npy")
    want = {
        "y": x + np.float32(1.5),
        "z": x[:, :, 8:16],
        # the literal is rounded to FP16 first; the exact product is rounded once
        "q": (h.astype(np.float64) * np.float64(np.float16(0.1))).astype(np.float16),
    }
    u = np.zeros_like(x)
    u[:, 0:4] = x[:, 4:8]
    u[:, 4:8] = x[:, 0:4] / np.float32(4)
    u[:, 7] = x[:, 0]
    u[:, 0, 0] = x[:, 0, 1] * np.float32(3) - np.float32(2)
    want["u"] = u
    for run in ("s", "l"):
        for name, exp in want.items():
            got = np.load(f"{d}/{run}{p}/{name}.npy")
            if got.dtype != exp.dtype or not np.array_equal(got, exp):
                bad.append(f"{run}{p}/{name}")
print("mismatch:", bad if bad else "none")
sys.exit(1 if bad else 0)
