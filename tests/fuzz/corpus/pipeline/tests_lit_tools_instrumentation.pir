# --print-after=NAME / --print-after-all print the IR after passes to stderr
# under `// -----// IR after <pass> //----- //` headers; --time-passes prints a
# per-pass wall-time table (with %) at the end; '-' reads stdin; -o writes the
# IR to a file.
# RUN: pypto-opt %s --passes=convert-to-ssa,simplify --print-after=convert-to-ssa 2> %t.err > %t.out
# RUN: FileCheck %s --check-prefix=PA < %t.err
# PA:      // -----// IR after convert-to-ssa //----- //
# PA-NEXT: # pypto.program: Instr
# PA:      x_1: pl.Scalar[pl.INDEX] = x * 2
# PA-NOT:  IR after simplify
# RUN: pypto-opt %s --passes=convert-to-ssa,simplify --print-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=PAA
# PAA: // -----// IR after convert-to-ssa //----- //
# PAA: // -----// IR after simplify //----- //
# RUN: pypto-opt %s --passes=convert-to-ssa,simplify --time-passes 2>&1 >/dev/null | FileCheck %s --check-prefix=TIME
# TIME:      ... Pass execution timing report ...
# TIME:      Total Execution Time: {{[0-9.]+}} seconds
# TIME:      Wall Time (%)       Name
# TIME-NEXT: {{ *[0-9.]+ \( *[0-9.]+%\)}}  convert-to-ssa
# TIME-NEXT: {{ *[0-9.]+ \( *[0-9.]+%\)}}  simplify
# TIME-NEXT: {{ *[0-9.]+}} (100.0%)  Total
# RUN: pypto-opt - --passes=convert-to-ssa < %s | FileCheck %s --check-prefix=STDIN
# STDIN: x_1: pl.Scalar[pl.INDEX] = x * 2
# RUN: pypto-opt %s --passes=convert-to-ssa -o %t.pir
# RUN: FileCheck %s --check-prefix=STDIN < %t.pir
import pypto.language as pl


@pl.program
class Instr:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, n: pl.Scalar[pl.INDEX]):
        x = n + 1
        x = x * 2
        return x
