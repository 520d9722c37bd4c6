// Happens-before race detection on window bytes (--detect-races).
//
// Every logical thread carries a vector clock. Edges: dispatch (host -> task),
// spawn/join (parent <-> SPMD blocks), notify -> wait (the signal cell holds
// the join of its notifiers' clocks; a satisfied wait acquires it), defer_wait
// and whole-operation collectives (every participant joins every arrival).
// Each window byte remembers its last write and the last read of every thread;
// an access that is not ordered after a conflicting one (and not both atomic)
// is a race, reported with both accesses' ranks, ops and source lines.
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

  // An access of bytes [off, off+n) of allocation `alloc` on `device`.
  void Access(LogicalThread& t, int alloc, int device, int64_t off, int64_t n, bool write,
              bool atomic, const std::string& op, Span span);
  // notify: the cell's clock absorbs t's clock; wait/defer_wait: t absorbs it.
  void Release(LogicalThread& t, int alloc, int device, int64_t off);
  void Acquire(LogicalThread& t, int alloc, int device, int64_t off);

  const std::vector<std::string>& reports() const { return reports_; }
  bool found() const { return !reports_.empty(); }

 private:
  struct Site {
    std::string op;
    int device;
    std::string thread;
    Span span;
  };
  struct Epoch {
    int tid = -1;
    uint32_t clk = 0;
    int site = -1;
    bool atomic = false;
  };
  struct ByteShadow {
    Epoch write;
    std::vector<Epoch> reads;  // at most one per thread
  };
  int AddSite(LogicalThread& t, const std::string& op, Span span);
  void Report(const Epoch& prev, bool prev_write, int cur_site, bool cur_write, int alloc,
              int device, int64_t off);

  bool enabled_;
  std::mutex mu_;
  std::map<std::pair<int, int>, std::vector<ByteShadow>> shadow_;
  std::map<std::tuple<int, int, int64_t>, std::vector<uint32_t>> cells_;
  std::vector<Site> sites_;
  std::map<std::pair<int, int>, bool> reported_pairs_;
  std::vector<std::string> reports_;
  std::function<std::string(Span)> fmt_;
  std::function<std::string(int)> window_name_;
};

}  // namespace pypto::sim
