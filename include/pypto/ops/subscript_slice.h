// The tensor.slice call a view subscript `base[i0, ..]` stands for. It knows
// tensor.slice's argument layout, so it lives in the ops layer.
#pragma once

#include <vector>

#include "pypto/core/diagnostics.h"
#include "pypto/core/span.h"
#include "pypto/ir/expr.h"

namespace pypto::ir {

class Context;

// `base[i0, ..., ik-1]` on a tensor with k < rank: the view that drops the k
// leading dims, i.e. pl.tensor.slice(base, [1, .., 1, d_k, ..], [i0, .., 0, ..],
// [], [0, .., k-1]). Diagnostics (through MakeOpCall) on bad input; nullptr then.
const Call* MakeSubscriptSlice(Context& ctx, const Expr* base,
                               const std::vector<const Expr*>& indices, Span span,
                               DiagnosticEngine& diag);

}  // namespace pypto::ir
