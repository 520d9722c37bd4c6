# RUN: %python -c "print(''.join(' ' * i + 'if x:\n' for i in range(1000)))" > %t.pir
# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %t.pir 2>&1 | FileCheck %s
# 1000 nested indented blocks: the indentation stack is capped.
# CHECK: :202:202: error: nesting too deep (limit 200)
