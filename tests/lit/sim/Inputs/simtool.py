"""Helpers for the pypto-run lit tests: make .npy inputs, check outputs exactly,
and run a command expecting a given exit code (its stderr is echoed for FileCheck).

  simtool.py arange OUT.npy DTYPE D0 [D1 ...]        # values i % 97 - 48
  simtool.py expect-roll IN.npy OUT.npy SHIFT        # OUT == roll(IN, SHIFT, axis=0)
  simtool.py expect-allreduce-sum IN.npy OUT.npy     # OUT[r] == IN.sum(axis=0) for all r
  simtool.py expect-matmul A.npy B.npy C.npy K      # C[r] == K * (A[r] @ B[r]) in float32
  simtool.py expect-exit CODE -- CMD ARGS...
  simtool.py raw-npy OUT.npy HEADER NBYTES          # a hand-made .npy: HEADER dict text,
                                                    # padded to 128 bytes, then NBYTES zeros
"""
import subprocess
import sys

import numpy as np


def main(argv):
    cmd = argv[1]
    if cmd == "arange":
        out, dt, dims = argv[2], argv[3], [int(d) for d in argv[4:]]
        n = int(np.prod(dims))
        np.save(out, (np.arange(n) % 97 - 48).astype(dt).reshape(dims))
        return 0
    if cmd == "expect-roll":
        a, b, s = np.load(argv[2]), np.load(argv[3]), int(argv[4])
        ok = a.shape == b.shape and np.array_equal(np.roll(a, s, axis=0), b)
        print("roll OK" if ok else "roll MISMATCH")
        return 0 if ok else 1
    if cmd == "expect-allreduce-sum":
        a, b = np.load(argv[2]), np.load(argv[3])
        ok = a.shape == b.shape and all(np.array_equal(b[r], a.sum(axis=0)) for r in range(a.shape[0]))
        print("allreduce OK" if ok else "allreduce MISMATCH")
        return 0 if ok else 1
    if cmd == "expect-matmul":
        a, b, c, k = np.load(argv[2]), np.load(argv[3]), np.load(argv[4]), float(argv[5])
        want = np.stack([k * (a[r].astype(np.float64) @ b[r].astype(np.float64))
                         for r in range(a.shape[0])]).astype(np.float32)
        ok = c.dtype == np.float32 and c.shape == want.shape and np.array_equal(c, want)
        print("matmul OK" if ok else "matmul MISMATCH")
        return 0 if ok else 1
    if cmd == "raw-npy":
        out, header, nbytes = argv[2], argv[3].encode(), int(argv[4])
        header += b" " * (128 - 10 - len(header) - 1) + b"\n"
        with open(out, "wb") as f:
            f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header)
            f.write(b"\x00" * nbytes)
        return 0
    if cmd == "expect-exit":
        code = int(argv[2])
        assert argv[3] == "--"
        p = subprocess.run(argv[4:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        sys.stdout.write(p.stdout)
        print("exit code %d" % p.returncode)
        return 0 if p.returncode == code else 1
    print("unknown command " + cmd)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
