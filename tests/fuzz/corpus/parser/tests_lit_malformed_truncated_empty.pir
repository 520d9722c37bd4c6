# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# A file with imports only has no program.
# CHECK: empty.pir:1:1: error: no functions found; expected a @pl.program class with @pl.function methods or top-level @pl.jit / @pl.function functions
import pypto.language as pl
