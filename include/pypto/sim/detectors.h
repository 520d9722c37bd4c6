// Happens-before race detection on window bytes (--detect-races).
//
// Every logical thread carries a vector clock. Edges: dispatch (host -> task),
// spawn/join (parent <-> SPMD blocks), notify -> wait (the signal cell holds
// the join of its notifiers' clocks; a satisfied wait acquires it), defer_wait
// and whole-operation collectives (every participant joins every arrival).
// Each window byte remembers its last write and the last read of every thread;
// an access that is not ordered after a conflicting one (and not both atomic)
// is a race, reported with both accesses' ranks, ops and source lines. The
// shadow state is kept per run of adjacent bytes with identical state (an
// interval map, split at access boundaries and re-merged after each access),
// so tile-sized accesses cost O(log runs + runs touched), not O(bytes), and
// memory follows the number of distinct access boundaries, not the window size.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "pypto/core/span.h"
#include "pypto/sim/schedule.h"

namespace pypto::sim {

void ClockTick(LogicalThread& t);
void ClockJoin(std::vector<uint32_t>& into, const std::vector<uint32_t>& from);

class RaceDetector {
 public:
  explicit RaceDetector(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }
  void SetSpanFormatter(std::function<std::string(Span)> f) { fmt_ = std::move(f); }
  void SetWindowNamer(std::function<std::string(int)> f) { window_name_ = std::move(f); }

  // An access of bytes [off, off+n) of allocation `alloc` on `device`. The copy
  // paths call it per element: an access that continues the previous one (same
  // thread, site, kind and clock, next byte) only extends it, and the gathered
  // range is checked as one when anything else happens.
  void Access(LogicalThread& t, int alloc, int device, int64_t off, int64_t n, bool write,
              bool atomic, const std::string& op, Span span);
  // notify: the cell's clock absorbs t's clock; wait/defer_wait: t absorbs it.
  void Release(LogicalThread& t, int alloc, int device, int64_t off);
  void Acquire(LogicalThread& t, int alloc, int device, int64_t off);

  // The races found so far (completing the access still being gathered).
  const std::vector<std::string>& reports();
  bool found() { return !reports().empty(); }

 private:
  struct Epoch {
    int tid = -1;
    uint32_t clk = 0;
    int site = -1;
    bool atomic = false;
    bool operator==(const Epoch&) const = default;
  };
  // The state of every byte of one run.
  struct RunShadow {
    Epoch write;
    std::vector<Epoch> reads;  // at most one per thread
    bool operator==(const RunShadow&) const = default;
  };
  using Runs = std::map<int64_t, RunShadow>;  // run start -> state up to the next start
  static Runs::iterator Split(Runs& runs, int64_t at);
  static void Coalesce(Runs& runs, Runs::iterator from, Runs::iterator to);

  struct Site {
    std::string op;
    int device;
    std::string thread;
    Span span;
  };
  // The access being gathered, with the thread's clock as it was then.
  struct Pending {
    bool active = false, write = false, atomic = false;
    int tid = -1, alloc = 0, device = 0, site = -1;
    int64_t off = 0, end = 0;
    std::vector<uint32_t> clock;
  };
  int AddSite(LogicalThread& t, const std::string& op, Span span);
  void FlushLocked();  // checks and records pending_ (mu_ held)
  void Report(const Epoch& prev, bool prev_write, int cur_site, bool cur_write, int alloc,
              int device, int64_t off);

  bool enabled_;
  std::mutex mu_;
  std::map<std::pair<int, int>, Runs> shadow_;  // by (alloc, device); run 0 starts at byte 0
  std::map<std::tuple<int, int, int64_t>, std::vector<uint32_t>> cells_;
  std::vector<Site> sites_;
  Pending pending_;
  std::map<std::pair<int, int>, bool> reported_pairs_;
  std::vector<std::string> reports_;
  std::function<std::string(Span)> fmt_;
  std::function<std::string(int)> window_name_;
};

}  // namespace pypto::sim
