# Unknown passes and pipelines are usage errors (exit 2) listing the valid names;
# every registered pass has a factory, so every registered name resolves.
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --passes=nope 2>&1 | FileCheck %s --check-prefix=ONE
# ONE: pypto-opt: error: unknown pass or pipeline 'nope'; valid pipelines: default; valid passes: outline-incore-scopes, convert-to-ssa, simplify,
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --passes=simplify,nope 2>&1 | FileCheck %s --check-prefix=LIST
# LIST: pypto-opt: error: unknown pass 'nope'; valid passes: outline-incore-scopes, convert-to-ssa, simplify,
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --passes=simplify,,simplify 2>&1 | FileCheck %s --check-prefix=EMPTY
# EMPTY: pypto-opt: error: empty pass name in pipeline 'simplify,,simplify'
# RUN: %python %S/Inputs/expect_exit.py 2 pypto-opt %s --pipeline=fast 2>&1 | FileCheck %s --check-prefix=PIPE
# PIPE: pypto-opt: error: unknown pipeline 'fast'; valid pipelines: default
# RUN: %python %S/Inputs/expect_exit.py 0 pypto-opt --list-passes | FileCheck %s --check-prefix=LS
# LS: outline-incore-scopes
# LS: convert-to-ssa
# LS: simplify
# LS: convert-tensor-to-tile-ops
# LS: lower-composite-ops
# LS: flatten-tile-nd-to-2d
# LS: lower-auto-vector-split{{$}}
# LS: lower-l2-tensor-collectives{{$}}
# LS: insert-comm-fence
# RUN: %python %S/Inputs/expect_exit.py 0 pypto-opt --list-pipelines | FileCheck %s --check-prefix=LP
# LP: default: outline-incore-scopes convert-to-ssa simplify flatten-call-args convert-tensor-to-tile-ops lower-composite-ops flatten-tile-nd-to-2d infer-tile-memory-space lower-auto-vector-split expand-mixed-kernel
