# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Semantic errors: every statement is checked and all errors are reported; a
# name whose definition failed does not produce follow-on errors.
# CHECK: semantics.pir:21:13: error: undefined name 'nope'
# CHECK: semantics.pir:23:12: error: type annotation of 'y' does not match its value: annotated pl.Scalar[pl.FP32], but the value has type pl.Scalar[pl.INDEX]
# CHECK: semantics.pir:27:13: error: if/else branches must yield the same names: then yields (r), else yields (q)
# CHECK: semantics.pir:28:9: error: pld.tensor.alloc_window_buffer must be the right-hand side of a plain `name = ...` assignment (the window is named after the assigned variable)
# CHECK: semantics.pir:29:9: error: function 'g' takes 1 argument (n), got 2
# CHECK: semantics.pir:30:19: error: call of function 'g': unexpected keyword argument 'core'; functions take positional arguments plus optional device= and attrs=
# CHECK: semantics.pir:31:13: error: dtype 'pl.FP32' is not a value here; pass it as a keyword argument (dtype=pl.FP32) or use pl.const(v, pl.FP32)
# CHECK: semantics.pir:32:9: error: 'continue' outside a loop
# CHECK-NOT: error:
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def f(self, n: pl.Scalar[pl.INDEX]):
        x = nope + 1
        z = x * 2
        y: pl.Scalar[pl.FP32] = n
        if n > 0:
            r = pl.yield_(n)
        else:
            q = pl.yield_(n)
        pld.alloc_window_buffer(64)
        self.g(n, n)
        self.g(n, core=1)
        w = pl.FP32
        continue

    @pl.function
    def g(self, n: pl.Scalar[pl.INDEX]):
        return
