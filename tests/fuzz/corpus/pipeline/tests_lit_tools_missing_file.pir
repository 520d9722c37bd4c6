# A program file that cannot be read is a usage error (exit 2) for both tools,
# with the same message.
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s.does-not-exist 2>&1 | FileCheck %s --check-prefix=OPT
# OPT: pypto-opt: error: cannot open input file '{{.*}}missing_file.pir.does-not-exist'
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-run %s.does-not-exist --ranks 2 2>&1 | FileCheck %s --check-prefix=RUNNER
# RUNNER: pypto-run: error: cannot open input file '{{.*}}missing_file.pir.does-not-exist'
# The rank bound is one constant: 1024 is accepted by the option parser, 1025 not.
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-run %s --ranks 1025 2>&1 | FileCheck %s --check-prefix=RANKS
# RANKS: pypto-run: error: --ranks expects 1..1024, got '1025'
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-run %s --ranks 2 --memory-limit=4X 2>&1 | FileCheck %s --check-prefix=LIMIT
# LIMIT: pypto-run: error: --memory-limit: bad byte size '4X'; expected digits with an optional K, M, G or T suffix (binary), or 'none'
