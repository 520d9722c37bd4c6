# Recursion, direct or mutual, is rejected by the verifier with the call cycle
# named, once per cycle, at the call that closes it: by pypto-opt and by
# pypto-run (which verifies first), both exit 1. (pypto-run used to overflow the
# executor's C++ stack: SIGSEGV. The executor also bounds the call depth, see
# tests/python/test_hostile_types.py.)
# RUN: not pypto-opt %s 2>&1 | FileCheck %s --match-full-lines
# RUN: %python %S/../malformed/Inputs/expect_exit1.py pypto-opt %s
# RUN: %python %S/../malformed/Inputs/expect_exit1.py pypto-run %s --ranks 1 --output-dir %t.d | FileCheck %s --match-full-lines
# CHECK:{{.*}}recursion.pir:28:9: error: recursive call of 'f' (call cycle: f -> g -> f); recursion is not supported: functions are inlined and run on a bounded stack
# CHECK:{{.*}}recursion.pir:32:9: error: recursive call of 'h' (call cycle: h -> h); recursion is not supported: functions are inlined and run on a bounded stack
# CHECK-NOT: error
import pypto.language as pl


@pl.program
class Recursion:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        self.f()
        self.h()

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def f(self):
        self.g()

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def g(self):
        self.f()

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def h(self):
        self.h()
