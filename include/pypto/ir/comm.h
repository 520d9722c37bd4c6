// The four ABI enums of the distributed op family. Append-only: the integer value
// is the kwarg payload stored in IR (op= for notify, cmp= for wait/defer_wait,
// atomic= for put/remote_store, op= for collectives), so existing IR and cached
// programs keep their meaning. New variants go at the end only.
#pragma once

namespace pypto::ir {

enum class NotifyOp : int { kAtomicAdd = 0, kSet = 1 };                 // pld.system.notify
enum class WaitCmp : int { kEq = 0, kGe = 1 };                          // wait / defer_wait
enum class AtomicType : int { kNone = 0, kAdd = 1 };                    // put, remote_store
enum class ReduceOp : int { kSum = 0, kMax = 1, kMin = 2, kProd = 3 };  // collectives

// defer_wait V1: one task registers at most this many completion conditions
// (independent of the scheduler's limit on concurrently deferred tasks).
inline constexpr int kMaxDeferredConditions = 64;

// mode="ring" on the HOST rail (builtin.tensor.allreduce_ring) runs on at most
// this many ranks (checked by the lowering when NR is static, else at run time).
inline constexpr int kMaxHostRingRanks = 16;

}  // namespace pypto::ir
