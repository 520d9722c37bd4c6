# RUN: not pypto-opt %s 2>&1 | FileCheck %s
# Syntax errors are all reported (recovery skips to the next statement), each at
# the offending token.
# CHECK: syntax_recovery.pir:14:29: error: expected ':' after for header, found end of line
# CHECK: syntax_recovery.pir:16:17: error: expected ':' after if condition, found end of line
# CHECK: syntax_recovery.pir:18:22: error: expected ')' to close the argument list, found name 'b'
# CHECK: syntax_recovery.pir:19:15: error: chained assignment (`a = b = c`) is not supported; assign one name at a time
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def f(self, n: pl.Scalar[pl.INDEX]):
        for i in pl.range(n)
            pass
        if n > 1
            pass
        x = pl.max(n b)
        y = z = n
