# pypto-run's input checks: an --input that names no parameter of the entry is
# an error listing the parameters (it is never silently ignored), and .npy
# headers are validated strictly: a 128-byte file claiming a [2^40, 2^40] array,
# a size that overflows, malformed fields, data of the wrong length. Exit 1.
# Without --output-dir the outputs go to the current directory, and the run says so.
# RUN: rm -rf %t.d && mkdir -p %t.d
# RUN: %python %S/Inputs/simtool.py arange %t.d/x.npy float32 2 4 8
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/x.npy --input xs=%t.d/x.npy --output-dir %t.d | FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: error: input 'xs' is not a parameter of entry 'host_orch'; its parameters are: x, y
# UNKNOWN-NEXT: exit code 1
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/huge.npy "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }" 0
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/huge.npy | FileCheck %s --check-prefix=HUGE
# HUGE: pypto-run: error: input 'x': '{{.*}}huge.npy': .npy shape (1099511627776, 1099511627776) has more elements than fit in 64 bits
# HUGE-NEXT: exit code 1
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/bytes.npy "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904,), }" 0
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/bytes.npy | FileCheck %s --check-prefix=BYTES
# BYTES: pypto-run: error: input 'x': '{{.*}}bytes.npy': .npy shape (4611686018427387904,) of '<f8' needs more than 2^63 bytes
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/short.npy "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4, 8), }" 16
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/short.npy | FileCheck %s --check-prefix=SHORT
# SHORT: pypto-run: error: input 'x': '{{.*}}short.npy': truncated .npy data: shape (2, 4, 8) of '<f4' needs 256 bytes, the file has 16
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/long.npy "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 4, 8), }" 260
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/long.npy | FileCheck %s --check-prefix=LONG
# LONG: pypto-run: error: input 'x': '{{.*}}long.npy': oversized .npy data: shape (2, 4, 8) of '<f4' needs 256 bytes, the file has 260
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/dim.npy "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }" 0
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/dim.npy | FileCheck %s --check-prefix=DIM
# DIM: pypto-run: error: input 'x': '{{.*}}dim.npy': malformed .npy header (shape): dimension 99999999999999999999 does not fit in 64 bits
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/neg.npy "{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 4), }" 0
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/neg.npy | FileCheck %s --check-prefix=NEG
# NEG: pypto-run: error: input 'x': '{{.*}}neg.npy': malformed .npy header (shape): expected a non-negative integer dimension
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/key.npy "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1, }" 8
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/key.npy | FileCheck %s --check-prefix=KEY
# KEY: pypto-run: error: input 'x': '{{.*}}key.npy': malformed .npy header: unknown key 'extra' (expected descr, fortran_order, shape)
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/twice.npy "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,), }" 8
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/twice.npy | FileCheck %s --check-prefix=TWICE
# TWICE: pypto-run: error: input 'x': '{{.*}}twice.npy': malformed .npy header: key 'descr' appears twice
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/order.npy "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }" 8
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/order.npy | FileCheck %s --check-prefix=ORDER
# ORDER: pypto-run: error: input 'x': '{{.*}}order.npy': malformed .npy header (fortran_order): expected True or False
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/missing.npy "{'descr': '<f4', 'shape': (2,), }" 8
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/missing.npy | FileCheck %s --check-prefix=MISSINGKEY
# MISSINGKEY: pypto-run: error: input 'x': '{{.*}}missing.npy': malformed .npy header: missing key 'fortran_order'
# RUN: %python %S/Inputs/simtool.py raw-npy %t.d/big_endian.npy "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }" 8
# RUN: %python %S/Inputs/simtool.py expect-exit 1 -- pypto-run %s --ranks 2 --input x=%t.d/big_endian.npy | FileCheck %s --check-prefix=BE
# BE: pypto-run: error: input 'x': '{{.*}}big_endian.npy': unsupported .npy dtype '>f4' (supported: <f4 <f2 <f8 <i4 <i8 <i2 |i1 |u1 |b1 <u2 <u4 <u8; big-endian is not)
# Outputs land in the current directory without --output-dir, and the run names them.
# RUN: cd %t.d && pypto-run %s --ranks 2 --input x=x.npy 2>&1 | FileCheck %s --check-prefix=WROTE
# WROTE: pypto-run: wrote ./y.npy (the current directory; --output-dir DIR chooses another)
# RUN: %python %S/Inputs/simtool.py expect-roll %t.d/x.npy %t.d/y.npy 0 | FileCheck %s --check-prefix=COPY
# COPY: roll OK
# RUN: pypto-run --help | FileCheck %s --check-prefix=HELP
# HELP: DIR/NAME.npy for every Out/InOut parameter of the entry; without --output-dir,
# HELP-NEXT: DIR is the current directory.
import pypto.language as pl
import pypto.language.distributed as pld

NR = pl.dynamic("NR")


@pl.program
class Copy:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        t: pl.Tile[[4, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(src, [0, 0], [4, 8])
        o = pl.tile.store(t, [0, 0], out)
        return

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, src: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]):
        self.kernel(src, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, x: pl.Tensor[[NR, 4, 8], pl.FP32], y: pl.Out[pl.Tensor[[NR, 4, 8], pl.FP32]]):
        for r in pl.range(pld.system.world_size()):
            self.chip(x[r], y[r], device=r)
