# Hostile target shapes through every InCore collective lowering (the default
# pipeline): each input is lowered, kept with a warning, or rejected with a
# diagnostic; none crashes or hits an internal error (exit 3). Before the type
# checks on dims and byte sizes, 42 of these inputs died of SIGFPE and 10 hit
# internal errors. The input count is exact: the inputs are fixed.
# RUN: %python %S/Inputs/collective_shapes.py pypto-opt | FileCheck %s
# CHECK-NOT: BAD
# CHECK: collective_shapes: 2916 inputs, exit0 {{[0-9]+}}, exit1 {{[0-9]+}}, other 0
