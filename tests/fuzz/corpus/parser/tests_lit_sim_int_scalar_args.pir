# Integer scalars convert at a call, as Python ints do: the host passes INT64
# values (pld.world_size(), (r + 1) % pld.world_size()) to pl.Scalar[pl.INT32]
# parameters; the verifier accepts it and the executor converts the value to
# the parameter's dtype. Each rank writes [next rank, world size] into y.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: pypto-opt %s --verify-each --pipeline=default > /dev/null
# RUN: pypto-run %s --ranks 3 --output-dir %t.d/o
# RUN: %python -c "import numpy as np, sys; y = np.load('%t.d/o/y.npy'); print(y.tolist()); sys.exit(0 if y.tolist() == [[[1, 3]], [[2, 3]], [[0, 3]]] else 1)"
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.jit.incore
def note(y: pl.Out[pl.Tensor[[1, 2], pl.INT32]], peer: pl.Scalar[pl.INT32], n: pl.Scalar[pl.INT32]):
    pl.write(y, [0, 0], peer)
    pl.write(y, [0, 1], n)


@pl.jit
def chip(y: pl.Out[pl.Tensor[[1, 2], pl.INT32]], peer: pl.Scalar[pl.INT32], n: pl.Scalar[pl.INT32]):
    note(y, peer, n)


@pl.jit.host
def host(y: pl.Out[pl.Tensor[[NR, 1, 2], pl.INT32]]):
    for r in pl.range(pld.world_size()):
        chip(y[r], (r + 1) % pld.world_size(), pld.world_size(), device=r)
