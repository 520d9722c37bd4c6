// OpHandle: the identity of a registered op, a dense index handed out by the ops
// layer (pypto/ops/ops.h declares one constexpr handle per op, from op_list.def).
// Code that decides anything about an op compares handles, never text names. A
// default-constructed handle names no op. Kept apart from op_registry.h so that
// expr.h (Call::Is) needs nothing else.
#pragma once

#include <cstdint>

namespace pypto::ir {

struct OpHandle {
  static constexpr uint16_t kNone = 0xFFFF;
  uint16_t id = kNone;
  constexpr bool valid() const { return id != kNone; }
  constexpr bool operator==(const OpHandle&) const = default;
};

}  // namespace pypto::ir
