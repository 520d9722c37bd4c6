# An if on a constant condition (a folded comparison, or a flag a factory
# folded in) keeps only the taken branch; its return vars become the values the
# branch yields, so later uses see them directly.
# RUN: pypto-opt %s --passes=simplify --verify-each --roundtrip-each | FileCheck %s
# CHECK-LABEL: def f(
# CHECK-NEXT:  b: pl.Scalar[pl.INDEX] = a + 1
# CHECK-NEXT:  return b * 3
# CHECK-LABEL: def g(
# CHECK-NEXT:  return a - 2
import pypto.language as pl


@pl.program
class ConstIf:
    @pl.function
    def f(self, a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        if 2 > 1:
            b = a + 1
            r = pl.yield_(b)
        else:
            r = pl.yield_(a)
        return r * 3

    @pl.function
    def g(self, a: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:
        if False:
            r = pl.yield_(a + 5)
        else:
            r = pl.yield_(a - 2)
        return r
