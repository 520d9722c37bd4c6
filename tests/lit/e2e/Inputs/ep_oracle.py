"""Inputs and the numpy oracle for the EP dispatch/combine program: P ranks, T=4
tokens of H=64 per rank, one expert per rank (h = x * scale + bias), top-2
routing to two distinct experts, combine y[t] = sum_k gate[t,k] * expert_k(x[t])."""
import sys
import numpy as np

T, K, H = 4, 2, 64


def make(P, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(-4, 5, size=(P, T, H)).astype(np.float32)
    w = rng.integers(-3, 4, size=(P, 2, H)).astype(np.float32)
    gate = rng.choice([-1.0, 1.0, 2.0], size=(P, T, K)).astype(np.float32)
    experts = np.zeros((P, T, K), dtype=np.int64)
    for r in range(P):
        for t in range(T):
            experts[r, t] = rng.choice(P, size=K, replace=P < K) if P >= K else [0] * K
    slot = np.zeros((P, T, K), dtype=np.int32)
    counts = np.zeros((P, P), dtype=np.int32)
    for r in range(P):
        for t in range(T):
            for k in range(K):
                e = experts[r, t, k]
                slot[r, t, k] = e * T + counts[r, e]
                counts[r, e] += 1
    y = np.zeros((P, T, H), dtype=np.float32)
    for r in range(P):
        for t in range(T):
            for k in range(K):
                e = experts[r, t, k]
                y[r, t] += gate[r, t, k] * (x[r, t] * w[e, 0] + w[e, 1])
    return {"x": x, "slot": slot, "gate": gate, "send_counts": counts, "w": w}, y


if __name__ == "__main__":
    cmd, d, P = sys.argv[1], sys.argv[2], int(sys.argv[3])
    ins, want = make(P, 1000 + P)
    if cmd == "inputs":
        for k, v in ins.items():
            np.save("%s/%s.npy" % (d, k), v)
    else:
        for out in sys.argv[4:]:
            got = np.load(out)
            if not np.array_equal(got, want):
                sys.exit("%s: MISMATCH (max |diff| %g)" % (out, np.abs(got - want).max()))
        print("OK P=%d" % P)
