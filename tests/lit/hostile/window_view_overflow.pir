# A window view's byte size is overflow-checked before anything multiplies its
# dims: [2^32, 2^32] FP32 (2^66 bytes) on a 64-byte buffer fails its size check
# (it used to wrap to 0 and pass); [2^32, 2] reports its exact size.
# RUN: rm -rf %t.d && sed 's/@SHAPE@/4294967296, 4294967296/' %s > %t.huge.pir
# RUN: %python %S/../malformed/Inputs/expect_exit1.py pypto-run %t.huge.pir --ranks 2 --output-dir %t.d | FileCheck %s --check-prefix=HUGE --match-full-lines
# RUN: sed 's/@SHAPE@/4294967296, 2/' %s > %t.big.pir
# RUN: %python %S/../malformed/Inputs/expect_exit1.py pypto-run %t.big.pir --ranks 2 --output-dir %t.d | FileCheck %s --check-prefix=BIG --match-full-lines
# HUGE: {{.*}}.huge.pir:{{[0-9]+}}:16: error: pld.tensor.window: view [4294967296, 4294967296] FP32 needs more than 2^63 bytes but window buffer 'buf' has 64
# BIG: {{.*}}.big.pir:{{[0-9]+}}:16: error: pld.tensor.window: view [4294967296, 2] FP32 needs 34359738368 bytes but window buffer 'buf' has 64
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class WindowView:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self):
        buf = pld.tensor.alloc_window_buffer(64)
        data = pld.tensor.window(buf, [@SHAPE@], dtype=pl.FP32)
