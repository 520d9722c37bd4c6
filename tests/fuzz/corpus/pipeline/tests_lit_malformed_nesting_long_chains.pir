# RUN: %python -c "print('x = a' + ' + a' * 100000); print('y = a' + '.b' * 100000); print('z = f' + '(1)' * 100000)" > %t.pir
# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %t.pir 2>&1 | FileCheck %s
# Flat chains build deep trees (left-nested operators, attributes, calls); they
# are capped too, in linear time.
# CHECK: :1:{{[0-9]+}}: error: expression too deep (limit 1000 nested operations)
