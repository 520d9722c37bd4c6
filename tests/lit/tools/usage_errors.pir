# Usage errors of pypto-opt exit with code 2 and say what is wrong.
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --bogus 2>&1 | FileCheck %s --check-prefix=FLAG
# FLAG: pypto-opt: error: unknown option '--bogus'
# FLAG: usage: pypto-opt FILE
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt 2>&1 | FileCheck %s --check-prefix=NOFILE
# NOFILE: pypto-opt: error: no input file
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
# MISSING: pypto-opt: error: cannot open input file '{{.*}}usage_errors.pir.does-not-exist'
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s %s 2>&1 | FileCheck %s --check-prefix=TWO
# TWO: pypto-opt: error: more than one input file
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --emit=llvm 2>&1 | FileCheck %s --check-prefix=EMIT
# EMIT: pypto-opt: error: --emit must be 'ir' or 'pto', got 'llvm'
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --target=a3 2>&1 | FileCheck %s --check-prefix=TARGET
# TARGET: pypto-opt: error: --target must be 'a2a3' or 'a5', got 'a3'
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s -o 2>&1 | FileCheck %s --check-prefix=OUT
# OUT: pypto-opt: error: -o needs an output path
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --passes=simplify --pipeline=default 2>&1 | FileCheck %s --check-prefix=BOTH
# BOTH: pypto-opt: error: --passes and --pipeline are mutually exclusive
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --print-after=nope 2>&1 | FileCheck %s --check-prefix=PA
# PA: pypto-opt: error: --print-after: unknown pass 'nope'
# RUN: %python %S/Inputs/expect_exit.py 0 pypto-opt --help | FileCheck %s --check-prefix=HELP
# HELP: usage: pypto-opt FILE [--passes=a,b | --pipeline=NAME]
# Where the output goes without -o is stated.
# HELP: FILE '-' reads stdin. Output: --emit=ir (the default) writes the IR to -o FILE;
# HELP-NEXT: --emit=pto writes DIR/<kernel>.pto per module to -o DIR; without -o, either goes
# HELP-NEXT: to stdout (PTO modules one after another).
# HELP-NEXT: Exit codes: 0 success; 1 diagnostics (parse, verify, pass or emit errors);
# HELP-NEXT: 2 usage error or unreadable FILE; 3 internal error.
