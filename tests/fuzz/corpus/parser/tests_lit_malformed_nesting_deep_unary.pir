# RUN: %python -c "print('import pypto.language as pl\n@pl.jit\ndef f(n: pl.Scalar[pl.INDEX]):\n    x = ' + '-' * 100000 + 'n')" > %t.pir
# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %t.pir 2>&1 | FileCheck %s
# 10^5 chained unary minus signs (recursion without brackets).
# CHECK: :4:209: error: nesting too deep (limit 200)
