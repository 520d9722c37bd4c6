# RUN: %python -c "print('x = ' + '[' * 100000 + ']' * 100000)" > %t.pir
# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %t.pir 2>&1 | FileCheck %s
# 10^5 nested list brackets.
# CHECK: :1:205: error: nesting too deep (limit 200)
