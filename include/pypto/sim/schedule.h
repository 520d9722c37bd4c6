// Schedules of logical threads (host, per-rank device workers, SPMD blocks,
// split-AIV sub-blocks). Two implementations behind one interface:
//  - parallel: one OS thread per logical thread; a blocked wait checks its
//    condition ~100 times, sched_yield()s for at most 50 us (a hop between
//    ranks sharing a core), then sleeps on a condition variable until Wake()
//    or a 200 us timeout (writers that do not call Wake are still seen); exact
//    deadlock detection when every live thread is blocked, plus a deadline.
//  - random:SEED: exactly one logical thread runs at a time; at every switch
//    point (each comm op, each wait) the baton goes to a runnable thread chosen
//    by a seeded RNG, so a seed replays the same interleaving; deadlock is exact
//    (no runnable thread).
//  - pct:SEED[:DEPTH[:STEPS]]: like random (one thread at a time, exact
//    deadlock), but the baton always goes to the runnable thread of highest
//    priority. Priorities are random per logical thread; DEPTH-1 change points,
//    drawn on switch steps 1..STEPS, drop the running thread's priority below
//    every other (Burckhardt et al., "A randomized scheduler with probabilistic
//    guarantees of finding bugs", ASPLOS 2010). Finds ordering bugs of depth d
//    with probability >= 1/(n k^(d-1)) per run instead of exponentially small.
// On deadlock every blocked thread is reported with its BlockInfo; then all
// threads unwind by throwing Aborted.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pypto/core/span.h"
#include "pypto/sim/run.h"

namespace pypto::sim {

class Machine;

// Why a thread is blocked: rendered into the deadlock report.
struct BlockInfo {
  std::string what;      // "pld.system.wait", "pld.tensor.allreduce", "join", ...
  std::string function;  // enclosing function
  Span span;
  // Describes the unmet condition now (e.g. "signal 'sig' cell [1, 0] == 2
  // expected (Ge), actual 1"); evaluated when the report is written.
  std::function<std::string()> describe;
};

// A thread found blocked when a deadlock was declared (for the timeline).
struct DeadlockedThread {
  int tid = 0;
  std::string thread, what, where, condition;
};

struct ThreadState;

// One logical thread of execution.
struct LogicalThread {
  int tid = 0;
  std::string name;  // "host", "rank1", "rank1.block2", ...
  int device = -1;   // -1 = host
  int64_t block_idx = 0, block_num = 1, subblock_idx = 0, subblock_num = 1;
  std::vector<uint32_t> clock;   // vector clock (race detection)
  ThreadState* state = nullptr;  // scheduler-private
  int64_t step = 0;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  // Runs `bodies` as new logical threads (children of `parent`) and returns when
  // all have finished. Exceptions other than Aborted are the body's business.
  virtual void RunGroup(LogicalThread& parent, std::vector<std::unique_ptr<LogicalThread>>& kids,
                        const std::function<void(LogicalThread&)>& body) = 0;
  // A switch point (called at every comm op).
  virtual void Point(LogicalThread& t) = 0;
  // Blocks until ready() holds. ready() must only read atomics / machine state
  // under no lock of its own. Throws Aborted when the run is torn down.
  virtual void Block(LogicalThread& t, const std::function<bool()>& ready, BlockInfo info) = 0;
  // Something a blocked thread's ready() reads has changed (a signal cell, an
  // arrival count, a task result): wakes the threads sleeping in Block. A
  // writer that does not call it is still seen, after a short timeout.
  virtual void Wake() {}
  // Registers the initial (host) thread.
  virtual void Start(LogicalThread& main) = 0;
  virtual void Finish(LogicalThread& main) = 0;
  // Aborts the run (all blocked threads throw Aborted).
  virtual void Abort() = 0;
  // Aborts the run like Abort() and returns one line per thread blocked now
  // (the deadlock report's lines): another process of a multi-process run
  // failed, and this one says where its ranks were waiting.
  virtual std::string AbortListingBlocked() = 0;
  virtual bool aborted() const = 0;
  // Set once a deadlock was detected: the rendered report.
  virtual std::string deadlock_report() const = 0;
  // The blocked threads of that deadlock, by tid (empty when there was none).
  virtual std::vector<DeadlockedThread> deadlocked() const = 0;
  // A monotonically increasing timestamp for traces (µs in parallel mode,
  // switch-step count in random mode, which keeps traces deterministic).
  virtual int64_t Now(LogicalThread& t) = 0;
  int NewTid() { return next_tid_++; }
  // Counts one unit of work (a loop iteration or a switch point) against
  // RunOptions::max_steps; false once the budget is exceeded.
  bool Tick() {
    return max_steps_ <= 0 || work_.fetch_add(1, std::memory_order_relaxed) < max_steps_;
  }
  int64_t max_steps() const { return max_steps_; }
  // Renders a span as "file:line" for reports.
  void SetSpanFormatter(std::function<std::string(Span)> f) { span_fmt_ = std::move(f); }

 protected:
  std::atomic<int> next_tid_{0};
  std::atomic<int64_t> work_{0};
  int64_t max_steps_ = 0;
  std::function<std::string(Span)> span_fmt_;
};

std::unique_ptr<Scheduler> MakeScheduler(const RunOptions& opts);

}  // namespace pypto::sim
