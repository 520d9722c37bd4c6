# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %s 2>&1 | FileCheck %s
# Tabs and spaces mixed in one block.
# CHECK: tab_space_mix.pir:13:2: error: inconsistent use of tabs and spaces in indentation
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
        x = n
	y = n
