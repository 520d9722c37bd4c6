// Deduction of an op call's result type without building the Call: the core of
// MakeOpCall (op_registry.cc), shared with the verifier, which re-deduces every
// stored call and would otherwise allocate a throw-away Call per op.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "pypto/ir/op_registry.h"

namespace pypto::ir {

// Exactly MakeOpCall's checks, diagnostics and deducer run; returns the type
// MakeOpCall would give the call (null after reporting). Enum-typed kwargs are
// canonicalized in `kwargs` as MakeOpCall stores them.
const Type* DeduceOpCallType(Context& ctx, const OpDef& op, const std::vector<const Expr*>& args,
                             AttrList& kwargs, Span span, DiagnosticEngine& diag,
                             std::vector<Span> arg_spans = {},
                             std::vector<std::pair<std::string, Span>> kwarg_spans = {});

}  // namespace pypto::ir
