// Argument directions at run time. A kernel call or a device dispatch binds the
// tensor argument of each pl.In parameter to a view that must not be written,
// and of each pl.Out parameter to one that must not be read where the call has
// not written it yet (what an Out held before the call is undefined: reading it
// is the missing read-after-write edge the declaration hides). pl.InOut
// arguments are not guarded, nor are windows (pld.DistributedTensor: buffers
// that ranks synchronise through signals, not task edges; upstream programs
// pass them undeclared and write them). The guard travels with every view
// derived from the argument and chains to the guard the argument already had
// (a dispatched orchestration calling a kernel), so an outer In is not lost.
// Accesses are judged by storage byte range, one range per contiguous row of
// the box; an Out guard keeps the ranges written as an interval set.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "pypto/core/span.h"
#include "pypto/ir/enums.h"
#include "pypto/sim/value.h"

namespace pypto::ir {
struct Function;
struct Call;
}  // namespace pypto::ir

namespace pypto::sim {

class Exec;

struct DirGuard {
  std::string function;                              // the called kernel
  std::string param;                                 // its parameter
  ir::ParamDirection dir = ir::ParamDirection::kIn;  // kIn or kOut
  Span call;                                         // the call or dispatch that bound it
  uint64_t owner = 0;  // the binding call (a run-unique id): its results drop the guard
  std::shared_ptr<DirGuard> outer;
  std::mutex mu;                       // a host tensor's guard is shared by ranks
  std::map<int64_t, int64_t> written;  // Out: storage bytes [lo, hi) written, by lo
};

// The argument `v` of parameter `i` of `f` as the call sees it (guarded when
// the parameter is pl.In / pl.Out and `v` a non-window tensor).
Value GuardArgument(const ir::Function& f, size_t i, const Value& v, Span call, uint64_t owner);
// A result of the call `owner` (tuples element-wise) without its guards.
Value ReleaseGuards(const Value& v, uint64_t owner);
// Judges an access of storage bytes [lo, hi) of `v`: the guard
// of its chain the access violates (a write under pl.In, a read of bytes a
// pl.Out guard has not seen written), else nullptr; records Out writes.
const DirGuard* JudgeAccess(const TensorVal& v, int64_t lo, int64_t hi, bool write);
// The error of a violated guard, at the executing op: box [off, off + ext) of
// operand `role` (view `v`) was written / read.
[[noreturn]] void FailDirection(const Exec& ex, const DirGuard& g, const TensorVal& v, bool write,
                                const char* role, const std::vector<int64_t>& off,
                                const std::vector<int64_t>& ext);

}  // namespace pypto::sim
