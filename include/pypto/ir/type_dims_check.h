// The rules every dimension of a written type obeys, checked where a type is
// declared (the IR-text parser, so also the Python DSL) and again by the
// verifier (IR built by the C++ API or by passes): a shape dim, a stride and a
// valid_shape dim is an integer scalar; a shape dim that is constant (after
// folding `1 - 1`, `~2`, ...) is positive and a valid_shape dim is not
// negative; constant arithmetic in a dim has an int64 value; a fully static
// shape's byte size fits in int64. A zero or negative
// dim used to reach the collective lowerings (a division by zero) and the
// executor; a float dim was emitted as fptosi.
#pragma once

#include <functional>
#include <string>

#include "pypto/core/span.h"
#include "pypto/ir/expr.h"
#include "pypto/ir/type.h"

namespace pypto::ir {

// Calls `report(span of the dim, message)` for every dim of `t` (a tensor, distributed
// tensor or tile type; tuples are walked) that breaks a rule; messages read
// "dimension 0 of pl.Tensor[[1 - 1, 64], pl.FP32] is 0; static dimensions must
// be positive". Returns the number of problems.
int CheckTypeDims(const Type* t, const std::function<void(Span, std::string)>& report);

}  // namespace pypto::ir
