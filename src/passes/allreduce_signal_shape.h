// The signal-layout rule of an InCore pld.tensor.allreduce, checked when it is
// lowered: mesh addresses cell [rank, 0] of an [NR] / [NR, 1] signal, ring cell
// [row, rank] of a [2 * (NR - 1), NR] one. A signal of the other mode's layout
// (one signal shared by a mesh and a ring call) is an error at the call, not a
// kept call. The op's deducer has already checked rank and static row counts.
#pragma once

#include "pypto/core/diagnostics.h"
#include "pypto/ir/expr.h"

namespace pypto::passes {

// False (with an error at `span`) when the allreduce `call`'s signal cannot have
// the layout its mode addresses. Dims not known statically are not judged.
bool CheckAllreduceSignalShape(const ir::Call& call, Span span, DiagnosticEngine& diag);

}  // namespace pypto::passes
