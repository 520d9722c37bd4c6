// What a pld.tensor.* collective and its HOST builtin.tensor.* dispatch share,
// declared once for both registrations (src/ops/distributed/collectives.cc and
// src/ops/builtins.cc): the returned operand, the per-argument effects and the
// in-place rule; plus the deducer pieces both forms check with the same words.
#pragma once

#include "pypto/ir/op_registry.h"

namespace pypto::ir::dist {

// Declares returned_arg, the argument effects and the in-place rule of
// `collective` (a pld.tensor.* handle) on `b`, which registers the collective
// itself or one of its builtins.
void DeclareCollectiveTraits(OpBuilder& b, OpHandle collective);

// core_num must be positive ("is N; core_num must be a positive integer").
bool CheckCoreNumPositive(DeduceContext& dc, int64_t core_num);
// The barrier: an INT32 [NR] / [NR, 1] signal window, returned.
const Type* DeduceSignalBarrier(DeduceContext& dc);
// Input and target share one element type (reported at the input).
bool CheckSameDtype(DeduceContext& dc, int input, const TensorType* in, const TensorType* target);

}  // namespace pypto::ir::dist
