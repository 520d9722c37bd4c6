# RUN: %python -c "print('x = ' + 'not ' * 100000 + 'y')" > %t.pir
# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %t.pir 2>&1 | FileCheck %s
# 10^5 chained `not`.
# CHECK: :1:805: error: nesting too deep (limit 200)
