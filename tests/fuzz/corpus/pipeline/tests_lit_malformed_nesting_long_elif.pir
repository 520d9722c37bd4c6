# RUN: %python -c "print('import pypto.language as pl\n@pl.jit\ndef f(n: pl.Scalar[pl.INDEX]):\n    if n:\n        pass\n' + '    elif n:\n        pass\n' * 100000)" > %t.pir
# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %t.pir 2>&1 | FileCheck %s
# 10^5 elif branches nest as else-if: capped like blocks.
# CHECK: error: nesting too deep (limit 200)
