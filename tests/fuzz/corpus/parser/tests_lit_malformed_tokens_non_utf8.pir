# RUN: %python -c "import sys; sys.stdout.buffer.write(b'import pypto.language as pl\nx = 1\ny = \"\xff\"\n')" > %t.pir
# RUN: %python %S/../Inputs/expect_exit1.py pypto-opt %t.pir 2>&1 | FileCheck %s
# A byte that is not UTF-8 is reported with its position and value.
# CHECK: non_utf8.pir.tmp.pir:3:6: error: invalid UTF-8 byte 0xFF; IR text must be UTF-8
