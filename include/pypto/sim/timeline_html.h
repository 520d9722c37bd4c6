// `pypto-run --timeline FILE.html`: one self-contained HTML page (inline SVG and
// CSS, no scripts, fonts or links) drawing a run as one row per rank and logical
// thread: a bar per op, waits shaded by how long they blocked, an arrow from each
// notify to the wait it released, whole-operation collectives grouped across
// ranks, a deadlock's blocked ops marked with their cell, expected and actual
// value, and a per-rank table of time computing / communicating / waiting and
// bytes moved. Every drawn element carries a class (bar, arrow, group, blocked)
// so tests can count them against the Chrome trace of the same run.
#pragma once

#include <string>
#include <vector>

#include "pypto/sim/schedule.h"
#include "pypto/sim/trace.h"

namespace pypto::sim {

struct TimelineInput {
  std::string title;  // the program file
  int ranks = 1;
  std::string schedule;   // "parallel", "random:7"
  std::string time_unit;  // "us" or "steps"
  std::string outcome;    // "ok" or the run's report
  const std::vector<TraceEvent>* events = nullptr;
  const std::vector<TraceThread>* threads = nullptr;
  std::vector<DeadlockedThread> deadlocked;
};

// At most this many events are drawn (the summary counts all of them).
inline constexpr size_t kTimelineMaxDrawn = 50000;

std::string RenderTimelineHtml(const TimelineInput& in);

}  // namespace pypto::sim
