"""Shared by the lit Inputs oracle scripts: compares the .npy outputs of pypto-run
run directories with reference arrays (dtype and values exactly) and prints one
"<run>/<name>: OK" or "MISMATCH at [...]" line per output."""
import os

import numpy as np


def compare_runs(d, runs, refs):
    """`refs` is a list of (output name, reference array); returns the mismatch count."""
    bad = 0
    for run in runs:
        for name, ref in refs:
            got = np.load(os.path.join(d, run, name + ".npy"))
            if got.dtype != ref.dtype or not np.array_equal(got, ref):
                print("%s/%s: MISMATCH at %s" % (run, name, np.argwhere(got != ref)[:3].tolist()))
                bad += 1
            else:
                print("%s/%s: OK" % (run, name))
    return bad
