# RUN: %python -c "print('x = ' + '(' * 100000 + '1' + ')' * 100000)" > %t.pir
# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %t.pir 2>&1 | FileCheck %s
# 10^5 nested parentheses: a clean error at the 201st bracket, no stack overflow.
# CHECK: :1:205: error: nesting too deep (limit 200)
